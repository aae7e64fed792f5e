import { requestContext, type HandleContext } from "./context.js";
import { jsonRpcErrorOf, JSONRPC_ERRORS, McpError, withDetail } from "../core/errors.js";
import { adaptResult, createModernRouter } from "./modern-router.js";
import {
  capabilitiesOf,
  carriesModernMeta,
  isObject,
  mergeCapabilities,
  own,
} from "../core/protocol.js";
import {
  createRouter,
  servedHandlers,
  type Dispatcher,
  type DispatcherOptions,
  type Handlers,
  type Reply,
} from "./router.js";
import type { HandlerTable } from "./router-types.js";
import type { AdaptedEra, Era, LegacyEra } from "../core/era.js";
import { LegacySession, type SessionOptions } from "./legacy-session.js";

// One server, written once against the newest revision, serving every era in use
// (2026-07-28 basic/versioning, "Backward Compatibility with Initialization-Based Versions"):
// a request carrying modern per-request `_meta` is served statelessly; an `initialize`
// request opens a legacy session on its channel (the stdio process, or an HTTP session),
// served per the negotiated legacy revision. Handlers never see the difference: a legacy
// request reaches them with a modern context built from the session, and an input_required
// answer is fulfilled by sending its input requests to the client on the session.

export interface Eras {
  /** The revision handlers are written against (the newest). */
  readonly modern: Era;
  /**
   * Older stateless revisions also served per request (after a spec bump, the previous
   * ones), newest first; see modern-eras.ts.
   */
  readonly previous?: readonly AdaptedEra[];
  /** Legacy revisions served through `initialize`, newest first (empty: modern only). */
  readonly legacy: readonly LegacyEra[];
}

export interface EraDispatcherOptions extends DispatcherOptions, SessionOptions {
  /** Rounds of input_required a legacy request may take (default 10). */
  maxLegacyRounds?: number;
}

/** `Answer`: what `handle` resolves to, as the caller types it (see Dispatcher). */
export interface EraDispatcher<Answer = Reply> extends Dispatcher<Answer> {
  /** The legacy session open on `channel`, if any. */
  session(channel: object): LegacySession | undefined;
  /** Ends the legacy session on `channel` (requests it awaits fail). */
  endSession(channel: object): void;
  /** Every protocol version served, newest first. */
  readonly supportedVersions: readonly string[];
  /** Makes `send` the session's stream for messages not tied to a request; returns its detach. */
  attachStream(channel: object, send: (message: object) => unknown): () => void;
  /**
   * Sends a notification (e.g. notifications/tools/list_changed) to every legacy session with
   * an open stream, or those `filter` picks; returns how many got it.
   */
  notifySessions(notification: object, filter?: (session: LegacySession) => boolean): number;
  /** notifications/resources/updated to the legacy sessions subscribed to `uri`. */
  resourceUpdated(uri: string): number;
}

const INITIALIZE = "initialize";
const INITIALIZED = "notifications/initialized";
const SET_LEVEL = "logging/setLevel";
const SUBSCRIBE = "resources/subscribe";
const UNSUBSCRIBE = "resources/unsubscribe";
const DEFAULT_CHANNEL = {};

// Handlers are typed per method; `any` parameters let every one of them sit in one table.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Handler = (params: any, ctx: any) => unknown;

