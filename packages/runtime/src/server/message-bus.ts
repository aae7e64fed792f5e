// Notices to legacy sessions across the instances of a server. A legacy session's GET stream
// is open on one instance; `notifySessions` and `resourceUpdated` reach only the sessions of
// the instance they are called on. A message bus every instance subscribes to carries them
// to the others, each delivering to its own sessions. In-process default here; Redis pub/sub
// at `@mcp-gen/runtime/redis`.
import { deliverAt } from "./notice-position.js";

/** Publish/subscribe between the instances of a server (at-most-once, no history). */
export interface MessageBus {
  /** Sends `message` to every listener subscribed to `channel` now, on any instance. */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `listener` with every message published on `channel` from now on; returns the unsubscribe. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** A bus within one process: for tests, and for several dispatchers in one process. */
export class InProcessMessageBus implements MessageBus {
  readonly #listeners = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<void> {
    // Delivered after the publisher's turn, as over a network: never re-entrantly.
    const listeners = [...(this.#listeners.get(channel) ?? [])];
    await Promise.resolve();
    for (const listener of listeners) listener(message);
  }

  async subscribe(channel: string, listener: (message: string) => void) {
    const set = this.#listeners.get(channel) ?? new Set();
    this.#listeners.set(channel, set);
    const own = (message: string) => listener(message);
    set.add(own);
    return async () => {
      set.delete(own);
    };
  }
}

/** What shareSessionNotices changes: an era dispatcher (the generated dual-era Dispatcher). */
export interface SessionNoticeTarget {
  notifySessions?(notification: object, filter?: (session: never) => boolean): number;
  resourceUpdated?(uri: string): number;
  /** The session on a channel as data: its subscriptions pick the resource updates it missed. */
  sessionState?(channel: object): { subscriptions: string[] } | undefined;
  /** Set with `history`: the notices the session on `channel` missed (see MissedNotices). */
  missedNotices?: MissedNotices;
}

/**
 * The session notices recorded after the moment the event `afterEventId` of the event store
 * was, that the session on `channel` would have got: every notification, and the updates of
 * resources it subscribes to. Each with its position in the history (`at`). Undefined when
 * the history cannot tell (a store without `replaySince`).
 */
export type MissedNotices = (
  channel: object,
  afterEventId: string,
) => Promise<{ at: string; message: object }[] | undefined>;

export interface ShareSessionNoticesOptions {
  /** The bus channel; servers sharing one bus need different channels. Default `mcp-gen:session-notices`. */
  channel?: string;
  /** Called with a message from the bus that is not a notice, or a failed publish. Default: ignored. */
  onError?: (error: unknown) => void;
  /**
   * Where every notice is also recorded before it is published (one stream, bounded by the
   * store's retention), so that a legacy client whose standalone stream's instance died gets
   * the notices sent while it was away when it resumes on another instance. Give the event
   * store the HTTP server keeps its streams in (the same Redis: the history is ordered
   * against those streams by the Redis clock). Default: none, and such notices are lost.
   * With a history, this instance's own sessions get a notice once it is recorded.
   */
  history?: NoticeHistory;
}

/**
 * What `history` needs of an event store: the HTTP server's `EventStore` (memory or Redis)
 * has it. Declared here, not imported, so that the server entry point reaches no transport
 * module (vendored copies of `server` stay free of the HTTP transport).
 */
export interface NoticeHistory {
  append(streamId: string, message: object | undefined): Promise<string>;
  replaySince?(
    streamId: string,
    eventId: string,
    send: (eventId: string, message: object) => void,
  ): Promise<void>;
}

/** Largest notice carried, in characters (a notification is small; the bus is no data channel). */
export const MAX_NOTICE_CHARS = 64 * 1024;

type Notice = { notification: object } | { resourceUpdated: string };

function parseNotice(text: string): (Notice & { from: string; at?: string }) | undefined {
  if (text.length > MAX_NOTICE_CHARS) return undefined;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value["from"] !== "string") return undefined;
    if (value["at"] !== undefined && typeof value["at"] !== "string") return undefined;
    if (typeof value["resourceUpdated"] === "string") return value as never;
    const notification = value["notification"];
    if (typeof notification === "object" && notification !== null && !Array.isArray(notification))
      return value as never;
  } catch {
    // not JSON: reported below
  }
  return undefined;
}

