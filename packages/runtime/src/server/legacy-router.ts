import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { own } from "../core/protocol.js";
import { createRouter } from "./router.js";
import type { Dispatcher, DispatcherOptions, Handler, Handlers } from "./router-types.js";
import { servedOnSession, type LegacyBridge } from "./legacy-request-bridge.js";
import type { LegacySession } from "./legacy-session.js";

// The router of one legacy session: the legacy revision's method table and validators, the
// handlers written against the modern revision bridged to it, and the built-ins that keep
// the session's state (log level, subscriptions, initialized).

export const INITIALIZE = "initialize";
const INITIALIZED = "notifications/initialized";
const SET_LEVEL = "logging/setLevel";
const SUBSCRIBE = "resources/subscribe";
const UNSUBSCRIBE = "resources/unsubscribe";

/** What the routers of legacy sessions serve. */
export interface LegacyServing extends LegacyBridge {
  /** The handlers, written against the modern revision. */
  readonly handlers: Handlers;
  /** The era dispatcher's options (its router options, for the session's router). */
  readonly options: DispatcherOptions;
}

/** The methods a legacy session answers itself, from and into its own state. */
function sessionBuiltins(session: LegacySession): Record<string, Handler> {
  return {
    [INITIALIZE]: () => {
      throw new McpError(JSONRPC_ERRORS.INVALID_REQUEST, "this session is already initialized");
    },
    [SET_LEVEL]: (params: { level: string }) => ((session.logLevel = params.level), {}),
    [SUBSCRIBE]: (params: { uri: string }) => (session.subscribe(params.uri), {}),
    [UNSUBSCRIBE]: (params: { uri: string }) => (session.subscriptions.delete(params.uri), {}),
    [INITIALIZED]: () => void (session.initialized = true),
  };
}

/** The router of `session`: the legacy revision's method table, validators and built-ins. */
export function createLegacyRouter(session: LegacySession, serving: LegacyServing): Dispatcher {
  const era = session.era;
  const legacyHandlers = sessionBuiltins(session);
  for (const [method, entry] of Object.entries(era.protocol.methods)) {
    const handler = own(serving.handlers, method);
    if (!handler || own(legacyHandlers, method) || !entry.directions.includes("client->server"))
      continue;
    legacyHandlers[method] =
      entry.kind === "request" ? servedOnSession(serving, session, method, handler) : handler;
  }
  // Extensions speak the modern wire (per-request capabilities, resultType): none for legacy.
  const {
    supportedVersions: _ignored,
    extensions: _modernOnly,
    ...routerOptions
  } = serving.options;
  void _ignored;
  void _modernOnly;
  return createRouter(
    era.protocol,
    era.validators,
    "client->server",
    legacyHandlers,
    routerOptions,
  );
}
