import { isObject } from "../../../core/protocol.js";
import { readSseEvents, SseLimitError, SseReadError } from "../../sse.js";
import { TransportError } from "../../../core/transport-error.js";
import type { TransportRequestOptions } from "../../../core/transport.js";
import { boundedText, delay, dropped, HttpTransportError } from "./body.js";
import type { HttpEndpoint } from "./client-endpoint.js";

// How the HTTP client transport gets the response to a request it POSTed: a JSON body, or an
// SSE stream of related notifications (and, in a legacy session, server requests) that ends
// with the response, resumed when it closes or drops first.

type Json = Record<string, unknown>;

/**
 * Resumptions in a row of one request's stream that bring nothing new, at the least, before
 * the call is given up (and `quietLimitMs` must have passed too), and the delay when the
 * server names none.
 */
export const MAX_RESUMES = 5;
export const DEFAULT_RETRY_MS = 1000;

/** Where the messages on a stream go that are not the response it is read for. */
export interface StreamRouting {
  /** Largest single SSE event, in bytes. */
  readonly limit: number;
  /** A request the server sent: answered (in a POST) by the session's handler. */
  answer(request: Json): void;
  /** A notification, before anyone hears it: a cancellation stops a server request being answered. */
  cancel(notification: Json): void;
  /** A notification no request listens for: the transport's and the session's. */
  notify(notification: Json): void;
}

/** What reading a response needs of the transport: its endpoint, and where other messages go. */
export interface ResponseContext extends StreamRouting {
  readonly endpoint: HttpEndpoint;
  /** How long resumptions may bring nothing new before the call is given up (ms). */
  readonly quietLimitMs: number;
}

/** Where one stream is, for its resumption: the last event id and the server's retry delay. */
export interface StreamPosition {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** Counts the events read, when defined. */
  events?: number;
}

/**
 * Reads one SSE stream until the response to `id`: notifications go to the request's
 * listener (`onNotification`), or `routing.notify` without one; server requests are answered.
 * Remembers the last event id and the retry delay in `position`, for resumption. Undefined
 * when the stream ends first.
 */
export async function readStream(
  body: ReadableStream<Uint8Array>,
  id: unknown,
  onNotification: TransportRequestOptions["onNotification"],
  position: StreamPosition,
  routing: StreamRouting,
): Promise<object | undefined> {
  for await (const event of readSseEvents(body, routing.limit)) {
    if (position.events !== undefined) position.events++;
    if (event.id !== undefined) position.lastEventId = event.id;
    if (event.retry !== undefined) position.retryMs = event.retry;
    if (event.data === "") continue;
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      continue; // Not JSON: not a message.
    }
    if (!isObject(message)) continue;
    if (typeof message["method"] === "string" && message["id"] !== undefined)
      routing.answer(message);
    else if (typeof message["method"] === "string") {
      // A cancellation of a request being answered stops it; the notification still goes on.
      routing.cancel(message);
      if (onNotification) onNotification(message);
      else routing.notify(message);
    } else if (("result" in message || "error" in message) && message["id"] === id) {
      return message;
    }
  }
  return undefined;
}

/**
 * The response to `id` from an SSE stream; when the stream closes first in a legacy session,
 * resumes it (2025-11-25 basic/transports "Resumability and Redelivery"): waits the server's
 * `retry` delay, then GETs the stream again with Last-Event-ID. A stream that drops (a read
 * error: socket reset, a proxy's timeout) is resumed alike: the spec's resumption is for
 * "a broken connection", and a server cannot tell a drop from a close. A resumption refused
 * with 503 (a replica shutting down) or not reached is tried again after the same delay.
 * Polling goes on while resumptions bring new events; once they have brought nothing new for
 * `quietLimitMs` and MAX_RESUMES times in a row, the call is given up (GAVE_UP): a server
 * that lost the call without saying so looks just like it. An mcp-gen server behind a
 * balancer says so (the replica running the call died: an error for the call once its lease
 * lapses), which is why the limit is a time longer than that lease, not a count of polls.
 */