export function createEraDispatcher<Table extends HandlerTable<Table> = Handlers, Answer = Reply>(
  eras: Eras,
  allHandlers: Table,
  options: EraDispatcherOptions = {},
): EraDispatcher<Answer> {
  const handlers = servedHandlers(allHandlers);
  const modernEras = [eras.modern, ...(eras.previous ?? [])];
  const modernVersions =
    options.supportedVersions ?? modernEras.flatMap((e) => e.protocol.protocolVersion ?? []);
  // Every stateless revision, routed by the version each request names.
  const modern = createModernRouter(eras.modern, eras.previous ?? [], handlers, {
    ...options,
    supportedVersions: modernVersions,
  });
  const legacyVersions = eras.legacy.flatMap((e) =>
    e.protocol.protocolVersion === null ? [] : [e.protocol.protocolVersion],
  );
  const supportedVersions = [...modernVersions, ...legacyVersions];
  const sessions = new WeakMap<object, { session: LegacySession; router: Dispatcher }>();
  const live = new Set<LegacySession>();
  const maxRounds = options.maxLegacyRounds ?? 10;
  const reportError = (error: unknown, method: string) => {
    try {
      options.onError?.(error, { method, id: undefined });
    } catch {
      // A failing error hook must not break the reply.
    }
  };

  /** The answer to `initialize`: a new session on the channel, or an error naming the versions served. */
  function initialize(message: Record<string, unknown>, context: HandleContext): Reply {
    const id = message["id"] as string | number;
    const params = isObject(message["params"]) ? message["params"] : {};
    const requested = params["protocolVersion"];
    const era = eras.legacy.find((e) => e.protocol.protocolVersion === requested) ?? eras.legacy[0];
    if (!era) {
      // A modern-only server names the versions it speaks to a legacy client, which has no
      // other way to learn them (basic/versioning, "Backward Compatibility").
      const code =
        eras.modern.protocol.errorCodes.unsupportedProtocolVersion ??
        JSONRPC_ERRORS.INVALID_REQUEST;
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
    const checked = era.validators.validateRequestMessage(message, "client->server");
    if (!checked.ok)
      return {
        jsonrpc: "2.0",
        id,
        error: {
          code: JSONRPC_ERRORS.INVALID_PARAMS,
          message: withDetail("Invalid params for initialize", checked.errors),
          data: { errors: checked.errors },
        },
      };
    const version = era.protocol.protocolVersion!;
    const session = new LegacySession(era, version, params, options);
    const channel = context.channel ?? DEFAULT_CHANNEL;
    const previous = sessions.get(channel)?.session;
    previous?.close("the client initialized again");
    if (previous) live.delete(previous);
    // On stdio the process's output is the session's stream from the start.
    session.stream = context.notify;
    sessions.set(channel, { session, router: legacyRouter(session) });
    live.add(session);
    const capabilities = {
      ...mergeCapabilities(derivedCapabilities(era), options.capabilities),
      logging: {},
    };
    const result = {
      protocolVersion: version,
      capabilities,
      serverInfo: options.serverInfo ?? { name: "mcp-server", version: "0.0.0" },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    };
    return { jsonrpc: "2.0", id, result };
  }

  /** Capabilities implied by the handlers, for methods the legacy revision has. */
  function derivedCapabilities(era: LegacyEra): Record<string, object> {
    const capabilities = capabilitiesOf(era.protocol.methods, handlers, "client->server");
    if (capabilities["resources"]) capabilities["resources"] = { subscribe: true };
    return capabilities;
  }

  /** The router of one session: the legacy revision's method table, validators and built-ins. */
  function legacyRouter(session: LegacySession): Dispatcher {
    const era = session.era;
    const legacyHandlers: Record<string, Handler> = {
      [INITIALIZE]: () => {
        throw new McpError(JSONRPC_ERRORS.INVALID_REQUEST, "this session is already initialized");
      },
      [SET_LEVEL]: (params: { level: string }) => ((session.logLevel = params.level), {}),
      [SUBSCRIBE]: (params: { uri: string }) => (session.subscriptions.add(params.uri), {}),
      [UNSUBSCRIBE]: (params: { uri: string }) => (session.subscriptions.delete(params.uri), {}),
      [INITIALIZED]: () => void (session.initialized = true),
    };
    for (const [method, entry] of Object.entries(era.protocol.methods)) {
      const handler = own(handlers, method);
      if (!handler || own(legacyHandlers, method) || !entry.directions.includes("client->server"))
        continue;
      legacyHandlers[method] =
        entry.kind === "request" ? served(session, method, handler) : handler;
    }
    // Extensions speak the modern wire (per-request capabilities, resultType): none for legacy.
    const { supportedVersions: _ignored, extensions: _modernOnly, ...routerOptions } = options;
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

  /**
   * The session's capabilities as a modern handler sees them: without the extensions the
   * dispatcher serves, whose results (a task handle, say) a legacy client could not read.
   */
  function legacyCapabilities(session: LegacySession): Record<string, unknown> {
    const declared = session.clientCapabilities["extensions"];
    if (!options.extensions?.length || !isObject(declared)) return session.clientCapabilities;
    const kept = { ...declared };
    for (const extension of options.extensions) delete kept[extension.id];
    return { ...session.clientCapabilities, extensions: kept };
  }

  /**
   * A handler's refusal for a client capability the session's client did not declare, where
   * the legacy revision has no code for it (MISSING_REQUIRED_CLIENT_CAPABILITY is stateless
   * revisions'), is the server failing to serve the request on this session: a plain error,
   * which the router answers as the v2 SDK's legacy shim does (a tool execution error for
   * tools/call, server/tools "Error Handling"; -32603 otherwise). Other errors pass as they are.
   */
  function forLegacy(session: LegacySession, error: unknown): unknown {
    const code = eras.modern.protocol.errorCodes.missingClientCapability;
    const legacyHasIt = session.era.protocol.errorCodes.missingClientCapability !== null;
    const raised = jsonRpcErrorOf(error);
    return raised && code !== null && raised.code === code && !legacyHasIt
      ? new Error(raised.message)
      : error;
  }

  /**
   * A modern handler serving a legacy request: called with a modern context built from the
   * session; an input_required answer is fulfilled by asking the client on the session,
   * then the handler is called again with the answers, as a modern client would retry.
   */
  function served(session: LegacySession, method: string, handler: Handler): Handler {
    const { protocol: mp, validators: mv } = eras.modern;
    const legacyMeta = session.era.protocol.requestMeta;
    return async (
      params: Record<string, unknown>,
      legacyCtx: {
        id: string | number;
        signal: AbortSignal;
        notify(n: object): Promise<void>;
        principal: string | undefined;
      },
    ) => {
      const given = isObject(params["_meta"]) ? params["_meta"] : {};
      const meta: Record<string, unknown> = {};
      if (mp.requestMeta.protocolVersion !== null)
        meta[mp.requestMeta.protocolVersion] = session.version;
      if (mp.requestMeta.clientCapabilities !== null)
        meta[mp.requestMeta.clientCapabilities] = legacyCapabilities(session);
      if (mp.requestMeta.clientInfo !== null && session.clientInfo)
        meta[mp.requestMeta.clientInfo] = session.clientInfo;
      // Legacy clients get log messages until they set a level (logging/setLevel); modern ones
      // ask per request.
      const level = session.logLevel ?? mp.loggingLevels[0];
      if (mp.requestMeta.logLevel !== null && level !== undefined)
        meta[mp.requestMeta.logLevel] = level;
      const token =
        legacyMeta.progressToken === null ? undefined : own(given, legacyMeta.progressToken);
      if (mp.requestMeta.progressToken !== null && token !== undefined)
        meta[mp.requestMeta.progressToken] = token;
      const context: HandleContext = {
        notify: (n: object) => legacyCtx.notify(n),
        ...(legacyCtx.principal !== undefined ? { principal: legacyCtx.principal } : {}),
      };
      let retry: Record<string, unknown> = { ...params, _meta: { ...given, ...meta } };
      for (let round = 0; round < maxRounds; round++) {
        const ctx = requestContext(
          mp,
          mv,
          {
            id: legacyCtx.id,
            method,
            params: retry,
            meta: retry["_meta"] as Record<string, unknown>,
          },
          context,
          legacyCtx.signal,
        );
        let result: unknown;
        try {
          result = await handler(retry, ctx);
        } catch (error) {
          throw forLegacy(session, error);
        }
        if (!isObject(result) || result["resultType"] !== "input_required")
          return adaptResult(session.era, method, result);
        const requests = isObject(result["inputRequests"]) ? result["inputRequests"] : {};
        const answers = await Promise.all(
          Object.entries(requests).map(async ([key, request]) => {
            const r = isObject(request) ? request : {};
            return [
              key,
              await session.request(
                String(r["method"]),
                r["params"],
                (m) => legacyCtx.notify(m),
                legacyCtx.signal,
                legacyCtx.id,
              ),
            ] as const;
          }),
        );
        retry = {
          ...params,
          _meta: { ...given, ...meta },
          inputResponses: Object.fromEntries(answers),
        };
        if (result["requestState"] !== undefined) retry["requestState"] = result["requestState"];
      }
      // A failure of the server, not of the request: for tools/call the router sends it as a
      // tool execution error (isError), as the SDK's legacy shim does; else -32603.
      throw new Error(`${method} still asked for input after ${maxRounds} rounds`);
    };
  }

  // A legacy client's initialize carries no modern per-request `_meta`; one that does is a
  // modern request for a method the modern revisions do not have (answered -32601).
  const isInitialize = (message: unknown): message is Record<string, unknown> =>
    isObject(message) &&
    message["method"] === INITIALIZE &&
    message["id"] !== undefined &&
    !modernEras.some((era) => carriesModernMeta(era.protocol, message));

  const dispatcher: EraDispatcher = {
    supportedVersions,
    ...(modern.nameParams ? { nameParams: modern.nameParams } : {}),
    session: (channel) => sessions.get(channel)?.session,
    endSession(channel) {
      const open = sessions.get(channel)?.session;
      open?.close();
      if (open) live.delete(open);
      sessions.delete(channel);
    },
    attachStream(channel, send) {
      const session = sessions.get(channel)?.session;
      if (!session) return () => undefined;
      session.stream = send;
      return () => {
        if (session.stream === send) session.stream = undefined;
      };
    },
    notifySessions(notification, filter) {
      let sent = 0;
      for (const session of live) {
        if (!session.stream || (filter && !filter(session))) continue;
        try {
          session.stream(notification);
          sent++;
        } catch (error) {
          reportError(error, String((notification as { method?: unknown }).method ?? ""));
        }
      }
      return sent;
    },
    resourceUpdated(uri) {
      const notification = {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri },
      };
      return dispatcher.notifySessions(notification, (session) => session.subscriptions.has(uri));
    },
    async handle(message, context = {}) {
      const open = sessions.get(context.channel ?? DEFAULT_CHANNEL);
      if (open) {
        // A response to a request the server sent on this session.
        if (
          isObject(message) &&
          message["method"] === undefined &&
          ("result" in message || "error" in message)
        ) {
          if (!open.session.resolve(message))
            reportError(
              new Error(`a response with unknown id ${JSON.stringify(message["id"])}`),
              "",
            );
          return undefined;
        }
        if (isInitialize(message)) return initialize(message, context);
        return open.session.serving(message, context, () => open.router.handle(message, context));
      }
      if (isInitialize(message)) return initialize(message, context);
      return modern.handle(message, context);
    },
    async handleText(text, context = {}) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        // Unparsable text belongs to no session: the modern router answers the parse error.
        return modern.handleText(text, context);
      }
      return dispatcher.handle(message, context);
    },
  };
  return dispatcher as EraDispatcher<Answer>;
}
