import {
  checkStreamId,
  formatEventId,
  parseEventId,
  resolveBounds,
  sessionOfStream,
  utf8Length,
  type EventStore,
  type EventStoreBounds,
} from "../../transport/http/server/event-store.js";

// The HTTP server's default event store: the events of resumable SSE streams in memory,
// behind the EventStore contract of transport/http/server/event-store.ts (RedisEventStore,
// stores/redis/, is the shared one).

/** The bounds of a MemoryEventStore: per stream, per session, and over all streams. */
export interface MemoryEventStoreOptions extends EventStoreBounds {
  /** The clock (default Date.now), for tests. */
  now?: () => number;
}

/** One kept event; `text` is the message's JSON, undefined for a priming position. */
interface StoredEvent {
  readonly seq: number;
  readonly text: string | undefined;
  readonly bytes: number;
  readonly at: number;
}

/** A stream's kept events: `events[head..]`, with sequence numbers counting up by one. */
interface StoredStream {
  events: StoredEvent[];
  head: number;
  nextSeq: number;
  bytes: number;
  lastWrite: number;
}

/**
 * The in-memory store: bounded per stream (events, bytes, age), per session (streams) and
 * over all streams (streams, bytes). Messages are kept as JSON text, so a message changed
 * after it was sent replays as it was sent.
 */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StoredStream>();
  /** Each session's stream ids, least recently written first. */
  private readonly sessions = new Map<string, Set<string>>();
  private readonly retention: Required<EventStoreBounds>;
  private readonly now: () => number;
  private totalBytes = 0;
  /**
   * The held streams (see EventStore.hold): held or over, least recently changed first. Its
   * holder is in this process, so it is alive: a held stream is never settled as ended.
   */
  private readonly holds = new Map<string, "held" | "over">();

  constructor(options: MemoryEventStoreOptions = {}) {
    this.retention = resolveBounds(options);
    this.now = options.now ?? Date.now;
  }

  /** Streams kept, and their bytes: for tests and metrics. */
  get size(): { streams: number; bytes: number } {
    return { streams: this.streams.size, bytes: this.totalBytes };
  }

  append(streamId: string, message: object | undefined): Promise<string> {
    checkStreamId(streamId);
    const now = this.now();
    this.expireStreams(now);
    let stream = this.streams.get(streamId);
    if (stream) this.streams.delete(streamId);
    else stream = { events: [], head: 0, nextSeq: 1, bytes: 0, lastWrite: now };
    // Re-inserted: the map stays ordered by last write, least recent first.
    this.streams.set(streamId, stream);
    stream.lastWrite = now;
    this.boundSession(streamId);
    const text = message === undefined ? undefined : JSON.stringify(message);
    const bytes = text === undefined ? 0 : utf8Length(text);
    const seq = stream.nextSeq++;
    stream.events.push({ seq, text, bytes, at: now });
    stream.bytes += bytes;
    this.totalBytes += bytes;
    this.trim(stream, now);
    this.bound(streamId);
    return Promise.resolve(formatEventId(streamId, String(seq)));
  }

  replayAfter(
    eventId: string,
    send: (eventId: string, message: object) => void,
  ): Promise<string | undefined> {
    const parsed = parseEventId(eventId);
    const stream = parsed && this.streams.get(parsed.streamId);
    if (!parsed || !stream || !/^[1-9]\d{0,15}$/.test(parsed.cursor))
      return Promise.resolve(undefined);
    const now = this.now();
    this.trim(stream, now);
    const first = stream.events[stream.head]?.seq;
    const at = first === undefined ? -1 : Number(parsed.cursor) - first;
    // The client's own event must still be kept: else events after it may have been dropped.
    if (at < 0 || stream.head + at >= stream.events.length) return Promise.resolve(undefined);
    for (let i = stream.head + at + 1; i < stream.events.length; i++) {
      const event = stream.events[i]!;
      if (event.text !== undefined)
        send(formatEventId(parsed.streamId, String(event.seq)), JSON.parse(event.text) as object);
    }
    return Promise.resolve(parsed.streamId);
  }

  hold(streamId: string): Promise<void> {
    return this.mark(streamId, "held");
  }

  finish(streamId: string): Promise<void> {
    return this.mark(streamId, "over");
  }

  settle(streamId: string): Promise<"held" | "over" | "unknown"> {
    return Promise.resolve(this.holds.get(streamId) ?? "unknown");
  }

  /** Bounded like the streams: beyond maxStreams, the least recently changed is forgotten. */
  private mark(streamId: string, state: "held" | "over"): Promise<void> {
    this.holds.delete(streamId);
    this.holds.set(streamId, state);
    if (this.holds.size > this.retention.maxStreams)
      this.holds.delete(this.holds.keys().next().value!);
    return Promise.resolve();
  }

  deleteStream(streamId: string): Promise<void> {
    this.holds.delete(streamId);
    const stream = this.streams.get(streamId);
    if (stream) {
      this.totalBytes -= stream.bytes;
      this.streams.delete(streamId);
    }
    const session = sessionOfStream(streamId);
    const ids = session === undefined ? undefined : this.sessions.get(session);
    ids?.delete(streamId);
    if (ids?.size === 0) this.sessions.delete(session!);
    return Promise.resolve();
  }

  /** Marks `streamId` its session's most recently written; the least recent go past the cap. */
  private boundSession(streamId: string): void {
    const session = sessionOfStream(streamId);
    if (session === undefined) return;
    let ids = this.sessions.get(session);
    if (!ids) this.sessions.set(session, (ids = new Set()));
    ids.delete(streamId);
    ids.add(streamId);
    while (ids.size > this.retention.maxStreamsPerSession) {
      const [oldest] = ids;
      void this.deleteStream(oldest!);
    }
  }

  /** Drops a stream's events beyond its bounds, oldest first; the newest always stays. */
  private trim(stream: StoredStream, now: number): void {
    const { maxEventsPerStream, maxBytesPerStream, maxAgeMs } = this.retention;
    while (stream.events.length - stream.head > 1) {
      const oldest = stream.events[stream.head]!;
      const over =
        stream.events.length - stream.head > maxEventsPerStream ||
        stream.bytes > maxBytesPerStream ||
        now - oldest.at > maxAgeMs;
      if (!over) break;
      this.dropOldest(stream);
    }
    // The newest alone can be too old too (nothing written for maxAgeMs).
    const newest = stream.events[stream.head];
    if (newest && now - newest.at > maxAgeMs) this.dropOldest(stream);
  }

  private dropOldest(stream: StoredStream): void {
    const oldest = stream.events[stream.head++]!;
    stream.bytes -= oldest.bytes;
    this.totalBytes -= oldest.bytes;
    // Compacted now and then, so that dropping from the front stays O(1) amortized.
    if (stream.head > 64 && stream.head * 2 > stream.events.length) {
      stream.events = stream.events.slice(stream.head);
      stream.head = 0;
    }
  }

  /** Streams not written to for maxAgeMs are gone (the map is ordered by last write). */
  private expireStreams(now: number): void {
    for (const [id, stream] of this.streams) {
      if (now - stream.lastWrite <= this.retention.maxAgeMs) break;
      void this.deleteStream(id);
    }
  }

  /** The bounds over all streams: the least recently written give way first, never `keep`. */
  private bound(keep: string): void {
    while (this.streams.size > this.retention.maxStreams) {
      const [oldest] = this.streams.keys();
      void this.deleteStream(oldest!);
    }
    while (this.totalBytes > this.retention.maxTotalBytes) {
      const [id, stream] = this.streams.entries().next().value as [string, StoredStream];
      if (id === keep) {
        // Only the stream just written to is left: it keeps its newest event at least.
        if (stream.events.length - stream.head <= 1) break;
        this.dropOldest(stream);
      } else if (stream.events.length - stream.head <= 1) void this.deleteStream(id);
      else this.dropOldest(stream);
    }
  }
}
