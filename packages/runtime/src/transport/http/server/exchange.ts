// What the Streamable HTTP core (core.ts) needs of one HTTP request and its response, the
// same for every host: the web-standard fetch handler (fetch.ts: Request in, Response out)
// and the node:http bridge (server.ts: req/res). The core reads the request through
// `HttpExchange` and answers through `ReplySink`; each host implements both over its own
// objects, so the node bridge never builds a Request or a Response it does not need.

import type { CancellationWatch } from "../../../core/cancellation.js";

/** A request as the core reads it. `R` is the host's own request object. */
export interface HttpExchange<R = unknown> {
  /** The host's request (IncomingMessage or Request): handed to `authenticate`. */
  readonly native: R;
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The path of the request URL, without query or fragment. */
  readonly pathname: string;
  /** A header's value (name in lower case); repeated headers joined as HTTP joins them. */
  header(name: string): string | undefined;
  /**
   * The body: its text, a value a framework already parsed, or why there is none. Reads at
   * most `limit` bytes; `cancellation` aborts the read (the request timed out).
   */
  body(limit: number, cancellation: CancellationWatch): Promise<BodyRead> | BodyRead;
  /**
   * Calls `listener` once when the client goes away before the response ended; returns the
   * unsubscribe. This is the cancellation on Streamable HTTP.
   */
  onClose(listener: () => void): () => void;
  /**
   * The request as the OAuth resource server reads it (method and node-style headers): the
   * same object on every call, since the resource server remembers what it verified by it.
   */
  authView(): AuthRequestView;
}

/** A request's method and headers in node:http's shape, as the resource server reads them. */
export interface AuthRequestView {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export type BodyRead =
  | { kind: "text"; text: string }
  /** A framework parsed the body already (express.json(), Fastify's parser). */
  | { kind: "parsed"; value: unknown }
  | { kind: "too-large" }
  /** Another middleware read the stream and left no parsed body: nothing can be read. */
  | { kind: "consumed" }
  | { kind: "aborted" };

/** How the core answers; every method may be called once per request. */
export interface ReplySink {
  /** A complete response (body text, or none). */
  send(status: number, headers: Record<string, string>, body?: string): void;
  /** A 200 text/event-stream response, written event by event. */
  openStream(headers: Record<string, string>): EventStream;
}

export interface EventStream {
  /**
   * Writes one SSE event carrying `message` (JSON), with `id` when the stream is resumable;
   * false once the client is gone.
   */
  event(message: unknown, id?: string): boolean;
  /**
   * Writes an event without a message: an `id` the client may resume after (the priming
   * event), a `retry` delay it waits before reconnecting, or both.
   */
  mark(fields: { id?: string; retryMs?: number }): void;
  /** Writes an SSE comment (keeps proxies from timing the stream out). */
  comment(text: string): void;
  end(): void;
}

/** The text of one SSE `message` event carrying `message`, with its id if it has one. */
export const eventText = (message: unknown, id?: string) =>
  `event: message\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;

/**
 * The text of an event with no message (HTML SSE: an empty data field dispatches nothing, but
 * `id` sets the last event id and `retry` the reconnection time).
 */
export const markText = (fields: { id?: string; retryMs?: number }) =>
  `${fields.id === undefined ? "" : `id: ${fields.id}\n`}${
    fields.retryMs === undefined ? "" : `retry: ${fields.retryMs}\n`
  }data: \n\n`;

export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
};

/** A JSON-RPC error response; without a usable id, the id is left out. */
export function errorBody(code: number, message: string, id?: unknown, data?: unknown) {
  const error = data === undefined ? { code, message } : { code, message, data };
  return typeof id === "string" || typeof id === "number"
    ? { jsonrpc: "2.0", id, error }
    : { jsonrpc: "2.0", error };
}

/** Sends `body` as JSON (or nothing when undefined), with `headers` added. */
export function sendJson(
  sink: ReplySink,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === undefined) return sink.send(status, headers);
  sink.send(status, { "content-type": "application/json", ...headers }, JSON.stringify(body));
}
