import { timeoutOption } from "../../../core/options.js";
import type { AnswerHost } from "./answer.js";
import { positiveInteger } from "./event-store.js";
import { LiveSessions } from "./live-sessions.js";
import type { HttpCoreOptions } from "./options.js";
import { resumableStreams, type ResumableStreams } from "./resumable.js";
import type { SessionChange, SessionStore } from "./sessions.js";
import type { LocalSessions } from "./local-sessions.js";
import type { DefaultStores } from "./store-defaults.js";
import {
  boundedEventStore,
  boundedSessionStore,
  StoreUnavailableError,
  type RequestDeadline,
} from "./store-deadline.js";

// The stores and stream machinery a legacy-session host is built on (legacy.ts): the session
// store and the event store, given or the defaults, each bounded by the request timeout, and
// the sessions this instance holds. Here so legacy.ts keeps to the request paths.

/** What building them takes of the host (LegacyHttpHost extends it). */
export interface LegacyStoreHost {
  dispatcher: AnswerHost["dispatcher"];
  options: HttpCoreOptions<never>;
  /** The stores used when the options give none (in memory, wired by the entry points). */
  defaults: DefaultStores;
  timeoutMs: number;
  /** Told about failures no response carries (default console.error). */
  report(line: string): void;
}

/** Resumable streams (default: events kept in memory); `eventStore: false` turns them off. */
export function resumableStreamsOf(host: LegacyStoreHost): ResumableStreams | undefined {
  const { dispatcher, options, defaults } = host;
  if (options.sseRetryMs !== undefined) positiveInteger("sseRetryMs", options.sseRetryMs);
  if (options.eventStore === false || !dispatcher.attachStream) return undefined;
  const store = options.eventStore ?? defaults.eventStore();
  return resumableStreams({
    // A shared store that stalls delays an event by at most the request timeout; then the
    // stream goes on without ids (no longer resumable) rather than hanging.
    store: boundedEventStore(store, host.timeoutMs, defaults.inProcess(store)),
    retryMs: options.sseRetryMs ?? 1000,
    report: host.report,
    // Looked up when needed: shareSessionNotices may give the dispatcher one later.
    missedNotices: (channel, after) =>
      dispatcher.missedNotices?.(channel, after) ?? Promise.resolve(undefined),
  });
}

/** The sessions this instance holds, with the stream limits of the host's options. */
export function liveSessionsOf(
  host: LegacyStoreHost,
  store: SessionStore,
  streams: ResumableStreams | undefined,
): LiveSessions {
  const { options } = host;
  return new LiveSessions({
    dispatcher: host.dispatcher,
    store,
    keepAliveMs: timeoutOption(options.sseKeepAliveMs, "sseKeepAliveMs", 15_000),
    streamIdleTimeoutMs: timeoutOption(
      options.streamIdleTimeoutMs,
      "streamIdleTimeoutMs",
      5 * 60_000,
    ),
    idleMs: timeoutOption(options.sessionIdleTimeoutMs, "sessionIdleTimeoutMs", 30 * 60_000),
    report: host.report,
    ...(streams ? { onEnd: (channel: object) => streams.forget(channel) } : {}),
  });
}

/**
 * The session store (given or the default), each call bounded by the request timeout; and
 * `local`, its sessions read and written in place, when it is the default store in memory:
 * made here, so that this server alone writes it.
 */
export function boundedSessionsOf(host: LegacyStoreHost) {
  const { options, defaults } = host;
  const store = sessionStoreOf(options, defaults);
  const bounded = boundedSessionStore(
    store,
    host.timeoutMs,
    host.report,
    defaults.inProcess(store),
  );
  const local = options.sessionStore ? undefined : defaults.localSessions?.(store);
  if (!local) return { ...bounded, local };
  // A store in memory cannot stall: its requests have no deadline to keep.
  const unbounded: RequestDeadline = {
    store: bounded.store,
    settled: async (ready) => void (await ready),
  };
  return { store: bounded.store, forRequest: () => unbounded, local };
}

/**
 * Writes what a request changed of session `id` to the store, or restarts its idle clock
 * when nothing changed; whether the session is still there. A store that failed counts as
 * kept (it was reported): the change is lost, and the next request rebuilds the session from
 * the record as it was. In place for `local` (see LocalSessions), without a round trip.
 */
export function sessionWriter(store: SessionStore, local: LocalSessions | undefined) {
  return (id: string, change: SessionChange | undefined): boolean | Promise<boolean> => {
    if (local) return change ? local.update(id, change) : local.touch(id);
    return (change ? store.update(id, change) : store.touch(id)).catch((error: unknown) => {
      if (error instanceof StoreUnavailableError) return true;
      throw error;
    });
  };
}

/** The store of `options`, or the default one (in memory) with the bounds they give. */
function sessionStoreOf(options: HttpCoreOptions<never>, defaults: DefaultStores): SessionStore {
  const { sessionStore, maxSessions, maxSessionsPerPrincipal, maxAnonymousSessions } = options;
  const limits = { maxSessions, maxSessionsPerPrincipal, maxAnonymousSessions };
  const given = Object.entries(limits).filter(([, value]) => value !== undefined);
  if (!sessionStore)
    return defaults.sessionStore({
      ...Object.fromEntries(given),
      ...(options.sessionIdleTimeoutMs === undefined
        ? {}
        : { idleTimeoutMs: options.sessionIdleTimeoutMs }),
    });
  if (given.length > 0)
    throw new TypeError(
      `${given.map(([name]) => name).join(", ")} bound the default session store: pass them to your sessionStore instead`,
    );
  return sessionStore;
}
