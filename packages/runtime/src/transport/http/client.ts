import { authorizedFetch, type HttpAuth } from "../../auth/http-auth.js";
import { boundedText, delay, dropped, HttpTransportError, shownUrl } from "./body.js";
import { routingHeaders } from "./headers.js";
import { isObject, type ProtocolDescriptor } from "../../core/protocol.js";
import { serverRequests } from "../server-requests.js";
import { readSseEvents, SseLimitError, SseReadError } from "../sse.js";
import { describeCause, SessionExpiredError, TransportError } from "../transport-error.js";
import type {
  LegacySessionSupport,
  ServerRequestHandler,
  Transport,
  TransportRequestOptions,
} from "../transport.js";

export { TransportError, type TransportErrorKind } from "../transport-error.js";
export { HttpTransportError } from "./body.js";

// The client side of Streamable HTTP: every message is its own POST to one endpoint; a
// request's reply is a JSON body, or an SSE stream of related notifications that ends
// with the response. Uses fetch, so it runs in Node.js, browsers and edge runtimes. In a
// legacy session (2025-xx) the streams also carry the server's requests, answered by POSTs,
// and a stream that closes (or drops) before its response is resumed with Last-Event-ID.
// Failures that are no answer (unreachable, dropped, closed) are TransportErrors.

export interface HttpTransportOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** Extra headers on every request (authorization, ...). */
  headers?: Record<string, string>;
  /** A fetch implementation (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Largest JSON response body, and largest single SSE event, in bytes (default 16 MiB). */
  maxMessageBytes?: number;
  /** Notifications not tied to a request in flight. */
  onNotification?: (notification: Record<string, unknown>) => void;
  /** Authorization (e.g. the OAuth client of `auth.ts`): headers on every request, and challenges (http-auth.ts). */
  auth?: HttpAuth;
}

/** Resumptions of one request's stream at most, and the delay when the server names none. */
const MAX_RESUMES = 5;
const DEFAULT_RETRY_MS = 1000;
/** How long the start of a session waits for the server to open its standalone stream. */
const LISTEN_WAIT_MS = 2000;
/** The id of no response: what the standalone stream waits for. */
const NO_RESPONSE = Symbol("no response");

