import { serverRequests } from "../../server-requests.js";
import { TransportError } from "../../../core/transport-error.js";
import type { LegacySessionSupport, ServerRequestHandler } from "../../../core/transport.js";
import { delay } from "./body.js";
import {
  reconnectSettings,
  resumeQuietMs,
  reopenDelay,
  type HttpTransportOptions,
  type ReconnectSettings,
} from "./client-options.js";
import type { HttpEndpoint } from "./client-endpoint.js";
import type { InflightRequests } from "./client-inflight.js";
import { readStream, type ResponseContext } from "./client-response.js";

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
  /** How long a resumed call's stream may stay quiet before the call is given up (ms). */
  readonly quietLimitMs: number;
  /** Who answers the server's requests (the session's handler). */
  handler: ServerRequestHandler | undefined = undefined;
  /** Who hears the notifications no request listens for, after the transport's listener. */
  sessionListener: NotificationListener | undefined = undefined;
  // The server's requests being answered, which it may cancel (on any of the session's streams).
  readonly answering = serverRequests();
  /** Told when the standalone stream finds the session gone (404): the session's owner. */
  sessionLost: (() => void) | undefined = undefined;
  readonly #inflight: InflightRequests;
  readonly #options: Pick<HttpTransportOptions, "onNotification">;
  readonly #reconnect: ReconnectSettings;
  // The standalone GET stream of the session, where the server sends what no request owns.
  #standalone: AbortController | undefined = undefined;
  // The standalone stream given up after `maxAttempts` failed reopenings, until a call is answered.
  #gaveUp: Listening | undefined = undefined;

  constructor(
    endpoint: HttpEndpoint,
    inflight: InflightRequests,
    limit: number,
    options: Pick<HttpTransportOptions, "onNotification" | "reconnect" | "resumeQuietMs">,
  ) {
    this.endpoint = endpoint;
    this.quietLimitMs = resumeQuietMs(options.resumeQuietMs);
    this.#inflight = inflight;
    this.limit = limit;
    this.#options = options;
    this.#reconnect = reconnectSettings(options.reconnect);
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
   * come on it (the v1 SDK sends elicitation there). Resolves once the first GET is answered;
   * the stream is then kept open (see #follow) until the session ends or the client closes.
   */
  async listen(lastEventId: string | undefined): Promise<void> {
    const controller = new AbortController();
    this.stopListening();
    this.#standalone = controller;
    const listening: Listening = {
      controller,
      sessionId: this.endpoint.session?.id,
      lastEventId,
      retryMs: undefined,
      failures: 0,
    };
    const opened = await this.#open(listening);
    void this.#follow(listening, opened).catch(() => undefined);
  }

  /** Closes the standalone stream, and stops reopening it. */
  stopListening(): void {
    this.#standalone?.abort();
    this.#standalone = undefined;
    this.#gaveUp = undefined;
  }

  /**
   * The server answered a call: a standalone stream given up after failed reopenings is
   * tried once more (the server is reachable again), and kept open as usual if it opens.
   * One GET per answered call at most while it keeps failing.
   */
  listenAgain(): void {
    const listening = this.#gaveUp;
    if (!listening || !this.#reconnect || !this.#current(listening)) return;
    this.#gaveUp = undefined;
    listening.failures = this.#reconnect.maxAttempts - 1;
    void this.#open(listening)
      .then((opened) => this.#follow(listening, opened))
      .catch(() => undefined);
  }

  /** Whether `listening` is still the session's standalone stream. */
  #current(listening: Listening): boolean {
    return (
      this.#standalone === listening.controller &&
      !listening.controller.signal.aborted &&
      this.endpoint.session !== undefined &&
      this.endpoint.session.id === listening.sessionId
    );
  }

  /** One GET of the standalone stream: its body, or what the answer means instead. */
  async #open(listening: Listening): Promise<Opened> {
    let response: Response;
    try {
      response = await this.endpoint.getEventStream(
        listening.lastEventId,
        listening.controller.signal,
      );
    } catch {
      return "failed"; // Unreachable (a replica restarting), or aborted (the loop sees it).
    }
    const type = response.headers.get("content-type") ?? "";
    if (response.ok && type.includes("text/event-stream") && response.body) return response.body;
    await response.body?.cancel().catch(() => undefined);
    // The spec: 405 means the server offers no stream at this endpoint; 404, the session is gone.
    if (response.status === 405) return "none";
    if (response.status === 404) return "lost";
    // The event is no longer kept (400): what came after it is lost; a new stream goes on.
    if (response.status === 400) listening.lastEventId = undefined;
    return "failed";
  }

  /**
   * Reads the standalone stream, and reopens it when it closes or drops (the spec: the
   * server MAY close it at any time; a broken connection is resumed with Last-Event-ID),
   * after the wait reopenDelay gives, until `reconnect.maxAttempts` reopenings in a row
   * failed. A stream that carried an event, or stayed open `maxDelayMs`, counts as a success.
   * Stops for good on 405 (no stream offered), when the session ends or is replaced, and on
   * 404, where the session's owner is told (it initializes again).
   */
  async #follow(listening: Listening, opened: Opened): Promise<void> {
    const settings = this.#reconnect;
    for (;;) {
      if (!this.#current(listening) || opened === "none") return;
      if (opened === "lost") return this.sessionLost?.();
      if (opened === "failed") listening.failures++;
      else {
        const position = { ...listening, events: 0 };
        const since = Date.now();
        await readStream(opened, NO_RESPONSE, undefined, position, this).catch(() => undefined);
        listening.lastEventId = position.lastEventId;
        listening.retryMs = position.retryMs;
        const lasted =
          position.events > 0 || Date.now() - since >= (settings?.maxDelayMs ?? Infinity);
        listening.failures = lasted ? 0 : listening.failures + 1;
      }
      if (!settings) return;
      if (listening.failures >= settings.maxAttempts) return void (this.#gaveUp = listening);
      await delay(
        reopenDelay(listening.failures, listening.retryMs, settings),
        listening.controller.signal,
      );
      if (!this.#current(listening)) return;
      opened = await this.#open(listening);
    }
  }
}

/** The standalone stream being kept open: where it is, and how its reopenings went. */
interface Listening {
  readonly controller: AbortController;
  /** The session it belongs to: a new session (initialize again) has a stream of its own. */
  readonly sessionId: string | undefined;
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** Reopenings in a row that failed (no stream, or one that ended at once). */
  failures: number;
}

/**
 * What one GET of the standalone stream gave: its body; `none`, no stream offered (405);
 * `lost`, the session is gone (404); `failed`, anything else (try again later).
 */
type Opened = ReadableStream<Uint8Array> | "none" | "lost" | "failed";

/** The transport's part of a legacy session, over its endpoint, requests and streams. */
export function legacySessionSupport(
  endpoint: HttpEndpoint,
  inflight: InflightRequests,
  streams: SessionStreams,
): LegacySessionSupport {
  return {
    reset() {
      streams.answering.abandonAll(new Error("a new session began"));
      streams.stopListening();
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
    onSessionLost: (listener) => void (streams.sessionLost = listener),
  };
}
