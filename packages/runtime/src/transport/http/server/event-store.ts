// Where the events of resumable SSE streams are kept, so that a client that reconnects with
// `Last-Event-ID` gets what it missed (2025-03-26 .. 2025-11-25 basic/transports, "Resumability
// and Redelivery"). An event id names its stream and a position in it (`<streamId>:<cursor>`):
// a per-stream cursor, as the spec puts it, that any instance sharing the store can follow.
// The default keeps events in memory, bounded (MemoryEventStore, stores/memory/);
// `@mcp-gen/runtime/redis` keeps them in Redis Streams, for several instances.

/**
 * A store of SSE events. A store assigns each event an id of the form `<streamId>:<cursor>`
 * (see `formatEventId`): the stream an id belongs to is read from it without asking the store.
 */
export interface EventStore {
  /**
   * Records `message` as the next event of `streamId` and resolves to its event id. Without a
   * message (undefined) it records a position only: the priming event, which a client may
   * resume after before any message was sent.
   */
  append(streamId: string, message: object | undefined): Promise<string>;
  /**
   * Sends the messages recorded on the stream of `eventId` after it, oldest first, each with
   * its own id; resolves to that stream's id. Resolves to undefined, sending nothing, when the
   * event is not kept (never recorded, dropped by retention, or the stream deleted): the
   * client may then have missed events, and the caller refuses the resumption.
   */
  replayAfter(
    eventId: string,
    send: (eventId: string, message: object) => void,
  ): Promise<string | undefined>;
  /** Forgets a stream's events (its session ended). */
  deleteStream(streamId: string): Promise<void>;
  /**
   * Sends the messages of `streamId` recorded after the moment the event `eventId`, of any
   * stream of this store, was recorded; oldest first. Only a store whose cursors order events
   * across its streams can (a Redis stream entry id is a time on the Redis server's clock);
   * the others leave it out. A standalone stream adopted after its instance died catches up
   * with the session notices it missed so (see shareSessionNotices' `history`).
   * Known limit of the Redis store: the moment is the Redis clock's millisecond, and an event
   * of `streamId` recorded in the same millisecond as `eventId` (by the Redis clock) is not
   * sent (it cannot be told apart from one recorded just before).
   */
  replaySince?(
    streamId: string,
    eventId: string,
    send: (eventId: string, message: object) => void,
  ): Promise<void>;
  /**
   * Records that this instance writes the POST stream `streamId` until `finish`, and
   * `ending`, the JSON-RPC error response it ends with if this instance dies first (see
   * `settle`). A store several instances share keeps a lease that lapses when the instance
   * stops renewing it (RedisEventStore's `leaseMs`). Optional, with `finish` and `settle`.
   */
  hold?(streamId: string, ending: object): Promise<void>;
  /** Nothing more comes on `streamId`: its response was recorded, or its request ended. */
  finish?(streamId: string): Promise<void>;
  /**
   * What became of the held stream `streamId`, asked by an instance that does not write it:
   * "held" while the instance holding it lives, "over" once finished, "unknown" when it was
   * never held (or that is forgotten). When the holder died (its lease lapsed), its `ending`
   * is recorded as the stream's last event, once even when several instances settle it at
   * the same time: "ended".
   */
  settle?(streamId: string): Promise<"held" | "over" | "ended" | "unknown">;
}

/** How long and how much of each stream a store keeps; the defaults are in `DEFAULT_RETENTION`. */
export interface EventRetention {
  /** Most events kept per stream; the oldest go first (default 1,000). */
  maxEventsPerStream?: number;
  /** Most bytes (UTF-8 JSON) kept per stream; the oldest go first, the newest is always kept (default 1 MiB). */
  maxBytesPerStream?: number;
  /** Events older than this many ms are dropped, and so is a stream not written to for as long (default 5 minutes). */
  maxAgeMs?: number;
}

/** The bounds a store keeps unless told otherwise. */
export const DEFAULT_RETENTION: Readonly<Required<EventRetention>> = {
  maxEventsPerStream: 1_000,
  maxBytesPerStream: 1024 * 1024,
  maxAgeMs: 5 * 60_000,
};

