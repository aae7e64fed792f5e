import type { CancellationWatch } from "../../../core/cancellation.js";
import type {
  AuthRequestView,
  BodyRead,
  EventStream,
  HttpExchange,
  ReplySink,
} from "./exchange.js";

// The POSTs of a session held here (live-sessions.ts) while this instance answers them: the
// session's end closes their response streams and aborts their requests, and a client's
// cancellation that reaches another instance finds the request it names.

/** A session's POST while this instance answers it. */
export interface TrackedRequest {
  /** The exchange and sink to answer through: the session's end closes them. */
  readonly exchange: HttpExchange;
  readonly sink: ReplySink;
  /**
   * Calls `listener` when the session ends first, even when the request no longer watches
   * its client going away (a resumable stream's client resumes; the ended session does not).
   */
  onSessionEnd(listener: () => void): () => void;
  /**
   * Records that this POST serves the client's request `requestId`, cancelled through
   * `cancel` when the client's notifications/cancelled for it reaches another instance and
   * comes over the message bus (see cancelServed). Forgotten at `done`.
   */
  serves(requestId: unknown, cancel: (reason: unknown) => void): void;
  done(): void;
}

/** What a held session keeps of the POSTs it is answering. */
export interface HeldRequests {
  /** The POSTs being answered: closing one ends its stream and aborts its request. */
  readonly requests: Set<{ close(): void }>;
  /** The client requests those POSTs serve, by requestKey: what cancels each. */
  readonly serving: Map<string, (reason: unknown) => void>;
}

/** A JSON-RPC id as a map key: the number 1 and the string "1" are different ids. */
export const requestKey = (id: unknown): string => JSON.stringify(id) ?? "";

/**
 * A tracked POST (LiveSessions.track): its own exchange and sink in one object, with the
 * exchange's `onClose` listeners and the response stream kept so that the session's end
 * closes them. One object per request, not a closure per method: every legacy POST makes one.
 */
export class TrackedPost implements TrackedRequest, HttpExchange, ReplySink {
  readonly native: unknown;
  readonly method: string;
  readonly pathname: string;
  /** The exchange's onClose listeners and onSessionEnd's: the session's end calls them. */
  readonly #listeners: (() => void)[] = [];
  readonly #endListeners: (() => void)[] = [];
  #stream: EventStream | undefined = undefined;
  #ended = false;
  /** The client requests this POST serves (requestKey), with what cancels each. */
  #served: [string, (reason: unknown) => void][] | undefined = undefined;

  constructor(
    private readonly held: HeldRequests,
    private readonly inner: HttpExchange,
    private readonly innerSink: ReplySink,
  ) {
    this.native = inner.native;
    this.method = inner.method;
    this.pathname = inner.pathname;
  }

  get exchange(): HttpExchange {
    return this;
  }

  get sink(): ReplySink {
    return this;
  }

  header(name: string): string | undefined {
    return this.inner.header(name);
  }

  body(limit: number, cancellation: CancellationWatch): Promise<BodyRead> | BodyRead {
    return this.inner.body(limit, cancellation);
  }

  authView(): AuthRequestView {
    return this.inner.authView();
  }

  onClose(listener: () => void): () => void {
    const stop = this.inner.onClose(listener);
    const forget = watch(this.#listeners, listener);
    return () => (forget(), stop());
  }

  send(status: number, headers: Record<string, string>, body?: string): void {
    this.innerSink.send(status, headers, body);
  }

  openStream(headers: Record<string, string>): EventStream {
    const opened = this.innerSink.openStream(headers);
    this.#stream = opened;
    // Once the session ended, nothing more is written (a handler may still answer).
    return {
      event: (message, eventId) => !this.#ended && opened.event(message, eventId),
      mark: (fields) => void (!this.#ended && opened.mark(fields)),
      comment: (text) => void (!this.#ended && opened.comment(text)),
      end: () => void (this.#ended || ((this.#ended = true), opened.end())),
    };
  }

  onSessionEnd(listener: () => void): () => void {
    return watch(this.#endListeners, listener);
  }

  serves(requestId: unknown, cancel: (reason: unknown) => void): void {
    const key = requestKey(requestId);
    (this.#served ??= []).push([key, cancel]);
    this.held.serving.set(key, cancel);
  }

  done(): void {
    this.held.requests.delete(this);
    // A later POST reusing the id holds the key now: its entry stays.
    for (const [key, cancel] of this.#served ?? [])
      if (this.held.serving.get(key) === cancel) this.held.serving.delete(key);
  }

  /** The session ended: the listeners told (as if the client went away), the stream ended. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const listener of [...this.#endListeners, ...this.#listeners]) listener();
    this.#stream?.end();
  }
}

/** Adds `listener` to `listeners`; returns what takes it out. */
function watch(listeners: (() => void)[], listener: () => void): () => void {
  listeners.push(listener);
  return () => {
    const at = listeners.indexOf(listener);
    if (at !== -1) listeners.splice(at, 1);
  };
}
