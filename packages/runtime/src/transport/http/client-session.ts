import { serverRequests } from "../server-requests.js";
import { TransportError } from "../transport-error.js";
import type { LegacySessionSupport, ServerRequestHandler } from "../transport.js";
import { delay } from "./body.js";
import type { HttpTransportOptions } from "./client-options.js";
import type { HttpEndpoint } from "./client-endpoint.js";
import type { InflightRequests } from "./client-inflight.js";
import { DEFAULT_RETRY_MS, readStream, type ResponseContext } from "./client-response.js";

// The legacy session (2025-xx Streamable HTTP) of the client transport: the server's own
// messages on the streams (its requests, answered by POSTs, and the notifications no request
// owns), the standalone GET stream that carries them, and the session's start and end.

type Json = Record<string, unknown>;
type NotificationListener = (notification: Json) => void;

/** How long the start of a session waits for the server to open its standalone stream. */
const LISTEN_WAIT_MS = 2000;
/** The id of no response: what the standalone stream waits for. */
const NO_RESPONSE = Symbol("no response");

/**
 * Where the messages on the transport's streams go that are not the response a stream is
 * read for; and the session's standalone stream.
 */
export class SessionStreams implements ResponseContext {
  readonly endpoint: HttpEndpoint;
  readonly limit: number;
  /** Who answers the server's requests (the session's handler). */
  handler: ServerRequestHandler | undefined = undefined;
  /** Who hears the notifications no request listens for, after the transport's listener. */
  sessionListener: NotificationListener | undefined = undefined;
  // The server's requests being answered, which it may cancel (on any of the session's streams).
  readonly answering = serverRequests();
  readonly #inflight: InflightRequests;
  readonly #options: Pick<HttpTransportOptions, "onNotification">;
  // The standalone GET stream of the session, where the server sends what no request owns.
  #standalone: AbortController | undefined = undefined;

  constructor(
    endpoint: HttpEndpoint,
    inflight: InflightRequests,
    limit: number,
    options: Pick<HttpTransportOptions, "onNotification">,
  ) {
    this.endpoint = endpoint;
    this.#inflight = inflight;
    this.limit = limit;
    this.#options = options;
  }

  /** Answers a request the server sent on a stream: the handler's response goes back in a POST. */
  answer(request: Json): void {
    if (this.#inflight.closed) return;
    this.answering.answer(request, this.handler, (response) =>
      this.endpoint.post(response, undefined).then((posted) => posted.body?.cancel()),
    );
  }

  cancel(notification: Json): void {
    this.answering.cancel(notification);
  }

  notify(notification: Json): void {
    this.#options.onNotification?.(notification);
    this.sessionListener?.(notification);
  }

  /**
   * Opens the session's standalone GET stream (2025-11-25 basic/transports "Listening for
   * Messages from the Server"): server requests and notifications that belong to no request
   * come on it (the v1 SDK sends elicitation there). A server without one answers 405. A
   * stream that delivered events and closed is reopened after the server's retry delay.
   */
  async listen(lastEventId: string | undefined): Promise<void> {
    const controller = new AbortController();
    this.#standalone?.abort();
    this.#standalone = controller;
    let response: Response;
    try {
      response = await this.endpoint.getEventStream(lastEventId, controller.signal);
    } catch {
      return;
    }
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.includes("text/event-stream") || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    const position = { lastEventId, retryMs: undefined as number | undefined, events: 0 };
    void readStream(response.body, NO_RESPONSE, undefined, position, this)
      .then(async () => {
        const reopen = this.#standalone === controller && this.endpoint.session !== undefined;
        if (!reopen || position.events === 0) return;
        await delay(position.retryMs ?? DEFAULT_RETRY_MS, controller.signal);
        if (this.#standalone === controller) await this.listen(position.lastEventId);
      })
      .catch(() => undefined);
  }

  /** Closes the standalone stream, and stops reopening it. */
  stopListening(): void {
    this.#standalone?.abort();
    this.#standalone = undefined;
  }
}

/** The transport's part of a legacy session, over its endpoint, requests and streams. */
export function legacySessionSupport(
  endpoint: HttpEndpoint,
  inflight: InflightRequests,
  streams: SessionStreams,
): LegacySessionSupport {
  return {
    reset() {
      streams.answering.abandonAll(new Error("a new session began"));
      endpoint.session = { id: undefined, version: undefined };
    },
    begin: (version) => void (endpoint.session = { id: endpoint.session?.id, version }),
    // The session may begin before the stream is open, but not much before: the v1 SDK sends
    // requests without a related request there, and drops them when no stream is open.
    async listen() {
      const waited = new AbortController();
      await Promise.race([
        streams.listen(undefined),
        delay(LISTEN_WAIT_MS, waited.signal).catch(() => undefined),
      ]);
      waited.abort();
    },
    async end() {
      const id = endpoint.session?.id;
      const headers = endpoint.sessionHeaders();
      if (endpoint.session !== undefined) {
        // The session's requests under way can no longer be answered.
        inflight.abortAll(
          new TransportError("closed", "the session was closed before the response"),
        );
      }
      endpoint.session = undefined;
      streams.answering.abandonAll(new TransportError("closed", "the session ended"));
      streams.stopListening();
      if (id === undefined) return;
      await endpoint.deleteSession(headers);
    },
    onServerRequest: (handler) => void (streams.handler = handler),
    onNotification: (listener) => void (streams.sessionListener = listener),
  };
}