/** `options` with the defaults filled in; a bound that is not a positive integer throws. */
export function resolveRetention(options: EventRetention = {}): Required<EventRetention> {
  const resolved = { ...DEFAULT_RETENTION };
  for (const key of Object.keys(DEFAULT_RETENTION) as (keyof EventRetention)[]) {
    const value = options[key];
    if (value === undefined) continue;
    positiveInteger(key, value);
    resolved[key] = value;
  }
  return resolved;
}

/** Throws a TypeError naming `name` unless `value` is a positive safe integer. */
export function positiveInteger(name: string, value: unknown): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
}

/**
 * The bounds of a store: per stream (EventRetention), per session and over all streams. When
 * a bound is passed the least recently written streams give way (the one written never); the
 * defaults are in `DEFAULT_STORE_BOUNDS`.
 */
export interface EventStoreBounds extends EventRetention {
  /** Most streams kept; the one written to least recently goes first (default 10,000). */
  maxStreams?: number;
  /** Most bytes kept over all streams; the least recently written give way first (default 64 MiB). */
  maxTotalBytes?: number;
  /**
   * Most streams kept per session (default 100); the session's least recently written stream
   * goes first. A stream id `p.<session>.<rest>` or `g.<session>.<rest>` (how the HTTP
   * transport names a session's POST and GET streams) counts for `<session>`; other stream
   * ids count for no session.
   */
  maxStreamsPerSession?: number;
}

/** The store-wide bounds a store keeps unless told otherwise. */
export const DEFAULT_STORE_BOUNDS: Readonly<Required<EventStoreBounds>> = {
  ...DEFAULT_RETENTION,
  maxStreams: 10_000,
  maxTotalBytes: 64 * 1024 * 1024,
  maxStreamsPerSession: 100,
};

/** `options` with the defaults filled in; a bound that is not a positive integer throws. */
export function resolveBounds(options: EventStoreBounds = {}): Required<EventStoreBounds> {
  const resolved = { ...DEFAULT_STORE_BOUNDS, ...resolveRetention(options) };
  for (const key of ["maxStreams", "maxTotalBytes", "maxStreamsPerSession"] as const) {
    const value = options[key];
    if (value === undefined) continue;
    positiveInteger(key, value);
    resolved[key] = value;
  }
  return resolved;
}

/** The session a stream id counts for (`p.<session>.<rest>`, `g.<session>.<rest>`), if any. */
export function sessionOfStream(streamId: string): string | undefined {
  return /^[pg]\.([^.]+)\./.exec(streamId)?.[1];
}

/** What a stream id may be made of: it ends at the first `:` of an event id. */
const STREAM_ID = /^[\w.-]{1,128}$/;
/** A cursor: a store's own position, without line breaks (an SSE id cannot hold them). */
const CURSOR = /^[\w.-]{1,64}$/;

/** The event id of the event at `cursor` of `streamId`. */
export function formatEventId(streamId: string, cursor: string): string {
  checkStreamId(streamId);
  return `${streamId}:${cursor}`;
}

/** The stream and cursor an event id names, or undefined when it is not one (a peer sent it). */
export function parseEventId(eventId: string): { streamId: string; cursor: string } | undefined {
  const colon = eventId.indexOf(":");
  if (colon === -1) return undefined;
  const streamId = eventId.slice(0, colon);
  const cursor = eventId.slice(colon + 1);
  return STREAM_ID.test(streamId) && CURSOR.test(cursor) ? { streamId, cursor } : undefined;
}

export function checkStreamId(streamId: string): void {
  if (!STREAM_ID.test(streamId))
    throw new TypeError(`a stream id is 1 to 128 letters, digits, '_', '.' or '-': ${streamId}`);
}

/** The UTF-8 length of `text`, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    // A surrogate pair is 2 UTF-16 units and 4 bytes; any other unit up to 0xffff is 3 bytes.
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
