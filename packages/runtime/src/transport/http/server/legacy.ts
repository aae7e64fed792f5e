import { JSONRPC_ERRORS } from "../../../core/errors.js";
import type { LegacySessionState } from "../../../server/legacy-session.js";
import type { ResourceServer } from "../../../auth/resource-server.js";
import {
  answer,
  callerAuth,
  type AnswerHost,
  type Caller,
  RequestLifetime,
  traceHeadersOf,
} from "./answer.js";
import { errorBody, sendJson, type HttpExchange, type ReplySink } from "./exchange.js";
import { answering, type LegacyModes } from "./legacy-modes.js";
import { LiveSessions, type TrackedRequest } from "./live-sessions.js";
import { newSessionId, type SessionRefusal, type SessionStore } from "./sessions.js";
import { sessionChange, type LocalSessions } from "./local-sessions.js";
import { namesStandaloneStream, type ResumableStreams, type SessionRef } from "./resumable.js";
import { relayFor, routeAnswer, type SessionRelay } from "./session-relay.js";
import {
  boundedSessionsOf,
  liveSessionsOf,
  resumableStreamsOf,
  sessionWriter,
  type LegacyStoreHost,
} from "./legacy-stores.js";
import {
  STORE_RETRY_AFTER_SECONDS,
  StoreUnavailableError,
  type RequestDeadline,
} from "./store-deadline.js";

// The legacy half of the HTTP server (2025-03-26 .. 2025-11-25 transports, "Session
// Management"): `initialize` opens a session named by the Mcp-Session-Id response header;
// later POSTs, the standalone GET stream and DELETE name it. Modern requests never get here.

/** What the legacy path shares with the rest of the HTTP core. */
export interface LegacyHttpHost extends AnswerHost, LegacyStoreHost {
  /** The legacy serving modes (HttpCoreOptions.legacy). */
  modes: LegacyModes;
  limit: number;
  auth: ResourceServer | undefined;
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
  const streams = resumableStreamsOf(host);
  // Each call bounded by the request timeout: a stalled Redis gets 503, not a hang.
  const sessions = boundedSessionsOf(host);
  const { store } = sessions;
  const live = liveSessionsOf(host, store, streams);

  // Answers and cancellations for another instance go over the bus (session-relay.ts).
  const relay = relayFor(options, { dispatcher, report: host.report, live });
  let relayReady = false;
  void relay?.ready.then(() => void (relayReady = true));
  // The default store, in memory, that this server alone writes, and no bus: every session
  // lives here, and a request to one costs no store round trip (see LocalSessions).
  const local = relay ? undefined : sessions.local;
  const write = sessionWriter(store, local);
  const lookup: SessionLookup = { local, live, relay, relayReady: () => relayReady };

