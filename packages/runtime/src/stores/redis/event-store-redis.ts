import type { RedisCommandClient } from "./redis-connection.js";
import {
  formatEventId,
  parseEventId,
  resolveBounds,
  checkStreamId,
  type EventStoreBounds,
  type EventStore,
} from "../../transport/http/server/event-store.js";
import { APPEND, DELETE } from "./event-store-redis-scripts.js";
import { connectRedis, type RedisErrorListener } from "./redis-connection.js";
import {
  RedisStreamLeases,
  type StreamFate,
  type StreamLeaseOptions,
} from "./stream-lease-redis.js";

// The event store in Redis Streams, for several server instances: any instance can replay a
// stream another one wrote. One Redis stream per SSE stream; an event's cursor is its Redis
// entry id. Every bound is kept atomically by a script on each append (per stream: events,
// bytes, age; per session: streams; over all streams: streams and bytes, counted in Redis so
// that all instances on one prefix share them), and every key expires maxAgeMs after it was
// last written (event-store-redis-scripts.ts lists the keys). The client is the caller's
// (node-redis, `createClient()` from the `redis` package, an optional peer dependency): this
// module only sends it commands.

// The client's shape lives with the connection policy, which the stream leases share.
export type { RedisCommandClient } from "./redis-connection.js";

/**
 * The client a RedisEventStore writes through, its key prefix, its bounds (the memory
 * store's, with the same defaults: see EventStoreBounds) and its replica lease.
 */
export interface RedisEventStoreOptions extends EventStoreBounds, StreamLeaseOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). */
  client: RedisCommandClient;
  /**
   * Prefixed to every key the store writes (default "mcp:events:"). On Redis Cluster, put a
   * hash tag in it ("{mcp}:events:"): the scripts touch several keys, which must share a slot.
   */
  keyPrefix?: string;
}

/** A Redis stream entry id, as a cursor. */
const ENTRY_ID = /^\d{1,15}-\d{1,10}$/;

/** The event store in Redis Streams; see RedisEventStoreOptions and EventRetention for bounds. */
export class RedisEventStore implements EventStore {
  private readonly client: RedisCommandClient;
  private readonly prefix: string;
  private readonly bounds: Required<EventStoreBounds>;
  /** The SHA-1 of each script Redis has cached, by its text. */
  private readonly shas = new Map<string, Promise<string>>();
  private readonly leases: RedisStreamLeases;

  constructor(options: RedisEventStoreOptions) {
    if (typeof options?.client?.sendCommand !== "function")
      throw new TypeError("RedisEventStore needs a connected node-redis client (options.client)");
    this.client = options.client;
    this.prefix = options.keyPrefix ?? "mcp:events:";
    this.bounds = resolveBounds(options);
    const keyOf = (streamId: string) => this.key(streamId);
    const { maxAgeMs } = this.bounds;
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
    const b = this.bounds;
    const args = [
      this.prefix,
      streamId,
      message === undefined ? "" : JSON.stringify(message),
      ...[b.maxEventsPerStream, b.maxBytesPerStream, b.maxAgeMs].map(String),
      ...[b.maxStreams, b.maxTotalBytes, b.maxStreamsPerSession].map(String),
    ];
    const id = await this.run(APPEND, this.keys(streamId), args);
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
    checkStreamId(streamId);
    await this.run(DELETE, this.keys(streamId), [this.prefix, streamId]);
    // The stream's owner (its replica lease, stream-lease-redis.ts) goes with it.
    await this.client.sendCommand(["DEL", `${this.key(streamId)}:owner`]);
  }

  /** The stream's key. */
  private key(streamId: string): string {
    return `${this.prefix}s:${streamId}`;
  }

  /** The keys a script on `streamId` declares: its stream, then the store-wide ones. */
  private keys(streamId: string): string[] {
    return [this.key(streamId), ...["sizes", "streams", "total"].map((k) => this.prefix + k)];
  }

  /** Runs a script by its digest, loading it first, and again after a Redis restart. */
  private async run(script: string, keys: string[], args: string[]): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      let loaded = this.shas.get(script);
      if (!loaded) {
        loaded = this.client.sendCommand(["SCRIPT", "LOAD", script]) as Promise<string>;
        this.shas.set(script, loaded);
      }
      const sha = await loaded.catch((error: unknown) => {
        this.shas.delete(script);
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
        this.shas.delete(script);
      }
    }
  }
}

/**
 * A RedisEventStore on a connection of its own to `url` (redis://...), made with the `redis`
 * package, which must be installed; `close()` ends the connection. The connection reconnects
 * by itself and tells `onError` once per outage (redis-connection.ts).
 */
export async function connectRedisEventStore(
  options: Omit<RedisEventStoreOptions, "client"> & { url: string; onError?: RedisErrorListener },
): Promise<RedisEventStore & { close(): Promise<void> }> {
  const { url, onError, ...rest } = options;
  const client = await connectRedis({ url, ...(onError ? { onError } : {}), name: "event store" });
  const store = new RedisEventStore({ ...rest, client });
  return Object.assign(store, {
    close: async () => {
      store.stopLease();
      await client.close();
    },
  });
}
