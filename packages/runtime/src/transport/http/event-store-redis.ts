import {
  formatEventId,
  parseEventId,
  resolveRetention,
  checkStreamId,
  type EventRetention,
  type EventStore,
} from "./event-store.js";
import {
  RedisStreamLeases,
  type StreamFate,
  type StreamLeaseOptions,
} from "./stream-lease-redis.js";

// The event store in Redis Streams, for several server instances: any instance can replay a
// stream another one wrote. One Redis stream per SSE stream; an event's cursor is its Redis
// entry id. Retention is applied atomically by a script on each append (events, bytes, age),
// and each key expires when its stream was not written to for maxAgeMs. The client is the
// caller's (node-redis, `createClient()` from the `redis` package, an optional peer
// dependency): this module only sends it commands.

/** What the store needs of a Redis client: node-redis's `sendCommand` (v5 and later). */
export interface RedisCommandClient {
  /** Sends one command (its name and arguments) and resolves to Redis's reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** The client a RedisEventStore writes through, its key prefix, and its bounds per stream. */
export interface RedisEventStoreOptions extends EventRetention, StreamLeaseOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). */
  client: RedisCommandClient;
  /** Prefixed to every key the store writes (default "mcp:events:"). */
  keyPrefix?: string;
}

// KEYS: the stream, its byte count. ARGV: the message's JSON ("" for a priming position),
// maxEventsPerStream, maxBytesPerStream, maxAgeMs. The new entry's time (its id's
// milliseconds, from the Redis clock) is "now" for the age bound. Returns the entry id.
const APPEND = `
local text = ARGV[1]
local maxEvents = tonumber(ARGV[2])
local maxBytes = tonumber(ARGV[3])
local maxAge = tonumber(ARGV[4])
local id = redis.call('XADD', KEYS[1], '*', 'm', text)
local bytes = redis.call('INCRBY', KEYS[2], #text)
local count = redis.call('XLEN', KEYS[1])
local now = tonumber(string.match(id, '^(%d+)'))
while count > 1 do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  local at = tonumber(string.match(oldest[1], '^(%d+)'))
  if count <= maxEvents and bytes <= maxBytes and now - at <= maxAge then break end
  redis.call('XDEL', KEYS[1], oldest[1])
  bytes = redis.call('INCRBY', KEYS[2], -#oldest[2][2])
  count = count - 1
end
redis.call('PEXPIRE', KEYS[1], maxAge)
redis.call('PEXPIRE', KEYS[2], maxAge)
return id
`;

/** A Redis stream entry id, as a cursor. */
const ENTRY_ID = /^\d{1,15}-\d{1,10}$/;

/** The event store in Redis Streams; see RedisEventStoreOptions and EventRetention for bounds. */
export class RedisEventStore implements EventStore {
  private readonly client: RedisCommandClient;
  private readonly prefix: string;
  private readonly retention: Required<EventRetention>;
  private sha: Promise<string> | undefined;
  private readonly leases: RedisStreamLeases;

  constructor(options: RedisEventStoreOptions) {
    if (typeof options?.client?.sendCommand !== "function")
      throw new TypeError("RedisEventStore needs a connected node-redis client (options.client)");
    this.client = options.client;
    this.prefix = options.keyPrefix ?? "mcp:events:";
    this.retention = resolveRetention(options);
    const keyOf = (streamId: string) => this.key(streamId);
    const { maxAgeMs } = this.retention;
    this.leases = new RedisStreamLeases(this.client, this.prefix, keyOf, maxAgeMs, options);
  }

  hold(streamId: string, ending: object): Promise<void> {
    checkStreamId(streamId);
    return this.leases.hold(streamId, ending);
  }

  finish(streamId: string): Promise<void> {
    return this.leases.finish(streamId);
  }

  settle(streamId: string): Promise<StreamFate> {
    checkStreamId(streamId);
    return this.leases.settle(streamId);
  }

  /**
   * Stops renewing this instance's lease (at shutdown, before the client closes): the calls
   * it still holds look dead to the other instances once `leaseMs` passed.
   */
  stopLease(): void {
    this.leases.stop();
  }

