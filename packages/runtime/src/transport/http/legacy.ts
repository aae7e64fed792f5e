import { JSONRPC_ERRORS } from "../../core/errors.js";
import type { ResourceServer } from "../../auth/resource-server.js";
import { answer, type AnswerHost, RequestLifetime } from "./answer.js";
import {
  errorBody,
  EVENT_STREAM_HEADERS,
  sendJson,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import type { HttpCoreOptions } from "./options.js";
import { MemorySessionStore, newSessionId, type SessionStore } from "./sessions.js";
import { MemoryEventStore, positiveInteger } from "./event-store.js";
import { resumableStreams, type SessionRef } from "./resumable.js";

// The legacy half of the HTTP server (2025-03-26 .. 2025-11-25 transports, "Session
// Management"): `initialize` opens a session named by the Mcp-Session-Id response header;
// later POSTs, the standalone GET stream and DELETE name it. Modern requests never get here.

/** What the legacy path shares with the rest of the HTTP core. */
export interface LegacyHttpHost extends AnswerHost {
  options: HttpCoreOptions<never>;
  limit: number;
  timeoutMs: number;
  auth: ResourceServer | undefined;
  /** Told about failures no response carries (default console.error). */
  report(line: string): void;
  /** The request's principal, or false after answering 401. */
  principalOf(
    exchange: HttpExchange,
    sink: ReplySink,
  ): Promise<{ principal: string | undefined } | false>;
  /** Answers a refused request (401/403 with the challenge). */
  refuse(sink: ReplySink, error: unknown, id?: unknown): void;
  /** Reads a POST's message, or answers why not and returns undefined. */
  readMessage(
    exchange: HttpExchange,
    sink: ReplySink,
    lifetime: RequestLifetime,
  ): Promise<Record<string, unknown> | undefined>;
}

export function legacySessions(host: LegacyHttpHost) {
  const { dispatcher, options } = host;
  // Resumable streams (default: events kept in memory); `eventStore: false` turns them off.
  if (options.sseRetryMs !== undefined) positiveInteger("sseRetryMs", options.sseRetryMs);
  const streams =
    options.eventStore === false || !dispatcher.attachStream
      ? undefined
      : resumableStreams({
          store: options.eventStore ?? new MemoryEventStore(),
          retryMs: options.sseRetryMs ?? 1000,
          report: host.report,
        });
  const store: SessionStore =
    options.sessionStore ??
    new MemorySessionStore({
      ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
      ...(options.sessionIdleTimeoutMs !== undefined
        ? { idleTimeoutMs: options.sessionIdleTimeoutMs }
        : {}),
      onEvict: (channel) => {
        streams?.forget(channel);
        dispatcher.endSession?.(channel);
      },
    });
  // Who opened each session: only that principal may use or end it.
  const owners = new WeakMap<object, string | undefined>();

  /** `initialize` from a legacy client: a new session when the dispatcher serves legacy eras. */
  async function initialize(
    sink: ReplySink,
    message: Record<string, unknown>,
    principal: string | undefined,
  ): Promise<void> {
    const channel = {};
    const reply = await dispatcher.handle(message, {
      channel,
      ...(principal === undefined ? {} : { principal }),
    });
    const headers: Record<string, string> = {};
    if (dispatcher.session?.(channel)) {
      const id = newSessionId();
      store.add(id, channel);
      owners.set(channel, principal);
      headers["mcp-session-id"] = id;
    }
    sendJson(sink, host.statusOf(reply), reply, headers);
  }

  /** The standalone stream: messages not tied to a request (list changes, resource updates). */
  function openStandaloneStream(exchange: HttpExchange, sink: ReplySink, channel: object): void {
    const stream = sink.openStream(EVENT_STREAM_HEADERS);
    stream.comment("stream open");
    const detach = dispatcher.attachStream!(channel, (m) => stream.event(m));
    exchange.onClose(detach);
  }

  /** A session's POST: a notification or response (202), or a request answered in band. */
  async function post(
    exchange: HttpExchange,
    sink: ReplySink,
    channel: object,
    session: SessionRef,
    principal: string | undefined,
  ): Promise<void> {
    const lifetime = new RequestLifetime(host.timeoutMs, exchange);
    try {
      const message = await host.readMessage(exchange, sink, lifetime);
      if (!message) return;
      const refusal = host.auth?.authorize(exchange.authView() as never, message);
      if (refusal) return host.refuse(sink, refusal, message["id"]);
      const version = exchange.header("mcp-protocol-version");
      if (version !== undefined && version !== session.version) {
        const error = errorBody(
          JSONRPC_ERRORS.INVALID_REQUEST,
          `MCP-Protocol-Version ${version} is not this session's ${session.version}`,
          message["id"],
        );
        return sendJson(sink, 400, error);
      }
      const caller = { channel, principal };
      // Notifications, and responses to requests the server sent, are accepted with 202.
      if (typeof message["method"] !== "string" || message["id"] === undefined) {
        await dispatcher.handle(message, {
          channel,
          ...(principal === undefined ? {} : { principal }),
        });
        return sink.send(202, {});
      }
      // A session's request errors travel in the body with 200 (2025-11-25 transports: a
      // request is answered with JSON or SSE; 404 on a session id means the session is gone,
      // and clients MUST initialize again). The SDK servers answer them so.
      const replySink = streams
        ? await streams.postSink(sink, exchange, session, () => lifetime.keepOnClose())
        : sink;
      await answer(host, replySink, lifetime, message, caller, true);
    } finally {
      lifetime.end();
    }
  }

  /** A request naming a session: its POSTs, GET for the standalone stream, DELETE to end it. */
  async function serve(exchange: HttpExchange, sink: ReplySink, id: string): Promise<void> {
    const who = await host.principalOf(exchange, sink);
    if (!who) return;
    const { principal } = who;
    const channel = store.get(id);
    const session = channel && dispatcher.session?.(channel);
    // An unknown or expired session: 404, and the client starts a new one (2025-11-25
    // transports). A session opened by another principal is just as unknown to this one.
    if (!channel || !session || owners.get(channel) !== principal)
      return sendJson(sink, 404, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Session not found"));
    if (exchange.method === "DELETE") {
      store.delete(id);
      streams?.forget(channel);
      dispatcher.endSession?.(channel);
      return sink.send(200, {});
    }
    const ref: SessionRef = {
      channel,
      id,
      version: session.version,
      attach: (send) => dispatcher.attachStream!(channel, send),
    };
    if (exchange.method === "GET" && streams) {
      const lastEventId = exchange.header("last-event-id");
      if (lastEventId !== undefined) return streams.resume(exchange, sink, ref, lastEventId);
      return streams.openStandalone(exchange, sink, ref);
    }
    if (exchange.method === "GET" && dispatcher.attachStream)
      return openStandaloneStream(exchange, sink, channel);
    if (exchange.method !== "POST") {
      const error = errorBody(
        JSONRPC_ERRORS.INVALID_REQUEST,
        "Method not allowed: use POST, GET or DELETE",
      );
      return sendJson(sink, 405, error, { allow: "POST, GET, DELETE" });
    }
    return post(exchange, sink, channel, ref, principal);
  }

  return { initialize, serve };
}
