// What the event-store tests share (event-store, redis-event-store, http-resume): the
// notification they record and send, a replay that collects what a store sends back, and a
// store that tells the test what it records and forgets.
import type { EventStore } from "../src/transport/http/server/event-store.js";

/** A notification numbered `n` (its `pad` makes it as large as a test needs). */
export const note = (n: number, pad = "") => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { n, pad },
});

/** What `store` replays after `after`: the stream it names, the events, and their numbers. */
export async function replay(store: EventStore, after: string) {
  const sent: [string, object][] = [];
  const stream = await store.replayAfter(after, (id, message) => sent.push([id, message]));
  return { stream, sent, ns: sent.map(([, m]) => (m as ReturnType<typeof note>).params.n) };
}

/** `inner`, telling `onAppend` each message once recorded and `onDelete` each stream forgotten. */
export function observedStore(
  inner: EventStore,
  hooks: { onAppend?: (message: object | undefined) => void; onDelete?: (stream: string) => void },
): EventStore {
  return {
    append: async (streamId, message) => {
      const id = await inner.append(streamId, message);
      hooks.onAppend?.(message);
      return id;
    },
    replayAfter: (eventId, send) => inner.replayAfter(eventId, send),
    deleteStream: (streamId) => (hooks.onDelete?.(streamId), inner.deleteStream(streamId)),
  };
}