  async append(streamId: string, message: object | undefined): Promise<string> {
    checkStreamId(streamId);
    const { maxEventsPerStream, maxBytesPerStream, maxAgeMs } = this.retention;
    const key = this.key(streamId);
    const args = [
      message === undefined ? "" : JSON.stringify(message),
      String(maxEventsPerStream),
      String(maxBytesPerStream),
      String(maxAgeMs),
    ];
    const id = await this.evalAppend([key, `${key}:bytes`], args);
    return formatEventId(streamId, String(id));
  }

  async replayAfter(
    eventId: string,
    send: (eventId: string, message: object) => void,
  ): Promise<string | undefined> {
    const parsed = parseEventId(eventId);
    if (!parsed || !ENTRY_ID.test(parsed.cursor)) return undefined;
    // From the client's own event on: it must still be there, else events after it may have
    // been dropped. The stream holds at most what retention lets it, so one read suffices.
    const entries = (await this.client.sendCommand([
      "XRANGE",
      this.key(parsed.streamId),
      parsed.cursor,
      "+",
    ])) as [string, string[]][];
    if (!Array.isArray(entries) || entries[0]?.[0] !== parsed.cursor) return undefined;
    for (const [id, fields] of entries.slice(1)) {
      const text = fields[fields.indexOf("m") + 1];
      if (text) send(formatEventId(parsed.streamId, id), JSON.parse(text) as object);
    }
    return parsed.streamId;
  }

  async replaySince(
    streamId: string,
    eventId: string,
    send: (eventId: string, message: object) => void,
  ): Promise<void> {
    checkStreamId(streamId);
    const cursor = parseEventId(eventId)?.cursor;
    if (!cursor || !ENTRY_ID.test(cursor)) throw new TypeError(`not an event id: ${eventId}`);
    // Entry ids are the Redis clock's times: "(" starts after the moment, exclusive.
    const entries = (await this.client.sendCommand([
      "XRANGE",
      this.key(streamId),
      `(${cursor}`,
      "+",
    ])) as [string, string[]][];
    for (const [id, fields] of Array.isArray(entries) ? entries : []) {
      const text = fields[fields.indexOf("m") + 1];
      if (text) send(formatEventId(streamId, id), JSON.parse(text) as object);
    }
  }

  async deleteStream(streamId: string): Promise<void> {
    const key = this.key(streamId);
    await this.client.sendCommand(["DEL", key, `${key}:bytes`, `${key}:owner`]);
  }

  /** The stream's key; the braces keep a stream's two keys in one Redis Cluster slot. */
  private key(streamId: string): string {
    return `${this.prefix}{${streamId}}`;
  }

  /** Runs the append script by its digest, loading it first, and again after a Redis restart. */
  private async evalAppend(keys: string[], args: string[]): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      this.sha ??= this.client.sendCommand(["SCRIPT", "LOAD", APPEND]) as Promise<string>;
      const sha = await this.sha.catch((error: unknown) => {
        this.sha = undefined;
        throw error;
      });
      try {
        return await this.client.sendCommand([
          "EVALSHA",
          sha,
          String(keys.length),
          ...keys,
          ...args,
        ]);
      } catch (error) {
        if (attempt > 0 || !String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
        this.sha = undefined;
      }
    }
  }
}

/**
 * A RedisEventStore on a connection of its own to `url` (redis://...), made with the `redis`
 * package, which must be installed; `close()` ends the connection.
 */
export async function connectRedisEventStore(
  options: Omit<RedisEventStoreOptions, "client"> & { url: string },
): Promise<RedisEventStore & { close(): Promise<void> }> {
  let redis: typeof import("redis");
  try {
    redis = await import("redis");
  } catch {
    throw new Error("RedisEventStore needs the `redis` package: npm install redis");
  }
  const { url, ...rest } = options;
  const client = await redis.createClient({ url }).connect();
  const store = new RedisEventStore({ ...rest, client: client as RedisCommandClient });
  return Object.assign(store, { close: () => (store.stopLease(), client.close()) });
}
