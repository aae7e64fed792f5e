import { createModernRouter } from "./modern-router.js";
import {
  servedHandlers,
  type Dispatcher,
  type DispatcherOptions,
  type Handlers,
} from "./router.js";
import type { HandlerTable, Reply } from "./router-types.js";
import type { AdaptedEra, Era, LegacyEra } from "../core/era.js";
import type { LegacySession, LegacySessionState, SessionOptions } from "./legacy-session.js";
import { subscriptionLimits } from "./subscription-limits.js";
import { LegacySessionTable } from "./legacy-session-table.js";
import { createLegacyRouter, type LegacyServing } from "./legacy-router.js";
import {
  answerInitialize,
  isLegacyInitialize,
  restoreSession,
  type InitializeServing,
} from "./legacy-initialize.js";
import { errorReporter, routeByEra, type EraRouting } from "./era-routing.js";
import { positiveInteger, timeoutOption } from "../core/options.js";
import type { MethodEntry } from "../core/protocol.js";
import { backChannelHandlers, type HandlerBackChannel } from "./back-channel-uses.js";

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
   * ones), newest first; see modern-router.ts.
   */
  readonly previous?: readonly AdaptedEra[];
  /** Legacy revisions served through `initialize`, newest first (empty: modern only). */
  readonly legacy: readonly LegacyEra[];
}

export interface EraDispatcherOptions extends DispatcherOptions, SessionOptions {
  /** Rounds of input_required a legacy request may take (default 10): a positive integer. */
  maxLegacyRounds?: number;
}

/** `Answer`: what `handle` resolves to, as the caller types it (see Dispatcher). */
export interface EraDispatcher<Answer = Reply> extends Dispatcher<Answer> {
  /** The legacy session open on `channel`, if any. */
  session(channel: object): LegacySession | undefined;
  /** Ends the legacy session on `channel` (requests it awaits fail). */
  endSession(channel: object): void;
  /** The legacy session on `channel` as data, for a session store (see LegacySessionState). */
  sessionState(channel: object): LegacySessionState | undefined;
  /**
   * Opens on `channel` the legacy session `state` describes (as a store kept it, written by
   * this instance or another), or brings the one open there up to date with it; false when
   * its revision is not served.
   */
  restoreSession(channel: object, state: LegacySessionState): boolean;
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
  /**
   * The handlers legacy sessions serve that ask the client for input or send notifications
   * during a call (see back-channel-uses.ts): what a serving mode without a back-channel
   * names at start-up.
   */
  backChannelHandlers(): readonly HandlerBackChannel[];
}

/** The protocol versions `eras` speak, in their order. */
const versionsOf = (eras: readonly Era[]): string[] =>
  eras.flatMap((e) => e.protocol.protocolVersion ?? []);

export function createEraDispatcher<Table extends HandlerTable<Table> = Handlers, Answer = Reply>(
  eras: Eras,
  allHandlers: Table,
  options: EraDispatcherOptions = {},
): EraDispatcher<Answer> {
  // All checked now, so a bad value fails at start-up, not at the first legacy session
  // (each LegacySession reads clientRequestTimeoutMs itself, with its default).
  const maxRounds = positiveInteger(options.maxLegacyRounds, "maxLegacyRounds", 10);
  if (options.clientRequestTimeoutMs !== undefined)
    timeoutOption(options.clientRequestTimeoutMs, "clientRequestTimeoutMs", 0);
  subscriptionLimits(options);
  const handlers = servedHandlers(allHandlers);
  const modernEras = [eras.modern, ...(eras.previous ?? [])];
  const modernVersions = options.supportedVersions ?? versionsOf(modernEras);
  // Every stateless revision, routed by the version each request names.
  const modern = createModernRouter(eras.modern, eras.previous ?? [], handlers, {
    ...options,
    supportedVersions: modernVersions,
  });
  const supportedVersions = [...modernVersions, ...versionsOf(eras.legacy)];
  const reportError = errorReporter(options.onError);
  const sessions = new LegacySessionTable(reportError);
  const legacy: LegacyServing = {
    modern: eras.modern,
    handlers,
    options,
    extensions: options.extensions,
    maxRounds,
  };
  const initializing: InitializeServing = {
    modern: eras.modern,
    legacy: eras.legacy,
    supportedVersions,
    handlers,
    options,
    sessions,
    routerFor: (session) => createLegacyRouter(session, legacy),
  };
  const routing: EraRouting = {
    modern,
    sessions,
    isInitialize: (message) => isLegacyInitialize(modernEras, message),
    initialize: (message, context) => answerInitialize(message, context, initializing),
    reportError,
  };

  const dispatcher: EraDispatcher = {
    supportedVersions,
    ...(modern.nameParams ? { nameParams: modern.nameParams } : {}),
    session: (channel) => sessions.get(channel)?.session,
    endSession: (channel) => sessions.end(channel),
    sessionState: (channel) => sessions.get(channel)?.session.state(),
    restoreSession: (channel, state) => restoreSession(channel, state, initializing),
    attachStream: (channel, send) => sessions.attachStream(channel, send),
    notifySessions: (notification, filter) => sessions.notify(notification, filter),
    resourceUpdated(uri) {
      const notification = {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri },
      };
      return dispatcher.notifySessions(notification, (session) => session.subscriptions.has(uri));
    },
    backChannelHandlers: () => {
      const methods: Record<string, MethodEntry> = {};
      for (const era of eras.legacy) Object.assign(methods, era.protocol.methods);
      return backChannelHandlers(handlers, methods);
    },
    // routeByEra is async (it never throws): its promise is handed back as it is.
    handle: (message, context = {}) => routeByEra(message, context, routing),
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
