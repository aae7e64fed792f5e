import type { IncomingMessage, ServerResponse } from "node:http";
import { JSONRPC_ERRORS } from "../../core/errors.js";
import { MemorySessionStore, newSessionId, type SessionStore } from "./sessions.js";
import { errorBody, openEventStream, readMessage, send, writeEvent } from "./wire.js";
import type { HttpHandlerOptions, MessageHandler } from "./options.js";
import type { ResourceServer } from "../../auth/resource-server.js";

// The legacy half of the HTTP server (2025-03-26 .. 2025-11-25 transports, "Session
// Management"): `initialize` opens a session named by the Mcp-Session-Id response header;
// later POSTs, the standalone GET stream and DELETE name it. Modern requests never get here.

/** What the legacy path shares with the rest of the HTTP server. */
export interface LegacyHttpHost {
  dispatcher: MessageHandler;
  options: HttpHandlerOptions;
  limit: number;
  auth: ResourceServer | undefined;
  /** The request's principal, or false after answering 401. */
  principalOf(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ principal: string | undefined } | false>;
  refuse(res: ServerResponse, error: unknown, id?: unknown): void;
  /** Runs one request and answers it (JSON or SSE); `inBand`: every answer with status 200. */
  answer(
    res: ServerResponse,
    message: Record<string, unknown>,
    principal: string | undefined,
    channel: object,
    inBand: boolean,
  ): Promise<void>;
  statusOf(reply: unknown): number;
}

export function legacySessions(host: LegacyHttpHost) {
  const { dispatcher, options } = host;
  const store: SessionStore =
    options.sessionStore ??
    new MemorySessionStore({
      ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
      ...(options.sessionIdleTimeoutMs !== undefined
        ? { idleTimeoutMs: options.sessionIdleTimeoutMs }
        : {}),
      onEvict: (channel) => dispatcher.endSession?.(channel),
    });
  // Who opened each session: only that principal may use or end it.
  const owners = new WeakMap<object, string | undefined>();

  /** `initialize` from a legacy client: a new session when the dispatcher serves legacy eras. */
  async function initialize(
    res: ServerResponse,
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
    send(res, host.statusOf(reply), reply, headers);
  }

  /** A request naming a session: its POSTs, GET for the standalone stream, DELETE to end it. */
  async function serve(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const who = await host.principalOf(req, res);
    if (!who) return;
    const { principal } = who;
    const channel = store.get(id);
    const session = channel && dispatcher.session?.(channel);
    // An unknown or expired session: 404, and the client starts a new one (2025-11-25
    // transports). A session opened by another principal is just as unknown to this one.
    if (!channel || !session || owners.get(channel) !== principal)
      return send(res, 404, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Session not found"));
    if (req.method === "DELETE") {
      store.delete(id);
      dispatcher.endSession?.(channel);
      return send(res, 200);
    }
    if (req.method === "GET" && dispatcher.attachStream) {
      // The standalone stream: messages not tied to a request (list changes, resource updates).
      openEventStream(res);
      res.write(": stream open\n\n");
      const detach = dispatcher.attachStream(channel, (m) => writeEvent(res, m));
      res.on("close", detach);
      return;
    }
    if (req.method !== "POST") {
      const error = errorBody(
        JSONRPC_ERRORS.INVALID_REQUEST,
        "Method not allowed: use POST, GET or DELETE",
      );
      return send(res, 405, error, { allow: "POST, GET, DELETE" });
    }
    const message = await readMessage(req, res, host.limit);
    if (!message) return;
    const refusal = host.auth?.authorize(req, message);
    if (refusal) return host.refuse(res, refusal, message["id"]);
    const version = req.headers["mcp-protocol-version"];
    if (typeof version === "string" && version !== session.version) {
      const error = errorBody(
        JSONRPC_ERRORS.INVALID_REQUEST,
        `MCP-Protocol-Version ${version} is not this session's ${session.version}`,
        message["id"],
      );
      return send(res, 400, error);
    }
    const context = { channel, ...(principal === undefined ? {} : { principal }) };
    // Notifications, and responses to requests the server sent, are accepted with 202.
    if (typeof message["method"] !== "string" || message["id"] === undefined) {
      await dispatcher.handle(message, context);
      return send(res, 202);
    }
    // A session's request errors travel in the body with 200 (2025-11-25 transports: a
    // request is answered with JSON or SSE; 404 on a session id means the session is gone,
    // and clients MUST initialize again). The SDK servers answer them so.
    await host.answer(res, message, principal, channel, true);
  }

  return { initialize, serve };
}