/**
 * Makes `dispatcher.notifySessions(notification)` and `dispatcher.resourceUpdated(uri)` reach
 * the legacy sessions of every instance subscribed to `bus` (each instance calls this once
 * at start-up with its own dispatcher). Both still deliver at once to this instance's
 * sessions and return how many of those got it; the other instances deliver when the bus
 * brings the notice. `notifySessions` with a `filter` stays on this instance (a function
 * does not cross processes). `close()` unsubscribes and restores the dispatcher.
 */
export async function shareSessionNotices(
  dispatcher: SessionNoticeTarget,
  bus: MessageBus,
  options: ShareSessionNoticesOptions = {},
): Promise<{ close(): Promise<void> }> {
  const channel = options.channel ?? "mcp-gen:session-notices";
  const report = options.onError ?? (() => {});
  const { notifySessions, resourceUpdated } = dispatcher;
  if (!notifySessions || !resourceUpdated)
    throw new TypeError("shareSessionNotices: the dispatcher serves no legacy sessions");
  const localNotify = notifySessions.bind(dispatcher);
  const localUpdated = resourceUpdated.bind(dispatcher);
  const deliver = (notice: Notice) =>
    "resourceUpdated" in notice
      ? localUpdated(notice.resourceUpdated)
      : localNotify(notice.notification);
  // Tells this instance's own notices apart when the bus brings them back.
  const me = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const { history } = options;
  const historyStream = `n.${channel.replace(/[^\w.-]/g, "_")}`.slice(0, 128);
  /** Publishes `notice`; with a history, records it first and delivers it here then. */
  const publish = (notice: Notice) => {
    const text = JSON.stringify({ from: me, ...notice });
    if (text.length > MAX_NOTICE_CHARS)
      return report(new RangeError(`a session notice over ${MAX_NOTICE_CHARS} characters`));
    if (!history) return void bus.publish(channel, text).catch(report);
    const send = (at: string | undefined) => {
      deliverAt(at, () => deliver(notice));
      bus.publish(channel, JSON.stringify({ from: me, ...notice, at })).catch(report);
    };
    history.append(historyStream, notice).then(send, (error: unknown) => {
      report(error);
      send(undefined);
    });
  };
  const unsubscribe = await bus.subscribe(channel, (text) => {
    const notice = parseNotice(text);
    if (!notice) return report(new Error(`not a session notice on ${channel}`));
    if (notice.from === me) return;
    deliverAt(notice.at, () => deliver(notice));
  });
  /** With a history, how many of this instance's sessions `filter` picks (delivered later). */
  const counted = (filter: (session: { subscriptions?: Set<string> }) => boolean) => {
    let count = 0;
    localNotify({}, ((session: never) => (filter(session) && count++, false)) as never);
    return count;
  };
  dispatcher.notifySessions = (notification, filter) => {
    if (filter) return localNotify(notification, filter);
    publish({ notification });
    return history ? counted(() => true) : localNotify(notification);
  };
  dispatcher.resourceUpdated = (uri) => {
    publish({ resourceUpdated: uri });
    return history ? counted((s) => s.subscriptions?.has(uri) === true) : localUpdated(uri);
  };
  if (history) dispatcher.missedNotices = missedNotices(dispatcher, history, historyStream);
  return {
    async close() {
      dispatcher.notifySessions = notifySessions;
      dispatcher.resourceUpdated = resourceUpdated;
      delete dispatcher.missedNotices;
      await unsubscribe();
    },
  };
}

/** The history's notices after a moment that a session would have got (see MissedNotices). */
function missedNotices(
  dispatcher: SessionNoticeTarget,
  history: NoticeHistory,
  historyStream: string,
): MissedNotices {
  return async (channel, afterEventId) => {
    if (!history.replaySince) return undefined;
    const subscriptions = new Set(dispatcher.sessionState?.(channel)?.subscriptions ?? []);
    const missed: { at: string; message: object }[] = [];
    await history.replaySince(historyStream, afterEventId, (at, recorded) => {
      const notice = recorded as Partial<{ notification: object; resourceUpdated: string }>;
      if (typeof notice.resourceUpdated === "string") {
        if (!subscriptions.has(notice.resourceUpdated)) return;
        const params = { uri: notice.resourceUpdated };
        const message = { jsonrpc: "2.0", method: "notifications/resources/updated", params };
        missed.push({ at, message });
      } else if (typeof notice.notification === "object" && notice.notification !== null)
        missed.push({ at, message: notice.notification });
    });
    return missed;
  };
}
