import type { Server, ServerResponse } from "node:http";
import { MAX_TIMEOUT_MS } from "../../../core/options.js";

// Shutting down `serveHttp`'s server without resetting the calls it is running: a replica
// told to stop (SIGTERM, a rolling restart) stops taking requests, lets the calls in flight
// finish within a bound (and those already on their way on open connections), ends its GET streams cleanly so that clients resume them elsewhere
// with Last-Event-ID, then closes what is left.

/** How long close() lets calls in flight finish, by default. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/** The JSON-RPC error a GET arriving during the drain gets, with 503 and Connection: close. */
export const SHUTTING_DOWN_MESSAGE =
  "the server is shutting down: send the request again (another instance takes it)";

const SHUTTING_DOWN_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: null,
  error: { code: -32000, message: SHUTTING_DOWN_MESSAGE },
});

/** `value` checked as a drain bound: a whole number of ms, 0 (close at once) included. */
export function drainTimeout(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_TIMEOUT_MS)
    throw new TypeError(
      `${name} must be a whole number of ms from 0 to ${MAX_TIMEOUT_MS}, got ${String(value)}`,
    );
  return value;
}

/**
 * The requests a server is answering, so that close() can wait for them. A GET (a session's
 * stream, or a resumed one) is ended when the drain begins: its listeners (the session's
 * stream, as if the client had gone away) are told first, so nothing more is written to it.
 */
export class Drain {
  #closing: Promise<void> | undefined = undefined;
  // Counts, not sets of each request: the drain waits for none in particular, and every
  // request passes here. The responses not closed yet:
  #answering = 0;
  // The handlers of POSTs still running, whose client may have gone (a resumable stream's
  // client resumes it later): the drain waits for them too.
  #handling = 0;
  // Each open GET's listeners, told when the drain ends it.
  readonly #streams = new Map<ServerResponse, Set<() => void>>();
  #settled: (() => void) | undefined = undefined;
  // Shared by every request (a response's "close" listener gets the response as `this`), so
  // that taking one allocates no closure.
  readonly #closed = (res: ServerResponse) => {
    this.#answering--;
    this.#streams.delete(res);
    this.#check();
  };
  readonly #responseClosed = closeListener(this.#closed);
  readonly #handled = () => {
    this.#handling--;
    this.#check();
  };

  /** Whether close() began: a request is then refused. */
  get draining(): boolean {
    return this.#closing !== undefined;
  }

  /**
   * Takes a request. Once draining, a GET (a stream that would hold the drain open) is refused
   * (503, a JSON-RPC error, Connection: close: its client opens it again elsewhere); any other
   * request, which reached a connection accepted before the drain began, is served and its
   * connection closed after it. Refusing those too lost requests a balancer had already sent
   * here as the drain began (a 503 it passes on, or must be told to retry).
   */
  admit(method: string | undefined, res: ServerResponse): boolean {
    if (this.draining && method === "GET") {
      refuse(res);
      return false;
    }
    if (this.draining) res.setHeader("connection", "close");
    this.#answering++;
    if (method === "GET") this.#streams.set(res, new Set());
    // A response closes once ("close" follows "finish", or the client going away).
    res.on("close", this.#responseClosed);
    return true;
  }

  /** Waits for `handled` (the core's work on a request that is no GET) as well. */
  handling(method: string | undefined, handled: Promise<void>): void {
    if (method === "GET") return;
    this.#handling++;
    handled.then(this.#handled, this.#handled);
  }

  #check(): void {
    if (this.#answering === 0 && this.#handling === 0) this.#settled?.();
  }

  /** Tells `listener` when the drain ends `res`'s stream (a GET only); returns the unsubscribe. */
  onStreamEnd(res: ServerResponse, listener: () => void): () => void {
    const listeners = this.#streams.get(res);
    if (!listeners) return ignore;
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  /**
   * Stops `server` taking connections and requests, ends its GET streams, waits up to
   * `timeoutMs` for the requests being answered and their handlers (a call whose client
   * went away may still finish for a client that resumes it), then closes every connection left (a call
   * still running then is cut, as the client going away cuts it). Once only: later calls get
   * the same promise.
   */
  close(server: Server, timeoutMs: number): Promise<void> {
    this.#closing ??= this.#drain(server, timeoutMs);
    return this.#closing;
  }

  async #drain(server: Server, timeoutMs: number): Promise<void> {
    const closed = new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
    // Keep-alive connections with no request go now (Node does too); those answering a
    // request close once it is answered.
    server.closeIdleConnections();
    // Calls in flight keep their connection's framing (a balancer in front reuses or closes
    // it as it does any other): every connection is closed once they finished.
    for (const [res, stream] of this.#streams) endStream(res, stream);
    if (this.#answering > 0 || this.#handling > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#settled = resolve;
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
    }
    server.closeAllConnections();
    await closed;
  }
}

/** A response's "close" listener calling `closed` with the response (the listener's `this`). */
function closeListener(closed: (res: ServerResponse) => void) {
  return function (this: ServerResponse) {
    closed(this);
  };
}

/** What stops watching a response that is no GET stream: nothing to stop. */
const ignore = () => undefined;

/** Ends a GET stream: its listeners first (nothing more is written), then the response. */
function endStream(res: ServerResponse, listeners: Set<() => void>): void {
  for (const listener of [...listeners]) listener();
  listeners.clear();
  if (!res.headersSent) refuse(res);
  else res.end();
}

function refuse(res: ServerResponse): void {
  if (res.headersSent) return void res.end();
  res
    .writeHead(503, {
      "content-type": "application/json",
      connection: "close",
      "content-length": String(Buffer.byteLength(SHUTTING_DOWN_BODY)),
      "retry-after": "1",
    })
    .end(SHUTTING_DOWN_BODY);
}