  /** The session open on `channel` as data (minimal when the dispatcher cannot tell more). */
  const stateOf = (channel: object, version: string): LegacySessionState =>
    dispatcher.sessionState?.(channel) ?? {
      version,
      clientCapabilities: {},
      initialized: false,
      subscriptions: [],
    };

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
    const session = dispatcher.session?.(channel);
    if (session) {
      const id = newSessionId();
      const record = {
        ...(principal === undefined ? {} : { principal }),
        session: stateOf(channel, session.version),
      };
      let created: Awaited<ReturnType<SessionStore["create"]>> | undefined;
      try {
        created = await store.create(id, record);
      } catch (error) {
        if (error instanceof StoreUnavailableError)
          return storeUnavailable(sink, error.what, message["id"]);
        throw error;
      } finally {
        // Not stored (refused, or the store failed): the session does not exist.
        if (created !== "created") dispatcher.endSession?.(channel);
      }
      if (created !== "created") return refuseSession(sink, created, principal, message["id"]);
      live.hold(id, channel);
      headers["mcp-session-id"] = id;
    }
    sendJson(sink, host.statusOf(reply), reply, headers);
  }

  /** A session's POST, its state written back to the store when the request changed it. */
  async function postAndStore(
    exchange: HttpExchange,
    sink: ReplySink,
    id: string,
    principal: string | undefined,
    ref: SessionRef,
  ): Promise<void> {
    const { channel } = ref;
    const session = dispatcher.session!(channel)!;
    // What a request may change, kept to compare (the URIs shared, not serialised).
    const before = stateOf(channel, session.version);
    const tracked = live.track(id, exchange, sink);
    try {
      await post(host, tracked, ref, principal, { streams, relay });
    } finally {
      tracked.done();
    }
    const now = dispatcher.session!(channel);
    // Changed here (log level, subscriptions, initialized): every instance serves it so next;
    // only the fields changed are written. The response went out already: a store that failed
    // meanwhile was reported, and the change is lost (the next request rebuilds the session
    // from the record as it was).
    const change = now && sessionChange(before, stateOf(channel, now.version));
    const written = write(id, change || undefined);
    const kept = typeof written === "boolean" ? written : await written;
    if (!kept) live.end(id);
  }

  /**
   * A request naming a session: its POSTs, GET for the standalone stream, DELETE to end it;
   * 503 when the session store fails or does not answer within the request timeout.
   */
  const serve = (exchange: HttpExchange, sink: ReplySink, id: string) =>
    orUnavailable(sink, () => serveSession(exchange, sink, id, sessions.forRequest()));

  async function serveSession(
    exchange: HttpExchange,
    sink: ReplySink,
    id: string,
    deadline: RequestDeadline,
  ): Promise<void> {
    const who = await host.principalOf(exchange, sink);
    if (!who) return;
    const { store } = deadline;
    // An unknown or expired session: 404, and the client starts a new one (2025-11-25
    // transports). A session opened by another principal is just as unknown to this one.
    const found = channelOf(lookup, id, who.principal, deadline);
    const channel = found instanceof Promise ? await found : found;
    const session = channel && dispatcher.session?.(channel);
    if (!channel || !session)
      return sendJson(sink, 404, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Session not found"));
    if (exchange.method === "DELETE") {
      await store.delete(id);
      live.end(id);
      // The instances holding it stop taking notices for it now, not at their idle sweep.
      await relay?.forwardEnd(id);
      return sink.send(200, {});
    }
    const ref: SessionRef = {
      channel,
      id,
      version: session.version,
      attach: (send) => dispatcher.attachStream!(channel, send),
    };
    if (exchange.method === "GET" && dispatcher.attachStream) {
      await store.touch(id);
      return standaloneGet(live, streams, exchange, sink, ref);
    }
    if (exchange.method !== "POST") {
      const error = errorBody(
        JSONRPC_ERRORS.INVALID_REQUEST,
        "Method not allowed: use POST, GET or DELETE",
      );
      return sendJson(sink, 405, error, { allow: "POST, GET, DELETE" });
    }
    return postAndStore(exchange, sink, id, who.principal, ref);
  }

  return { initialize, serve };
}

/** What finding a request's session takes (see channelOf). */
interface SessionLookup {
  /** The store's sessions in place, when this server alone writes it (LocalSessions). */
  readonly local: LocalSessions | undefined;
  readonly live: LiveSessions;
  readonly relay: SessionRelay | undefined;
  relayReady(): boolean;
}

/**
 * The channel serving session `id` to `principal`, or undefined when the session is unknown
 * or expired, or another principal's. At once, without a promise, for a session held here
 * whose store this server alone writes (LocalSessions): it is as its record says.
 */
function channelOf(
  lookup: SessionLookup,
  id: string,
  principal: string | undefined,
  deadline: RequestDeadline,
): object | undefined | Promise<object | undefined> {
  const { local, live } = lookup;
  if (!local) return storedChannel(lookup, id, principal, deadline);
  const found = local.find(id);
  if (!found) return void live.end(id);
  if (found.principal !== principal) return undefined;
  return live.servedChannel(id) ?? storedChannel(lookup, id, principal, deadline);
}

/** channelOf from the session's record: a session this instance does not hold is rebuilt. */
async function storedChannel(
  { live, relay, relayReady }: SessionLookup,
  id: string,
  principal: string | undefined,
  { store, settled }: RequestDeadline,
): Promise<object | undefined> {
  // Listening on the bus before a request here can ask the client anything (a bus that
  // cannot subscribe yet, Redis away as the server starts, gets 503 within the deadline).
  if (relay && !relayReady()) await settled(relay.ready, "message bus");
  const found = await store.get(id);
  if (!found) return void live.end(id);
  if (found.principal !== principal) return undefined;
  // A session this instance did not open is rebuilt from its record (sessions leave the
  // instance that created them when the store is shared).
  return live.channelFor(id, found.session);
}

/**
 * A session's GET: its standalone stream, new or resumed after `Last-Event-ID`. A resumption
 * is not a new stream: it goes on with the stream it names. A POST's stream is replayed as it
 * is; a standalone one becomes the session's standalone stream again, with the keep-alive,
 * idle limit and replacement rules of a new one.
 */
