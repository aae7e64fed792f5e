import type { HandleContext } from "./context.js";

/** What cancelling a request in flight fires. */
interface Abortable {
  abort(reason: unknown): void;
}

/** The channel of every call handed over without one: they share it (HandleContext.channel). */
const DEFAULT_CHANNEL = {};

/** One request in flight on a channel: its key (principal and id) and what cancels it. */
interface Tracked {
  readonly key: string;
  readonly controller: Abortable;
}

/**
 * The requests a router is handling, per channel, so only the channel that sent a request can
 * cancel it (notifications/cancelled), and only for the principal that sent it. A channel
 * with one request in flight (every Streamable HTTP POST is its own channel) holds it as it
 * is; a Map is made only for a channel with more (stdio, a legacy session).
 */
export class InFlightRequests {
  private readonly byChannel = new WeakMap<object, Tracked | Map<string, Abortable>>();

  /** Tracks `controller` as the one of request `id`; the function returned stops tracking it. */
  track(context: HandleContext, id: string | number, controller: Abortable): () => void {
    const channel = context.channel ?? DEFAULT_CHANNEL;
    const key = requestKey(context, id);
    const held = this.byChannel.get(channel);
    if (held === undefined) {
      const tracked: Tracked = { key, controller };
      this.byChannel.set(channel, tracked);
      return () => this.untrack(channel, key, controller, tracked);
    }
    const requests = held instanceof Map ? held : new Map([[held.key, held.controller]]);
    if (requests !== held) this.byChannel.set(channel, requests);
    requests.set(key, controller);
    return () => this.untrack(channel, key, controller, undefined);
  }

  /** Aborts request `id` with `reason`, if the context's channel and principal have it in flight. */
  cancel(context: HandleContext, id: unknown, reason: unknown): void {
    const held = this.byChannel.get(context.channel ?? DEFAULT_CHANNEL);
    const key = requestKey(context, id);
    if (held instanceof Map) held.get(key)?.abort(reason);
    else if (held?.key === key) held.controller.abort(reason);
  }

  /** Stops tracking `controller` as request `key`, unless a later request reusing the id holds the key now. */
  private untrack(channel: object, key: string, controller: Abortable, tracked?: Tracked): void {
    const held = this.byChannel.get(channel);
    if (held === undefined) return;
    // A channel's one request is tracked by its own entry; once a second came, the channel
    // holds a Map for good.
    if (!(held instanceof Map)) {
      if (held === tracked) this.byChannel.delete(channel);
      return;
    }
    if (held.get(key) === controller) held.delete(key);
  }
}

const requestKey = (context: HandleContext, id: unknown) =>
  `${context.principal ?? ""}\u0000${String(id)}`;
