import type { HandleContext } from "./context.js";
import { JSONRPC_ERRORS, withDetail } from "../core/errors.js";
import { carriesModernMeta, isObject, type ValidationError } from "../core/protocol.js";
import { serverCapabilities } from "./server-capabilities.js";
import type { Era, LegacyEra } from "../core/era.js";
import type { Dispatcher, DispatcherOptions, Handlers, Reply } from "./router-types.js";
import { LegacySession, type LegacySessionState, type SessionOptions } from "./legacy-session.js";
import { channelOf, type LegacySessionTable } from "./legacy-session-table.js";
import { INITIALIZE } from "./legacy-router.js";

// `initialize` opens a legacy session on its channel, at the legacy revision the client
// asks for (or the newest one served); a modern-only server refuses it, naming the versions
// it speaks.

/** What answering `initialize` takes. */
export interface InitializeServing {
  /** The revision the handlers are written against (its error code refuses initialize). */
  readonly modern: Era;
  /** Legacy revisions served through `initialize`, newest first (empty: modern only). */
  readonly legacy: readonly LegacyEra[];
  /** Every protocol version served, newest first. */
  readonly supportedVersions: readonly string[];
  readonly handlers: Handlers;
  readonly options: DispatcherOptions & SessionOptions;
  /** Where the session opens. */
  readonly sessions: LegacySessionTable;
  /** The router serving a session opened. */
  readonly routerFor: (session: LegacySession) => Dispatcher;
}

/**
 * Whether `message` is a legacy client's initialize. It carries no modern per-request
 * `_meta`: one that does is a modern request for a method the modern revisions do not have
 * (answered -32601).
 */
export function isLegacyInitialize(
  modernEras: readonly Era[],
  message: unknown,
): message is Record<string, unknown> {
  return (
    isObject(message) &&
    message["method"] === INITIALIZE &&
    message["id"] !== undefined &&
    !modernEras.some((era) => carriesModernMeta(era.protocol, message))
  );
}

/** The answer to `initialize`: a new session on the channel, or an error naming the versions served. */
export function answerInitialize(
  message: Record<string, unknown>,
  context: HandleContext,
  serving: InitializeServing,
): Reply {
  const id = message["id"] as string | number;
  const params = isObject(message["params"]) ? message["params"] : {};
  const requested = params["protocolVersion"];
  const era =
    serving.legacy.find((e) => e.protocol.protocolVersion === requested) ?? serving.legacy[0];
  if (!era) return refusal(id, requested, serving);
  const checked = era.validators.validateRequestMessage(message, "client->server");
  if (!checked.ok) return invalidParams(id, checked.errors);
  const version = era.protocol.protocolVersion!;
  const session = new LegacySession(era, version, params, serving.options);
  // On stdio the process's output is the session's stream from the start.
  session.stream = context.notify;
  serving.sessions.open(channelOf(context), session, serving.routerFor(session));
  // Decided as server/discover decides them (server-capabilities.ts), with the subscriptions
  // the session keeps.
  const capabilities = serverCapabilities(
    era.protocol,
    { handlers: serving.handlers, declared: serving.options.capabilities },
    true,
  );
  const { serverInfo, instructions } = serving.options;
  const result = {
    protocolVersion: version,
    capabilities,
    serverInfo: serverInfo ?? { name: "mcp-server", version: "0.0.0" },
    ...(instructions !== undefined ? { instructions } : {}),
  };
  return { jsonrpc: "2.0", id, result };
}

/**
 * Opens on `channel` the session `state` describes (kept by a store, perhaps written by
 * another instance), or brings the one open there up to date with it. False when this server
 * no longer serves the session's revision: the session is gone for it.
 */
export function restoreSession(
  channel: object,
  state: LegacySessionState,
  serving: InitializeServing,
): boolean {
  const open = serving.sessions.get(channel)?.session;
  if (open && open.version === state.version) {
    open.applyState(state);
    return true;
  }
  const era = serving.legacy.find((e) => e.protocol.protocolVersion === state.version);
  if (!era) return false;
  const session = LegacySession.fromState(era, state, serving.options);
  serving.sessions.open(channel, session, serving.routerFor(session));
  return true;
}

/**
 * A modern-only server names the versions it speaks to a legacy client, which has no
 * other way to learn them (basic/versioning, "Backward Compatibility").
 */
function refusal(id: string | number, requested: unknown, serving: InitializeServing): Reply {
  const { supportedVersions } = serving;
  const code =
    serving.modern.protocol.errorCodes.unsupportedProtocolVersion ?? JSONRPC_ERRORS.INVALID_REQUEST;
  const message = `This server speaks MCP ${supportedVersions.join(", ")} (per-request metadata) and does not accept initialize`;
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code,
      message,
      data: {
        supported: supportedVersions,
        ...(typeof requested === "string" ? { requested } : {}),
      },
    },
  };
}

function invalidParams(id: string | number, errors: ValidationError[]): Reply {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: JSONRPC_ERRORS.INVALID_PARAMS,
      message: withDetail("Invalid params for initialize", errors),
      data: { errors },
    },
  };
}