function standaloneGet(
  live: LiveSessions,
  streams: ResumableStreams | undefined,
  exchange: HttpExchange,
  sink: ReplySink,
  ref: SessionRef,
): Promise<void> {
  const lastEventId = exchange.header("last-event-id");
  if (!streams) return live.openStandalone(ref.id, exchange, sink);
  if (lastEventId !== undefined && !namesStandaloneStream(lastEventId))
    return streams.resume(exchange, sink, ref, lastEventId);
  return live.openStandalone(ref.id, exchange, sink, (opening, opened, attach) =>
    lastEventId === undefined
      ? streams.openStandalone(opening, opened, { ...ref, attach })
      : streams.resume(opening, opened, { ...ref, attach }, lastEventId),
  );
}

/** A session's POST: a notification or response (202), or a request answered in band. */
async function post(
  host: LegacyHttpHost,
  request: TrackedRequest,
  session: SessionRef,
  principal: string | undefined,
  { streams, relay }: { streams: ResumableStreams | undefined; relay: SessionRelay | undefined },
): Promise<void> {
  const { channel } = session;
  const { exchange, sink } = request;
  const lifetime = new RequestLifetime(host.timeoutMs, exchange);
  const stopWatchingSession = request.onSessionEnd(() =>
    lifetime.cancellation.abort(new Error("session ended")),
  );
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
    // Notifications, and responses to requests the server sent, are accepted with 202. An
    // answer to a request another instance sent goes there; so does a cancellation of a
    // request no POST here serves, once handled here (session-relay.ts).
    if (typeof message["method"] !== "string" || message["id"] === undefined) {
      const route = await routeAnswer(relay, host.dispatcher, session.id, channel, message);
      if (route === "taken") return sink.send(202, {});
      if (route !== "here")
        return sendJson(sink, route.status, errorBody(route.code, route.message));
      await host.dispatcher.handle(message, {
        channel,
        ...(principal === undefined ? {} : { principal }),
      });
      sink.send(202, {});
      return relay?.forwardCancel(session.id, message);
    }
    // A cancellation that reaches another instance stops this request as the client going
    // away would (the spec's cancellation: no response follows, basic/utilities/cancellation).
    // JSON responses (the mode, or an Accept without SSE): no stream, nothing asked of the client.
    const mode = answering(host.modes, exchange, sink, message["id"]);
    if (!mode) return;
    request.serves(message["id"], (reason) => lifetime.cancellation.abort(reason));
    // A session's request errors travel in the body with 200 (2025-11-25 transports: a
    // request is answered with JSON or SSE; 404 on a session id means the session is gone,
    // and clients MUST initialize again). The SDK servers answer them so.
    // With resumable streams, once the client holds an event id its going away is not a
    // cancellation: it resumes (2025-11-25 transports, "Sending Messages to the Server").
    const resumable = streams?.postSink({
      sink,
      exchange,
      session,
      requestId: message["id"],
      keepOnClose: () => lifetime.keepOnClose(),
    });
    const replySink = !resumable ? sink : "send" in resumable ? resumable : await resumable;
    const caller: Caller = {
      channel,
      principal,
      sessionId: session.id,
      traceHeaders: traceHeadersOf(exchange),
      ...callerAuth(host.auth, exchange.authView(), message),
      ...mode,
    };
    await answer(host, replySink, lifetime, message, caller, true);
  } finally {
    stopWatchingSession();
    lifetime.end();
  }
}

/** `work`, or 503 when a store it needs is unavailable (StoreUnavailableError). */
async function orUnavailable(sink: ReplySink, work: () => Promise<void>): Promise<void> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable(sink, error.what);
    throw error;
  }
}

/**
 * A store the request needs failed or did not answer in time: 503 with Retry-After, a JSON-RPC
 * error the client can tell from its request's own failure. The request was not served; a
 * store call a stalled Redis answers later may still take effect (deployment guide).
 */
function storeUnavailable(sink: ReplySink, what: string, id?: unknown): void {
  const message = `The ${what} is unavailable; try again shortly`;
  const headers = { "retry-after": String(STORE_RETRY_AFTER_SECONDS) };
  sendJson(sink, 503, errorBody(JSONRPC_ERRORS.INTERNAL_ERROR, message, id), headers);
}

/**
 * A new session refused: its principal holds the most sessions allowed (429), or the store
 * is full (503). Nobody else's session is evicted to make room.
 */
function refuseSession(
  sink: ReplySink,
  refusal: SessionRefusal,
  principal: string | undefined,
  id: unknown,
): void {
  const message =
    refusal === "store-full"
      ? "Too many sessions: the server holds the most it keeps (maxSessions); try again later"
      : principal === undefined
        ? "Too many sessions opened without authentication (maxAnonymousSessions); end one with DELETE or let one expire"
        : "Too many sessions for this principal (maxSessionsPerPrincipal); end one with DELETE or let one expire";
  const status = refusal === "store-full" ? 503 : 429;
  sendJson(sink, status, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, message, id));
}
