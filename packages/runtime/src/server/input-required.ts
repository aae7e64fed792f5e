import type { RequestContext } from "./context.js";
import type { ProtocolDescriptor } from "../core/protocol.js";
import { requireInputCapabilities } from "./client-capabilities.js";
import { warnDeprecatedAll } from "../core/deprecation.js";

// Server-side helpers of multi round-trip: ask for input the client can give, and refuse
// work that needs a capability the request did not declare.

export { requireClientCapability } from "./client-capabilities.js";

/**
 * Builds the interim answer of a multi round-trip request. Refuses to ask for an input the
 * request's client capabilities do not declare; needs `inputRequests` or `requestState`.
 */
export function inputRequired(
  protocol: ProtocolDescriptor,
  ctx: Pick<RequestContext, "clientCapabilities">,
  input: {
    inputRequests?: { readonly [key: string]: { method: string; params?: unknown } };
    requestState?: string;
  },
): { resultType: "input_required"; inputRequests?: object; requestState?: string } {
  if (!protocol.features.mrtr)
    throw new TypeError(`revision ${protocol.revision} has no multi round-trip requests`);
  const requests = input.inputRequests;
  const asked = requests !== undefined && Object.keys(requests).length > 0;
  if (!asked && input.requestState === undefined)
    throw new TypeError("inputRequired needs inputRequests or requestState");
  requireInputCapabilities(protocol, ctx, requests);
  if (asked && protocol.deprecated)
    warnDeprecatedAll(
      protocol,
      Object.values(requests).map((r) => r.method),
      "an input request (inputRequired)",
    );
  return {
    resultType: "input_required",
    ...(asked ? { inputRequests: requests } : {}),
    ...(input.requestState !== undefined ? { requestState: input.requestState } : {}),
  };
}
