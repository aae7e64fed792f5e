import { JSONRPC_ERRORS } from "../../../core/errors.js";
import { carriesModernMeta, type ProtocolDescriptor } from "../../../core/protocol.js";
import {
  AuthChallenge,
  createResourceServer,
  type ResourceServer,
} from "../../../auth/resource-server.js";
import { answer, callerAuth, replyStatus, RequestLifetime, traceHeadersOf } from "./answer.js";
import { errorBody, sendJson, type HttpExchange, type ReplySink } from "./exchange.js";
import { createCors, hostAllowed, originAllowed, type Cors } from "./guards.js";
import { checkRoutingHeaders } from "../headers.js";
import { legacySessions, type LegacyHttpHost } from "./legacy.js";
import { answering, legacyModes, statelessLegacy } from "./legacy-modes.js";
import { BODY_CONSUMED, readMessage } from "./message.js";
import { metadataReply } from "./metadata.js";
import type { HttpCoreOptions, MessageHandler } from "./options.js";
import type { DefaultStores } from "./store-defaults.js";
import { toolHeaderCheck } from "./tool-header-check.js";

// The server side of Streamable HTTP, for every host: one endpoint; a request gets a JSON
// body, or an SSE stream when the handler sends related messages before its answer. Modern
// (2026-07-28) requests are stateless: any number of instances can serve them behind a
// plain load balancer. A dual-era dispatcher also serves legacy clients: `initialize` opens
// a session (Mcp-Session-Id), whose later POSTs, GET stream and DELETE name it.
// The hosts: fetch.ts (Request in, Response out) and server.ts (node:http).

const INITIALIZE = "initialize";
const SESSION_REQUIRED =
  "Bad Request: no Mcp-Session-Id; POST initialize first to open a session (a 2026-07-28 request sends the Mcp-Method and MCP-Protocol-Version headers instead)";

/** Serves one request: reads it through `exchange`, answers through `sink`; never throws. */
export type HttpCore = (exchange: HttpExchange, sink: ReplySink) => Promise<void>;

