import { JSONRPC_ERRORS } from "../../../core/errors.js";
import type { LegacySessionState } from "../../../server/legacy-session.js";
import type { ResourceServer } from "../../../auth/resource-server.js";
import {
  answer,
  callerAuth,
  traceHeadersOf,
  type AnswerHost,
  type Caller,
  type RequestLifetime,
} from "./answer.js";
import { errorBody, sendJson, type HttpExchange, type ReplySink } from "./exchange.js";
import { emitWarning } from "../../../core/warning.js";
import type { BackChannelUse } from "../../../server/back-channel-uses.js";
import type { HttpCoreOptions, MessageHandler } from "./options.js";

// The serving modes of legacy (2025-03-26 .. 2025-11-25) clients (HttpCoreOptions.legacy),
// each independent of the other: JSON responses (one application/json body per request, as
// the Python SDK's json_response and the SDK transports' enableJsonResponse), and stateless
// serving (no Mcp-Session-Id; each request on its own, as the v2 SDK's per-request legacy
// fallback serves). What a mode cannot carry is refused per request: the transport tells the
// dispatcher (HandleContext.backChannelRefusal), and a handler that asks the client for input
// gets an error naming the mode at once. Modern (2026-07-28) requests never get here.

/** The legacy serving modes, checked (see LegacyServingOptions). */
export interface LegacyModes {
  readonly sessions: boolean;
  readonly json: boolean;
}

const JSON_MODE =
  'the server answers legacy requests with one JSON body (legacy.responses: "json"), which cannot carry a request to the client';
const JSON_ACCEPT =
  "the client's Accept header lists application/json but not text/event-stream, so the answer is one JSON body, which cannot carry a request to the client";
const STATELESS =
  "the server serves legacy clients without sessions (legacy.sessions: false): the client's answer would name no session, so nothing could deliver it to this request";

/** Options that configure legacy sessions, meaningless (so refused) without them. */
const SESSION_OPTIONS = [
  "sessionStore",
  "messageBus",
  "maxSessions",
  "maxSessionsPerPrincipal",
  "maxAnonymousSessions",
  "sessionIdleTimeoutMs",
] as const;

/**
 * The modes `options.legacy` sets, checked at creation (TypeError for a bad value, or for
 * session options given with `sessions: false`); one warning when a mode drops features,
 * naming the handlers that use them.
 */
export function legacyModes(
  options: HttpCoreOptions<never>,
  dispatcher: MessageHandler,
): LegacyModes {
  const servesLegacy = dispatcher.session !== undefined;
  const { sessions = true, responses = "stream" } = options.legacy ?? {};
  if (typeof sessions !== "boolean")
    throw new TypeError(`legacy.sessions must be true or false, not ${String(sessions)}`);
  if (responses !== "stream" && responses !== "json")
    throw new TypeError(`legacy.responses must be "stream" or "json", not ${String(responses)}`);
  if (!sessions) {
    const given: string[] = SESSION_OPTIONS.filter((name) => options[name] !== undefined);
    if (options.eventStore !== undefined && options.eventStore !== false) given.push("eventStore");
    if (given.length > 0)
      throw new TypeError(
        `${given.join(", ")} configure legacy sessions, which legacy.sessions: false turns off`,
      );
    if (servesLegacy && !dispatcher.restoreSession)
      throw new TypeError("legacy.sessions: false needs a dispatcher with restoreSession");
  }
  const modes = { sessions, json: responses === "json" };
  if (servesLegacy && (modes.json || !modes.sessions))
    emitWarning(warningOf(modes, dispatcher), "Warning", "MCP_LEGACY_MODE");
  return modes;
}

/** The uses a mode loses: input always, notifications during a call with one JSON body. */
const LOST: Record<BackChannelUse, string> = {
  input: "asks the client for input",
  notifications: "sends notifications during a call",
};

/**
 * The warning given once at creation: the mode, what its handlers lose, and the handlers
 * that use it (as the dispatcher reads them: back-channel-uses.ts), so the loss shows before
 * a client meets it.
 */
function warningOf(modes: LegacyModes, dispatcher: MessageHandler): string {
  const named = [
    ...(modes.sessions ? [] : ["legacy.sessions: false"]),
    ...(modes.json ? ['legacy.responses: "json"'] : []),
  ].join(", ");
  const dropped = modes.json
    ? "requests to the client (sampling, elicitation, roots) fail, and progress and log notifications sent during a call are dropped"
    : "requests to the client (sampling, elicitation, roots) fail";
  const line = `mcp-gen: legacy clients are served with ${named}: ${dropped} (deployment guide, "Serving modes for legacy clients")`;
  const affected = (dispatcher.backChannelHandlers?.() ?? []).flatMap(({ handler, uses }) => {
    const lost = uses.filter((use) => use === "input" || modes.json);
    return lost.length === 0 ? [] : [`  ${handler}: ${lost.map((use) => LOST[use]).join(", ")}`];
  });
  if (affected.length === 0) return line;
  return [`${line}; the handlers affected:`, ...affected].join("\n");
}