export function createHttpTransport(
  protocol: ProtocolDescriptor,
  options: HttpTransportOptions,
): Transport {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const limit = options.maxMessageBytes ?? 16 * 1024 * 1024;
  // What errors name: the request that failed, never the credentials a URL may carry.
  const posting = { httpMethod: "POST", url: options.url };
  const resuming = { httpMethod: "GET", url: options.url };
  // A legacy session (2025-xx Streamable HTTP): its id, from the initialize response, and
  // the negotiated version, both sent on every later message. Undefined: modern era.
  let session: { id: string | undefined; version: string | undefined } | undefined;
  let answerServer: ServerRequestHandler | undefined;
  // The server's requests being answered, which it may cancel (on any of the session's streams).
  const answering = serverRequests();
  let sessionListener: ((notification: Record<string, unknown>) => void) | undefined;
  // The standalone GET stream of the session, where the server sends what no request owns.
  let standalone: AbortController | undefined;
  // Set by close(): later messages are refused with it. The requests under way (their own
  // controllers) are aborted when the session ends or the transport closes: no stream of
  // theirs can answer any more.
  let closed: TransportError | undefined;
  const inflight = new Set<AbortController>();

  // fetch rejects with a TypeError when no response comes (refused, reset, DNS): a
  // TransportError then. An abort keeps its reason (the caller's, or the closing's).
  const guardedFetch: typeof fetch = async (input, init) => {
    try {
      return await fetchImpl(input, init);
    } catch (error) {
      if (init?.signal?.aborted) throw init.signal.reason;
      if (!(error instanceof TypeError)) throw error;
      const message = `could not reach ${shownUrl(options.url)}: ${describeCause(error)}`;
      throw new TransportError("unreachable", message, { cause: error });
    }
  };

  /** One HTTP request to the endpoint, authorized when the transport has an auth hook. */
  const send = (
    init: RequestInit & { headers: Record<string, string> },
    onAuthorizing?: (active: boolean) => void,
  ): Promise<Response> =>
    authorizedFetch(guardedFetch, options.url, options.auth, init, onAuthorizing);

  /** A request's signal, aborted too when the session ends or the transport closes. */
  function linked(own: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
    if (closed) throw closed;
    const controller = new AbortController();
    const onOwn = () => controller.abort(own!.reason);
    if (own?.aborted) controller.abort(own.reason);
    own?.addEventListener("abort", onOwn, { once: true });
    inflight.add(controller);
    const release = () => (inflight.delete(controller), own?.removeEventListener("abort", onOwn));
    return { signal: controller.signal, release };
  }

  /** Fails the requests under way with `reason`. */
  function abortInflight(reason: TransportError): void {
    for (const controller of inflight) controller.abort(reason);
    inflight.clear();
  }

  function sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (session?.id !== undefined) headers["mcp-session-id"] = session.id;
    if (session?.version !== undefined) headers[protocol.http.versionHeader] = session.version;
    return headers;
  }

  async function post(
    message: { method?: unknown; params?: unknown },
    signal: AbortSignal | undefined,
    extra?: Record<string, string>,
    onAuthorizing?: (active: boolean) => void,
  ): Promise<Response> {
    // Routing headers are modern; a legacy session carries its id and version instead.
    const routing =
      session === undefined && typeof message.method === "string"
        ? routingHeaders(protocol, message as { method: string })
        : sessionHeaders();
    const response = await send(
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...routing,
          ...extra,
          ...options.headers,
        },
        body: JSON.stringify(message),
        ...(signal ? { signal } : {}),
      },
      onAuthorizing,
    );
    if (session !== undefined) {
      if (session.id === undefined)
        session.id = response.headers.get("mcp-session-id") ?? undefined;
      else if (response.status === 404) {
        await response.body?.cancel();
        throw new SessionExpiredError();
      }
    }
    return response;
  }

  /** Answers a request the server sent on a stream: the handler's response goes back in a POST. */
  function answer(request: Record<string, unknown>): void {
    if (closed) return;
    answering.answer(request, answerServer, (response) =>
      post(response, undefined).then((posted) => posted.body?.cancel()),
    );
  }

  /**
   * Reads one SSE stream until the response to `id`: notifications go to the request's
   * listener, server requests are answered. Remembers the last event id and the retry delay
   * for resumption.
   */
  async function readStream(
    body: ReadableStream<Uint8Array>,
    id: unknown,
    requestOptions: TransportRequestOptions,
    resume: { lastEventId: string | undefined; retryMs: number | undefined; events?: number },
  ): Promise<object | undefined> {
    for await (const event of readSseEvents(body, limit)) {
      if (resume.events !== undefined) resume.events++;
      if (event.id !== undefined) resume.lastEventId = event.id;
      if (event.retry !== undefined) resume.retryMs = event.retry;
      if (event.data === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        continue; // Not JSON: not a message.
      }
      if (!isObject(message)) continue;
      if (typeof message["method"] === "string" && message["id"] !== undefined) answer(message);
      else if (typeof message["method"] === "string") {
        // A cancellation of a request being answered stops it; the notification still goes on.
        answering.cancel(message);
        if (requestOptions.onNotification) requestOptions.onNotification(message);
        else {
          options.onNotification?.(message);
          sessionListener?.(message);
        }
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
   * "a broken connection", and a server cannot tell a drop from a close.
   */
  async function fromStream(
    response: Response,
    id: unknown,
    requestOptions: TransportRequestOptions,
  ): Promise<object> {
    const resume = { lastEventId: undefined as string | undefined, retryMs: undefined };
    let current = response;
    for (let attempt = 0; ; attempt++) {
      const request = attempt === 0 ? posting : resuming;
      let broken: SseReadError | undefined;
      try {
        const message = await readStream(current.body!, id, requestOptions, resume);
        if (message) return message;
      } catch (error) {
        if (error instanceof SseLimitError)
          throw new HttpTransportError(current.status, undefined, {
            ...request,
            description: error.message,
          });
        if (!(error instanceof SseReadError)) throw error;
        broken = error;
      }
      if (requestOptions.signal?.aborted) throw requestOptions.signal.reason;
      if (session === undefined || resume.lastEventId === undefined || attempt >= MAX_RESUMES) {
        if (broken) throw dropped(broken.cause);
        throw new HttpTransportError(current.status, undefined, {
          ...request,
          description: "the event stream ended without a response",
        });
      }
      await delay(resume.retryMs ?? DEFAULT_RETRY_MS, requestOptions.signal);
      current = await send({
        method: "GET",
        headers: {
          accept: "text/event-stream",
          "last-event-id": resume.lastEventId,
          ...sessionHeaders(),
          ...options.headers,
        },
        ...(requestOptions.signal ? { signal: requestOptions.signal } : {}),
      });
      const type = current.headers.get("content-type") ?? "";
      if (!current.ok || !type.includes("text/event-stream") || !current.body) {
        const body = await boundedText(current, 64 * 1024, resuming);
        const description = "the resumed stream is not an event stream";
        throw new HttpTransportError(current.status, body, {
          ...resuming,
          ...(current.ok ? { description } : {}),
        });
      }
    }
  }

  /**
   * Opens the session's standalone GET stream (2025-11-25 basic/transports "Listening for
   * Messages from the Server"): server requests and notifications that belong to no request
   * come on it (the v1 SDK sends elicitation there). A server without one answers 405. A
   * stream that delivered events and closed is reopened after the server's retry delay.
   */
  async function listen(lastEventId: string | undefined): Promise<void> {
    const controller = new AbortController();
    standalone?.abort();
    standalone = controller;
    let response: Response;
    try {
      response = await send({
        method: "GET",
        headers: {
          accept: "text/event-stream",
          ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}),
          ...sessionHeaders(),
          ...options.headers,
        },
        signal: controller.signal,
      });
    } catch {
      return;
    }
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.includes("text/event-stream") || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    const resume = { lastEventId, retryMs: undefined as number | undefined, events: 0 };
    void readStream(response.body, NO_RESPONSE, {}, resume)
      .then(async () => {
        if (standalone !== controller || session === undefined || resume.events === 0) return;
        await delay(resume.retryMs ?? DEFAULT_RETRY_MS, controller.signal);
        if (standalone === controller) await listen(resume.lastEventId);
      })
      .catch(() => undefined);
  }

  const legacy: LegacySessionSupport = {
    reset() {
      answering.abandonAll(new Error("a new session began"));
      session = { id: undefined, version: undefined };
    },
    begin: (version) => void (session = { id: session?.id, version }),
    // The session may begin before the stream is open, but not much before: the v1 SDK sends
    // requests without a related request there, and drops them when no stream is open.
    async listen() {
      const waited = new AbortController();
      await Promise.race([
        listen(undefined),
        delay(LISTEN_WAIT_MS, waited.signal).catch(() => undefined),
      ]);
      waited.abort();
    },
    async end() {
      const id = session?.id;
      const headers = sessionHeaders();
      if (session !== undefined) {
        // The session's requests under way can no longer be answered.
        abortInflight(new TransportError("closed", "the session was closed before the response"));
      }
      session = undefined;
      answering.abandonAll(new TransportError("closed", "the session ended"));
      standalone?.abort();
      standalone = undefined;
      if (id === undefined) return;
      // The server may refuse (405): the session then ends when it expires.
      await send({
        method: "DELETE",
        headers: { ...headers, ...options.headers },
      })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    },
    onServerRequest: (handler) => void (answerServer = handler),
    onNotification: (listener) => void (sessionListener = listener),
  };

  return {
    legacy,
    closesStreamOnAbort: true,
    async request(message, requestOptions: TransportRequestOptions = {}) {
      const { signal, release } = linked(requestOptions.signal);
      try {
        return await exchange(message, { ...requestOptions, signal });
      } catch (error) {
        throw signal.aborted ? signal.reason : error;
      } finally {
        release();
      }
    },
    async notify(message) {
      if (closed) throw closed;
      const response = await post(message as { method: string }, undefined);
      if (!response.ok) {
        const body = await boundedText(response, 64 * 1024, posting);
        throw new HttpTransportError(response.status, body, posting);
      }
      await response.body?.cancel();
    },
    async close() {
      closed ??= new TransportError("closed", "the transport was closed");
      abortInflight(closed);
      await legacy.end();
    },
  };

  /** One request and its response: JSON, or an event stream. */
  async function exchange(
    message: object,
    requestOptions: TransportRequestOptions & { signal: AbortSignal },
  ): Promise<object> {
    const response = await post(
      message as { method: string },
      requestOptions.signal,
      requestOptions.headers,
      requestOptions.onAuthorizing,
    );
    const type = response.headers.get("content-type") ?? "";
    const id = (message as { id?: unknown }).id;
    if (type.includes("text/event-stream") && response.body)
      return fromStream(response, id, requestOptions);
    const body = await boundedText(response, limit, posting);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new HttpTransportError(response.status, body, posting);
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
    throw new HttpTransportError(response.status, body, posting);
  }
}