export async function responseFromStream(
  response: Response,
  id: unknown,
  requestOptions: TransportRequestOptions,
  context: ResponseContext,
): Promise<object> {
  const { endpoint } = context;
  const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
  let current: Response | undefined = response;
  // Resumptions in a row that brought no new event, and since when the stream is quiet.
  let quiet = 0;
  let quietSince = Date.now();
  for (let attempt = 0; ; attempt++) {
    const request = attempt === 0 ? endpoint.posting : endpoint.resuming;
    const before = position.lastEventId;
    let broken: SseReadError | undefined;
    try {
      const message = current
        ? await readStream(current.body!, id, requestOptions.onNotification, position, context)
        : undefined;
      if (message) return message;
    } catch (error) {
      if (error instanceof SseLimitError)
        throw new HttpTransportError(current!.status, undefined, {
          ...request,
          description: error.message,
        });
      if (!(error instanceof SseReadError)) throw error;
      broken = error;
    }
    if (requestOptions.signal?.aborted) throw requestOptions.signal.reason;
    if (endpoint.session === undefined || position.lastEventId === undefined) {
      if (broken) throw dropped(broken.cause);
      throw new HttpTransportError(current?.status ?? 200, undefined, {
        ...request,
        description: "the event stream ended without a response",
      });
    }
    if (attempt > 0 && position.lastEventId === before) quiet++;
    else [quiet, quietSince] = [0, Date.now()];
    if (quiet >= MAX_RESUMES && Date.now() - quietSince >= context.quietLimitMs)
      throw new TransportError("dropped", GAVE_UP, broken ? { cause: broken.cause } : {});
    await delay(position.retryMs ?? DEFAULT_RETRY_MS, requestOptions.signal);
    current = await resumed(endpoint, position.lastEventId, requestOptions.signal);
  }
}

/** What a call given up after its quiet resumptions fails with (a TransportError, `dropped`). */
export const GAVE_UP =
  "no response: the call's event stream was resumed with nothing new for longer than resumeQuietMs " +
  "(the server, or the replica running the call, may have stopped); the call may or may not have run";

/**
 * The stream GET again after `lastEventId`; undefined when the server could not take it now
 * (503: a replica shutting down; or no connection), for the caller to try again later.
 */
async function resumed(
  endpoint: HttpEndpoint,
  lastEventId: string,
  signal: AbortSignal | undefined,
): Promise<Response | undefined> {
  let response: Response;
  try {
    response = await endpoint.getEventStream(lastEventId, signal);
  } catch (error) {
    if (error instanceof TransportError && error.kind === "unreachable") return undefined;
    throw error;
  }
  const type = response.headers.get("content-type") ?? "";
  if (response.ok && type.includes("text/event-stream") && response.body) return response;
  if (response.status === 503) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const body = await boundedText(response, 64 * 1024, endpoint.resuming);
  const description = "the resumed stream is not an event stream";
  throw new HttpTransportError(response.status, body, {
    ...endpoint.resuming,
    ...(response.ok ? { description } : {}),
  });
}

/** One request and its response: JSON, or an event stream. */
export async function exchange(
  message: object,
  requestOptions: TransportRequestOptions & { signal: AbortSignal },
  context: ResponseContext,
): Promise<object> {
  const { endpoint } = context;
  const response = await endpoint.post(
    message as { method: string },
    requestOptions.signal,
    requestOptions.headers,
    requestOptions.onAuthorizing,
  );
  const type = response.headers.get("content-type") ?? "";
  const id = (message as { id?: unknown }).id;
  if (type.includes("text/event-stream") && response.body)
    return responseFromStream(response, id, requestOptions, context);
  const body = await boundedText(response, context.limit, endpoint.posting);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new HttpTransportError(response.status, body, endpoint.posting);
  }
  // A JSON-RPC error comes with a 4xx status (header mismatch, unsupported version...): still
  // MCP. One that answers no request (id null: "Server not initialized", ...) is the HTTP
  // layer refusing the message, as an error the client can tell from a server's answer.
  if (
    isObject(parsed) &&
    ("result" in parsed || "error" in parsed) &&
    (response.ok || parsed["id"] === id)
  )
    return parsed;
  throw new HttpTransportError(response.status, body, endpoint.posting);
}