/** Whether an Accept header admits `type` (no header: anything; `q=0` excludes). */
function admits(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return true;
  const major = type.slice(0, type.indexOf("/"));
  return accept.split(",").some((part) => {
    const [range = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    if (params.some((p) => /^q=0(\.0*)?$/.test(p))) return false;
    return range === type || range === "*/*" || range === `${major}/*`;
  });
}

/** The last Accept header read, and what it admits: a client sends the same one each time. */
let lastAccept: { header: string | undefined; json: boolean; sse: boolean } | undefined;

/** Whether `accept` admits JSON, and SSE. */
function acceptedTypes(accept: string | undefined): { json: boolean; sse: boolean } {
  if (lastAccept !== undefined && lastAccept.header === accept) return lastAccept;
  const json = admits(accept, "application/json");
  const sse = admits(accept, "text/event-stream");
  lastAccept = { header: accept, json, sse };
  return lastAccept;
}

/**
 * How one legacy request is answered, from the mode and the client's Accept: the Caller's
 * fields, or undefined after answering 406. The client MUST list both application/json and
 * text/event-stream, and the server answers a request with either (2025-11-25
 * basic/transports, "Sending Messages to the Server", 2 and 5); a client listing only
 * application/json gets one JSON body, as in JSON mode, rather than the v2 SDK's 406. A 406
 * only when the Accept admits nothing the server would send.
 */
export function answering(
  modes: LegacyModes,
  exchange: HttpExchange,
  sink: ReplySink,
  id: unknown,
): Pick<Caller, "jsonResponse" | "backChannelRefusal"> | undefined {
  const { json, sse } = acceptedTypes(exchange.header("accept"));
  if (!json && (modes.json || !sse)) {
    const sends = modes.json ? "application/json" : "application/json or text/event-stream";
    const error = errorBody(
      JSONRPC_ERRORS.INVALID_REQUEST,
      `Not Acceptable: the client must accept ${sends}`,
      id,
    );
    return void sendJson(sink, 406, error);
  }
  if (modes.json) return { jsonResponse: true, backChannelRefusal: JSON_MODE };
  if (!sse) return { jsonResponse: true, backChannelRefusal: JSON_ACCEPT };
  if (!modes.sessions) return { backChannelRefusal: STATELESS };
  return AS_REQUESTED;
}

/** A request answered as the client asked: with SSE when it needs a stream. */
const AS_REQUESTED: Pick<Caller, "jsonResponse" | "backChannelRefusal"> = Object.freeze({});

/**
 * The revision a stateless request is served at when it names none (2025-11-25
 * basic/transports, "Protocol Version Header": the server SHOULD assume 2025-03-26).
 */
const ASSUMED_VERSION = "2025-03-26";

/** What stateless legacy serving takes of the HTTP core. */
export interface StatelessHost extends AnswerHost {
  readonly modes: LegacyModes;
  readonly auth: ResourceServer | undefined;
}

/**
 * Legacy clients without sessions (`legacy.sessions: false`): the server MAY assign no session
 * id (2025-11-25 basic/transports, "Session Management", 1), so `initialize` is answered
 * without Mcp-Session-Id and every later request is served on a session of its own, opened
 * for it and ended with it: its revision from MCP-Protocol-Version, no client capabilities
 * known (the client declared them to another request), log level and subscriptions
 * forgotten. Any instance can serve any request. A request's SSE stream carries its progress
 * and logs, but nothing it asks of the client: the answer would come in a POST that names no
 * session, which no instance could route to the waiting handler (see answering).
 */
export function statelessLegacy(host: StatelessHost) {
  const { dispatcher } = host;

  /** `initialize`: answered, and the session it opened ended at once (no id is issued). */
  async function initialize(
    sink: ReplySink,
    message: Record<string, unknown>,
    principal: string | undefined,
  ): Promise<void> {
    const channel = {};
    try {
      const reply = await dispatcher.handle(message, {
        channel,
        ...(principal === undefined ? {} : { principal }),
      });
      sendJson(sink, host.statusOf(reply), reply);
    } finally {
      dispatcher.endSession?.(channel);
    }
  }

  /** A legacy POST after initialize (Mcp-Session-Id, if sent, is ignored: none was issued). */
  async function serve(
    exchange: HttpExchange,
    sink: ReplySink,
    lifetime: RequestLifetime,
    message: Record<string, unknown>,
    principal: string | undefined,
  ): Promise<void> {
    const version = exchange.header("mcp-protocol-version") ?? ASSUMED_VERSION;
    const state: LegacySessionState = {
      version,
      clientCapabilities: {},
      initialized: true,
      subscriptions: [],
    };
    const channel = {};
    // An unsupported MCP-Protocol-Version: 400 ("Protocol Version Header").
    if (!dispatcher.restoreSession!(channel, state)) {
      const error = errorBody(
        JSONRPC_ERRORS.INVALID_REQUEST,
        `Bad Request: MCP-Protocol-Version ${version} is not a revision this server serves`,
        message["id"],
      );
      return sendJson(sink, 400, error);
    }
    try {
      const who = principal === undefined ? {} : { principal };
      if (typeof message["method"] !== "string" || message["id"] === undefined) {
        await dispatcher.handle(message, { channel, ...who });
        return sink.send(202, {});
      }
      const mode = answering(host.modes, exchange, sink, message["id"]);
      if (!mode) return;
      const caller: Caller = {
        channel,
        principal,
        traceHeaders: traceHeadersOf(exchange),
        ...callerAuth(host.auth, exchange.authView(), message),
        ...mode,
      };
      // Errors in the body with 200, as in a session (legacy.ts).
      await answer(host, sink, lifetime, message, caller, true);
    } finally {
      dispatcher.endSession?.(channel);
    }
  }

  return { initialize, serve };
}