/** The core of both hosts; `defaults` are the stores used when `options` give none. */
export function createHttpCore<R>(
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: HttpCoreOptions<R>,
  defaults: DefaultStores,
): HttpCore {
  const path = options.path ?? "/mcp";
  if (options.auth && options.authenticate) throw new Error("pass either auth or authenticate");
  const auth = options.auth && createResourceServer(options.auth, path);
  const principalOf = principals(options, auth);
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  const report = options.onError ?? ((line: string) => console.error(line));
  const cors = createCors(protocol, options.cors);
  const checkHeaders = headerChecks(protocol, dispatcher);
  const modes = legacyModes(options as HttpCoreOptions<never>, dispatcher);
  const host: LegacyHttpHost = {
    modes,
    dispatcher,
    options: options as HttpCoreOptions<never>,
    defaults,
    limit,
    timeoutMs,
    auth,
    statusOf: replyStatus(protocol.http.badRequestCodes),
    principalOf: async (exchange, sink) => principalOf(exchange, sink),
    refuse,
    report,
    readMessage: async (exchange, sink, lifetime) => messageOf(exchange, sink, lifetime),
  };
  /** A POST's message; at once (no promise) when the host has the body already. */
  const messageOf = (exchange: HttpExchange, sink: ReplySink, lifetime: RequestLifetime) =>
    readMessage(exchange, sink, limit, lifetime.cancellation, () =>
      report(`mcp-gen: ${exchange.method} ${exchange.pathname}: 500, ${BODY_CONSUMED}`),
    );
  // Without sessions, no session store, event store or bus is made (legacy-modes.ts).
  const legacy = modes.sessions ? legacySessions(host) : undefined;
  const stateless = modes.sessions ? undefined : statelessLegacy(host);

  /** A POST without a session: a modern request or notification, or a legacy initialize. */
  async function post(exchange: HttpExchange, sink: ReplySink): Promise<void> {
    const identified = principalOf(exchange, sink);
    const who = identified instanceof Promise ? await identified : identified;
    if (!who) return;
    const { principal } = who;
    const lifetime = new RequestLifetime(timeoutMs, exchange);
    try {
      const read = messageOf(exchange, sink, lifetime);
      const message = read instanceof Promise ? await read : read;
      if (!message) return;
      const refusal = auth?.authorize(exchange.authView() as never, message);
      if (refusal) return refuse(sink, refusal, message["id"]);
      const method = message["method"];
      if (
        method === INITIALIZE &&
        message["id"] !== undefined &&
        !carriesModernMeta(protocol, message)
      ) {
        if (!answering(modes, exchange, sink, message["id"])) return;
        return await (legacy ?? stateless!).initialize(sink, message, principal);
      }
      if (typeof method !== "string") {
        const error = errorBody(
          JSONRPC_ERRORS.INVALID_REQUEST,
          "Invalid request: expected a request or notification",
        );
        return sendJson(sink, 400, error);
      }
      // Header names as the protocol spells them; the exchange takes them in lower case.
      const header = (name: string) => exchange.header(name.toLowerCase());
      // A dual-era server's legacy client that did not initialize (see looksLegacy), or,
      // without sessions, any legacy request after initialize.
      if (dispatcher.session && looksLegacy(protocol, header, message)) {
        if (stateless) return await stateless.serve(exchange, sink, lifetime, message, principal);
        return sendJson(
          sink,
          400,
          errorBody(JSONRPC_ERRORS.INVALID_REQUEST, SESSION_REQUIRED, message["id"]),
        );
      }
      const checked = checkHeaders(header, message, principal);
      const problem = checked instanceof Promise ? await checked : checked;
      if (problem) return sendJson(sink, 400, problem);
      // Each POST is its own channel: a notification in another POST cancels nothing here.
      const traceHeaders = traceHeadersOf(exchange);
      const caller = auth
        ? {
            principal,
            channel: {},
            traceHeaders,
            ...callerAuth(auth, exchange.authView(), message),
          }
        : { principal, channel: {}, traceHeaders };
      if (message["id"] === undefined) {
        await dispatcher.handle(message, {
          channel: caller.channel,
          ...(principal === undefined ? {} : { principal }),
        });
        return sink.send(202, {});
      }
      await answer(host, sink, lifetime, message, caller, false);
    } finally {
      lifetime.end();
    }
  }

  /** The request after the path, Host and Origin checks. */
  function route(exchange: HttpExchange, sink: ReplySink): Promise<void> | void {
    const sessionId = exchange.header("mcp-session-id");
    // A server without legacy eras ignores Mcp-Session-Id (2026-07-28 streamable-http,
    // "Earlier Streamable HTTP Revisions"); so does one without legacy sessions, which issued
    // none (GET and DELETE then get 405: "Listening for Messages from the Server", 3, and
    // "Session Management", 5).
    if (sessionId !== undefined && legacy && dispatcher.session)
      return legacy.serve(exchange, sink, sessionId);
    if (exchange.method === "POST") return post(exchange, sink);
    const error = errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Method not allowed: use POST");
    return sendJson(sink, 405, error, { allow: "POST" });
  }

  return async function serve(exchange, sink) {
    try {
      if (exchange.pathname !== path) {
        const metadata = auth && metadataReply(auth, exchange);
        if (metadata) return sink.send(metadata.status, metadata.headers, metadata.body);
        const error = errorBody(
          JSONRPC_ERRORS.INVALID_REQUEST,
          `Not found: the MCP endpoint is ${path}`,
        );
        return sendJson(sink, 404, error);
      }
      if (!hostAllowed(options as HttpCoreOptions<never>, exchange.header("host")))
        return sendJson(sink, 403, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Host not allowed"));
      const origin = exchange.header("origin");
      if (origin === undefined) return await route(exchange, sink);
      if (!originAllowed(options as HttpCoreOptions<never>, origin))
        return sendJson(sink, 403, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Origin not allowed"));
      if (!cors) return await route(exchange, sink);
      return await withCors(cors, origin, exchange, sink, route);
    } catch (error) {
      report(`mcp-gen: ${exchange.method} ${exchange.pathname}: 500, ${describe(error)}`);
      sendJson(sink, 500, errorBody(JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error"));
    }
  };
}

/** The request's principal (`authenticate`, or `auth`'s token), or false after answering 401. */
function principals<R>(
  options: HttpCoreOptions<R>,
  auth: ResourceServer | undefined,
): (exchange: HttpExchange, sink: ReplySink) => Principal | Promise<Principal> {
  // Without authentication there is no one to wait for: answered at once (the hot path).
  if (!auth && !options.authenticate) return () => NOBODY;
  // A POST's scopes are checked once its message is read (auth.authorize, on every POST
  // path that serves one), so that a 403 names the required scopes with the method's and the
  // tool's: one challenge with every scope the operation needs (2026-07-28 authorization,
  // Scope Challenge Handling). GET and DELETE carry no message: checked here.
  const authenticate = (exchange: HttpExchange) =>
    auth
      ? auth.authenticate(exchange.authView() as never, {
          deferScopeCheck: exchange.method === "POST",
        })
      : options.authenticate?.(exchange.native as R);
  return async (exchange: HttpExchange, sink: ReplySink) => {
    try {
      return { principal: await authenticate(exchange) };
    } catch (error) {
      refuse(sink, error);
      return false as const;
    }
  };
}

/** A request's principal, or false once it was answered 401/403. */
type Principal = { principal: string | undefined } | false;
const NOBODY: Principal = { principal: undefined };

/** Answers a refused request: an AuthChallenge with its status and challenge, else 401. */
function refuse(sink: ReplySink, error: unknown, id?: unknown) {
  const challenge = error instanceof AuthChallenge ? error : undefined;
  const message = challenge?.message ?? "Unauthorized";
  const body = errorBody(JSONRPC_ERRORS.INVALID_REQUEST, message, id);
  sendJson(sink, challenge?.status ?? 401, body, challenge?.headers ?? {});
}

/** An allowed browser origin: preflights answered, CORS headers on every other answer. */
function withCors(
  cors: Cors,
  origin: string,
  exchange: HttpExchange,
  sink: ReplySink,
  route: (exchange: HttpExchange, sink: ReplySink) => Promise<void> | void,
): Promise<void> | void {
  const requested = exchange.header("access-control-request-method");
  if (exchange.method === "OPTIONS" && requested !== undefined) {
    const headers = cors.preflight(origin, exchange.header("access-control-request-headers"));
    return sink.send(204, headers);
  }
  const added = cors.response(origin);
  return route(exchange, {
    send: (status, headers, body) => sink.send(status, { ...headers, ...added }, body),
    openStream: (headers) => sink.openStream({ ...headers, ...added }),
  });
}

/**
 * Whether a POST without Mcp-Session-Id is a legacy (2025-xx) client's request rather than a
 * modern one: no Mcp-Method header, no protocol version in the body's `_meta`, and no
 * MCP-Protocol-Version header naming this revision or a later one. Such a request is answered
 * "initialize first" (2025-11-25 basic/transports, "Session Management": a request without
 * Mcp-Session-Id other than initialization gets 400), not with a modern header mismatch; a
 * request showing any modern sign keeps the 2026-07-28 header checks as they are.
 */
function looksLegacy(
  protocol: ProtocolDescriptor,
  header: (name: string) => string | string[] | undefined,
  message: Record<string, unknown>,
): boolean {
  const { http, protocolVersion } = protocol;
  if (header(http.methodHeader) !== undefined || carriesModernMeta(protocol, message)) return false;
  const version = header(http.versionHeader);
  const named = Array.isArray(version) ? version.join(",") : version;
  // Revisions are dates (YYYY-MM-DD): an earlier one is a legacy revision.
  return named === undefined || (protocolVersion !== null && named < protocolVersion);
}

const describe = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/**
 * The routing-header checks of a modern request (2026-07-28 streamable-http, "Standard
 * Headers" and "Server Validation"): the error body of a mismatch, or undefined.
 */
function headerChecks(protocol: ProtocolDescriptor, dispatcher: MessageHandler) {
  const mismatch = protocol.errorCodes.headerMismatch;
  const checkToolHeaders = toolHeaderCheck(protocol, dispatcher);
  // Extension requests acting on a named thing carry it in Mcp-Name too (ext-tasks tasks.md,
  // "Streamable HTTP: Routing Headers": the taskId of tasks/get, tasks/update, tasks/cancel).
  const routing = dispatcher.nameParams
    ? {
        ...protocol,
        http: {
          ...protocol.http,
          nameParams: { ...dispatcher.nameParams, ...protocol.http.nameParams },
        },
      }
    : protocol;
  const refusal = (problem: string | undefined, message: Record<string, unknown>) =>
    problem && mismatch !== null
      ? errorBody(mismatch, `Header mismatch: ${problem}`, message["id"])
      : undefined;
  // Synchronous unless the tool headers' plans must be listed first: most requests take no
  // promise here (the HTTP hot path).
  return (
    header: (name: string) => string | undefined,
    message: Record<string, unknown>,
    principal: string | undefined,
  ) => {
    if (mismatch === null) return undefined;
    const problem =
      checkRoutingHeaders(routing, header, message) ?? checkToolHeaders(message, principal, header);
    return problem instanceof Promise
      ? problem.then((p) => refusal(p, message))
      : refusal(problem, message);
  };
}
