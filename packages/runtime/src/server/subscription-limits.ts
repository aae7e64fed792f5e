import { positiveInteger } from "../core/options.js";

// The caps on a legacy session's resources/subscribe (issue 35): checked once when the
// dispatcher is made, and read by each session. Not exported from the package: the options
// are SessionOptions'.

/** The options the caps come from (part of SessionOptions). */
interface SubscriptionOptions {
  maxSubscriptionsPerSession?: number;
  maxSubscriptionUriLength?: number;
}

/** The caps on a session's subscriptions, checked (a positive integer each), with their defaults. */
export function subscriptionLimits(options: SubscriptionOptions = {}) {
  return {
    maxSubscriptions: positiveInteger(
      options.maxSubscriptionsPerSession,
      "maxSubscriptionsPerSession",
      100,
    ),
    maxUriLength: positiveInteger(
      options.maxSubscriptionUriLength,
      "maxSubscriptionUriLength",
      2_048,
    ),
  };
}
