// Notices to legacy sessions across the instances of a server. A legacy session's GET stream
// is open on one instance; `notifySessions` and `resourceUpdated` reach only the sessions of
// the instance they are called on. A message bus every instance subscribes to carries them
// to the others, each delivering to its own sessions. In-process default here; Redis pub/sub
// at `@mcp-gen/runtime/redis`.

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
}

export interface ShareSessionNoticesOptions {
  /** The bus channel; servers sharing one bus need different channels. Default `mcp-gen:session-notices`. */
  channel?: string;
  /** Called with a message from the bus that is not a notice, or a failed publish. Default: ignored. */
  onError?: (error: unknown) => void;
}

/** Largest notice carried, in characters (a notification is small; the bus is no data channel). */
export const MAX_NOTICE_CHARS = 64 * 1024;

type Notice = { notification: object } | { resourceUpdated: string };

function parseNotice(text: string): (Notice & { from: string }) | undefined {
  if (text.length > MAX_NOTICE_CHARS) return undefined;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value["from"] !== "string") return undefined;
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
  // Tells this instance's own notices apart when the bus brings them back.
  const me = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const publish = (notice: Notice) => {
    const text = JSON.stringify({ from: me, ...notice });
    if (text.length > MAX_NOTICE_CHARS)
      return report(new RangeError(`a session notice over ${MAX_NOTICE_CHARS} characters`));
    bus.publish(channel, text).catch(report);
  };
  const unsubscribe = await bus.subscribe(channel, (text) => {
    const notice = parseNotice(text);
    if (!notice) return report(new Error(`not a session notice on ${channel}`));
    if (notice.from === me) return;
    if ("resourceUpdated" in notice) localUpdated(notice.resourceUpdated);
    else localNotify(notice.notification);
  });
  dispatcher.notifySessions = (notification, filter) => {
    if (!filter) publish({ notification });
    return localNotify(notification, filter);
  };
  dispatcher.resourceUpdated = (uri) => {
    publish({ resourceUpdated: uri });
    return localUpdated(uri);
  };
  return {
    async close() {
      dispatcher.notifySessions = notifySessions;
      dispatcher.resourceUpdated = resourceUpdated;
      await unsubscribe();
    },
  };
}
