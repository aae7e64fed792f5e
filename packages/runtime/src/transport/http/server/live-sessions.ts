import type { LegacySessionState } from "../../../server/legacy-session.js";
import {
  EVENT_STREAM_HEADERS,
  type EventStream,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import {
  requestKey,
  TrackedPost,
  type HeldRequests,
  type TrackedRequest,
} from "./live-requests.js";

export type { TrackedRequest };
import type { MessageHandler } from "./options.js";
import type { SessionStore } from "./sessions.js";

// The legacy sessions this instance holds: for each, the channel its dispatcher session is
// open on, its standalone GET stream and the POSTs it is answering. What a session is lives
// in the store (sessions.ts); this table holds what cannot be stored, and rebuilds a session
// any instance created from its record. Every stream of a session is closed when the session
// ends here (DELETE), is found gone from the store (expired, or deleted through another
// instance), or, for the standalone stream, when a newer one replaces it or it stays idle.

/** How this instance keeps its sessions' streams. */
export interface LiveSessionOptions {
  readonly dispatcher: MessageHandler;
  readonly store: SessionStore;
  /** A comment on an open standalone stream this often, so that proxies keep it open. */
  readonly keepAliveMs: number;
  /** A standalone stream that carried no message this long is closed; the client reopens it. */
  readonly streamIdleTimeoutMs: number;
  /** A session this instance has not served this long (and holds no stream of) is let go. */
  readonly idleMs: number;
  /** Told about failures no response carries (the store unreachable while checking). */
  readonly report: (line: string) => void;
  /** Told when a session ends here (DELETE, expiry, gone from the store): forget its events. */
  readonly onEnd?: (channel: object) => void;
}

/**
 * Opens a standalone stream's connection through `sink` and makes it the session's stream
 * for messages not tied to a request through `attach`; returns what detaches it, if the
 * stream stops receiving when its connection closes. The resumable streams (resumable.ts)
 * open it so that its events carry ids, and keep recording after the connection closes.
 */
export type StandaloneOpener = (
  exchange: HttpExchange,
  sink: ReplySink,
  attach: (send: (message: object) => unknown) => () => void,
) => Promise<(() => void) | void> | (() => void) | void;

/** `stream`, writing nothing once ended (the resumable layer may still write to it). */
function endedOnce(stream: EventStream): EventStream {
  let ended = false;
  return {
    event: (message, id) => !ended && stream.event(message, id),
    mark: (fields) => void (ended || stream.mark(fields)),
    comment: (text) => void (ended || stream.comment(text)),
    end: () => void (ended || ((ended = true), stream.end())),
  };
}

/** A standalone stream without event ids: it stops receiving when its connection closes. */
const plainStandalone: StandaloneOpener = (_exchange, sink, attach) => {
  const stream = sink.openStream(EVENT_STREAM_HEADERS);
  stream.comment("stream open");
  return attach((message) => stream.event(message));
};

/** A session held here. */
interface HeldSession {
  readonly channel: object;
  /** The standalone GET stream, while open: closing it ends it. */
  standalone: { close(): void } | undefined;
  /** The POSTs being answered, and the client requests they serve (live-requests.ts). */
  readonly requests: HeldRequests["requests"];
  readonly serving: HeldRequests["serving"];
  /** When this instance last served it. */
  seen: number;
}

export class LiveSessions {
  /** Least recently served first. */
  private readonly held = new Map<string, HeldSession>();
  private readonly options: LiveSessionOptions;

  constructor(options: LiveSessionOptions) {
    this.options = options;
  }

  /**
   * The channel serving session `id` here: the one held, brought up to date with `state`
   * (another instance may have changed it), or a new one the session is rebuilt on from
   * `state`. Undefined when the dispatcher cannot serve the session.
   */
  channelFor(id: string, state: LegacySessionState): object | undefined {
    const { dispatcher } = this.options;
    const held = this.held.get(id);
    if (held && dispatcher.session?.(held.channel)) {
      dispatcher.restoreSession?.(held.channel, state);
      this.markServed(id, held);
      return held.channel;
    }
    const channel = {};
    if (!dispatcher.restoreSession?.(channel, state)) return undefined;
    this.hold(id, channel);
    return channel;
  }

  /** Holds the session `id`, open on `channel` (a new one, or one rebuilt from its record). */
  hold(id: string, channel: object): void {
    this.sweep();
    const held = this.held.get(id);
    if (held && held.channel !== channel) this.end(id);
    this.held.set(id, {
      channel,
      standalone: undefined,
      requests: new Set(),
      serving: new Map(),
      seen: Date.now(),
    });
  }

  /**
   * The channel of session `id` if this instance holds it (nothing rebuilt): where an answer
   * or a cancellation forwarded by another instance may be for.
   */
  heldChannel(id: string): object | undefined {
    return this.held.get(id)?.channel;
  }

  /** Whether a POST of session `id` on this instance serves the client's request `requestId`. */
  isServing(id: string, requestId: unknown): boolean {
    return this.held.get(id)?.serving.has(requestKey(requestId)) ?? false;
  }

  /** Cancels the client's request `requestId` of session `id` if served here; whether it was. */
  cancelServed(id: string, requestId: unknown, reason: unknown): boolean {
    const cancel = this.held.get(id)?.serving.get(requestKey(requestId));
    cancel?.(reason);
    return cancel !== undefined;
  }

  /** Ends the session here: its streams closed, its requests aborted, its dispatcher session ended. */
  end(id: string): void {
    const held = this.held.get(id);
    if (!held) return;
    this.held.delete(id);
    held.standalone?.close();
    for (const request of [...held.requests]) request.close();
    this.options.onEnd?.(held.channel);
    this.options.dispatcher.endSession?.(held.channel);
  }

  /**
   * Opens the session's standalone stream (2025-11-25 transports, "Listening for Messages
   * from the Server"), closing the one open before: a session has one, so that each message
   * goes on exactly one stream ("Multiple Connections"), and a client cannot hold any number
   * of connections open on one session. The server MAY close the stream at any time: a
   * client reopens it (the SDK clients do). `open` opens its connection (default: without
   * event ids).
   */
  async openStandalone(
    id: string,
    exchange: HttpExchange,
    sink: ReplySink,
    open: StandaloneOpener = plainStandalone,
  ): Promise<void> {
    const held = this.held.get(id);
    const attach = this.options.dispatcher.attachStream;
    if (!held || !attach) return;
    held.standalone?.close();
    let opened: EventStream | undefined;
    const capturing: ReplySink = {
      send: (status, headers, body) => sink.send(status, headers, body),
      openStream: (headers) => (opened = endedOnce(sink.openStream(headers))),
    };
    let lastMessage = Date.now();
    const detached = await open(exchange, capturing, (send) =>
      attach(held.channel, (message) => {
        lastMessage = Date.now();
        return send(message);
      }),
    );
    const detach = detached ?? (() => undefined);
    if (opened === undefined) return detach();
    const stream: EventStream = opened;
    // A newer GET came in while this one opened: this one is the newest now.
    held.standalone?.close();
    if (this.held.get(id) !== held) {
      // The session ended while the stream opened.
      detach();
      stream.end();
      return this.options.onEnd?.(held.channel);
    }
    let checking = false;
    const tick = () => {
      if (Date.now() - lastMessage >= this.options.streamIdleTimeoutMs) return close();
      stream.comment("keep-alive");
      if (checking) return;
      checking = true;
      // A session deleted through another instance, or expired, takes its stream with it.
      void this.options.store
        .get(id)
        .then((record) => record === undefined && this.end(id))
        .catch((error: unknown) => this.options.report(`mcp-gen: session check: ${error}`))
        .finally(() => (checking = false));
    };
    const timer = setInterval(tick, this.options.keepAliveMs);
    (timer as { unref?: () => void }).unref?.();
    const standalone = { close };
    const finish = () => {
      clearInterval(timer);
      detach();
      stopWatching();
      if (held.standalone === standalone) held.standalone = undefined;
    };
    // The client going away ends the stream too.
    const stopWatching = exchange.onClose(finish);
    held.standalone = standalone;
    function close() {
      finish();
      stream.end();
    }
  }

  /**
   * A session's POST, tracked until `done`: the exchange and sink to answer it through, so
   * that the session's end closes its response stream and aborts its request (as the client
   * going away would).
   */
  track(id: string, exchange: HttpExchange, sink: ReplySink): TrackedRequest {
    const held = this.held.get(id);
    if (!held)
      return {
        exchange,
        sink,
        done: () => undefined,
        onSessionEnd: () => () => undefined,
        serves: () => undefined,
      };
    const tracked = new TrackedPost(held, exchange, sink);
    held.requests.add(tracked);
    return tracked;
  }

  /**
   * The channel of session `id` if this instance holds it, marked served now; undefined when
   * it holds none. For a store only this instance writes (LocalSessions): the session held
   * is as its record says, and needs no update from it.
   */
  servedChannel(id: string): object | undefined {
    const held = this.held.get(id);
    if (!held || !this.options.dispatcher.session?.(held.channel)) return undefined;
    this.markServed(id, held);
    return held.channel;
  }

  private markServed(id: string, held: HeldSession): void {
    this.held.delete(id);
    held.seen = Date.now();
    this.held.set(id, held);
    this.sweep();
  }

  /**
   * Lets go of sessions not served here for `idleMs`, from the least recently served end:
   * the store keeps them (or expired them), and a later request rebuilds one.
   */
  private sweep(): void {
    const limit = Date.now() - this.options.idleMs;
    for (const [id, held] of this.held) {
      if (held.seen >= limit) break;
      if (held.standalone || held.requests.size > 0) continue;
      this.held.delete(id);
      this.options.dispatcher.endSession?.(held.channel);
    }
  }
}
