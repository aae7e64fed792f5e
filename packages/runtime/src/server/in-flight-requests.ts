import type { HandleContext } from "./context.js";

/** What cancelling a request in flight fires. */
interface Abortable {
  abort(reason: unknown): void;
}

/** The channel of every call handed over without one: they share it (HandleContext.channel). */
const DEFAULT_CHANNEL = {};

/**
 * The requests a router is handling, per channel, so only the channel that sent a request can
 * cancel it (notifications/cancelled), and only for the principal that sent it.
 */
export class InFlightRequests {
  private readonly byChannel = new WeakMap<object, Map<string, Abortable>>();

  /** Tracks `controller` as the one of request `id`; the function returned stops tracking it. */
  track(context: HandleContext, id: string | number, controller: Abortable): () => void {
    const requests = this.requestsOf(context);
    const key = requestKey(context, id);
    requests.set(key, controller);
    return () => {
      // A later request reusing the id holds the key now: its entry stays.
      if (requests.get(key) === controller) requests.delete(key);
    };
  }

  /** Aborts request `id` with `reason`, if the context's channel and principal have it in flight. */
  cancel(context: HandleContext, id: unknown, reason: unknown): void {
    this.requestsOf(context).get(requestKey(context, id))?.abort(reason);
  }

  private requestsOf(context: HandleContext): Map<string, Abortable> {
    const channel = context.channel ?? DEFAULT_CHANNEL;
    let requests = this.byChannel.get(channel);
    if (!requests) this.byChannel.set(channel, (requests = new Map()));
    return requests;
  }
}

const requestKey = (context: HandleContext, id: unknown) =>
  `${context.principal ?? ""}\u0000${String(id)}`;
