import { createHash } from "node:crypto";
import {
  capFor,
  parseSessionRecord,
  sessionLimits,
  type SessionLimits,
  type SessionRecord,
  type SessionRefusal,
  type SessionStore,
} from "./sessions.js";
import { connectRedis, type RedisErrorListener } from "./redis-connection.js";

// Legacy sessions in Redis, shared by every instance of a server: each session a JSON record
// that expires when idle (PX), and per principal (and for the whole store) a sorted set of
// session ids scored by when each expires, so that a cap is counted and checked in one Lua
// script: atomic across instances, and nobody is evicted to make room. Times come from the
// Redis server's clock (TIME), the same for every instance.
//
// Redis is reached through a client the application makes with `redis` (node-redis), an
// optional peer dependency of @mcp-gen/runtime: this module is its own subpath
// (`@mcp-gen/runtime/redis`) so that nothing else in the runtime needs it.

/** The commands the store sends: what a node-redis client (`createClient()`) has. */
export interface RedisScriptClient {
  get(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

export interface RedisSessionStoreOptions extends SessionLimits {
  /** A connected node-redis client (`await createClient({ url }).connect()`); yours to close. */
  client: RedisScriptClient;
  /**
   * Prefix of every key the store writes (default "mcp-gen:session:"); servers sharing one
   * Redis for different session sets need different prefixes. On Redis Cluster, put a hash
   * tag in it ("{mcp-gen}:session:"): the scripts touch several keys, which must share a slot.
   */
  prefix?: string;
}

/** The time on the Redis server, in ms. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** The sorted set of a record's principal (ARGV[prefix] given), or of the anonymous bucket. */
const BUCKET_OF = `local function bucketOf(json, prefix)
  local ok, record = pcall(cjson.decode, json)
  local principal = ok and type(record) == 'table' and record.principal
  if type(principal) == 'string' then return prefix .. 'p:' .. principal end
  return prefix .. 'anon'
end`;

/** Marks `id` used now in its bucket and the store's set: both expire with the newest session. */
const REFRESH = `local function refresh(bucket, all, id, now, idle)
  redis.call('ZADD', bucket, now + idle, id)
  redis.call('PEXPIRE', bucket, idle)
  redis.call('ZADD', all, now + idle, id)
  redis.call('PEXPIRE', all, idle)
end`;

/** KEYS: record, bucket, all. ARGV: id, json, idle ms, the bucket's cap, the store's cap. */
const CREATE = `${NOW}
${REFRESH}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 'principal-full' end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then return 'store-full' end
local idle = tonumber(ARGV[3])
if not redis.call('SET', KEYS[1], ARGV[2], 'PX', idle, 'NX') then return 'exists' end
refresh(KEYS[2], KEYS[3], ARGV[1], now, idle)
return 'created'`;

/**
 * KEYS: record, all. ARGV: id, idle ms, prefix, and the new json (set) or nothing (touch).
 * A new record keeps its principal: one naming another is refused (-1).
 */
const UPDATE = `${NOW}
${BUCKET_OF}
${REFRESH}
local json = redis.call('GET', KEYS[1])
if not json then return 0 end
local bucket = bucketOf(json, ARGV[3])
local idle = tonumber(ARGV[2])
if ARGV[4] then
  if bucketOf(ARGV[4], ARGV[3]) ~= bucket then return -1 end
  redis.call('SET', KEYS[1], ARGV[4], 'PX', idle)
else
  redis.call('PEXPIRE', KEYS[1], idle)
end
refresh(bucket, KEYS[2], ARGV[1], now, idle)
return 1`;

/** KEYS: record, all. ARGV: id, prefix. */
const DELETE = `${BUCKET_OF}
local json = redis.call('GET', KEYS[1])
if not json then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', bucketOf(json, ARGV[2]), ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;

/** KEYS: bucket. */
const COUNT = `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')`;

/** A script and its SHA-1, by which Redis runs a script it has cached (EVALSHA). */
const script = (text: string) => ({ text, sha: createHash("sha1").update(text).digest("hex") });
const SCRIPTS = {
  create: script(CREATE),
  update: script(UPDATE),
  delete: script(DELETE),
  count: script(COUNT),
};

/** A session store in Redis, shared by every instance: see the module's comment. */
export class RedisSessionStore implements SessionStore {
  private readonly client: RedisScriptClient;
  private readonly prefix: string;
  private readonly limits: Required<SessionLimits>;

  constructor(options: RedisSessionStoreOptions) {
    if (typeof options?.client?.evalSha !== "function")
      throw new TypeError("RedisSessionStore needs a connected node-redis client (client)");
    this.client = options.client;
    this.prefix = options.prefix ?? "mcp-gen:session:";
    this.limits = sessionLimits(options);
  }

  async create(id: string, record: SessionRecord): Promise<"created" | SessionRefusal> {
    const cap = capFor(this.limits, record.principal);
    const keys = [this.recordKey(id), this.bucketKey(record.principal), this.allKey()];
    const args = [id, JSON.stringify(record), ...this.numbers(cap)];
    const outcome = await this.run(SCRIPTS.create, keys, args);
    if (outcome === "created" || outcome === "principal-full" || outcome === "store-full")
      return outcome;
    throw new Error(`RedisSessionStore: session id ${id} is taken`);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const json = await this.client.get(this.recordKey(id));
    if (typeof json !== "string") return undefined;
    try {
      return parseSessionRecord(JSON.parse(json));
    } catch {
      return undefined;
    }
  }

  async set(id: string, record: SessionRecord): Promise<boolean> {
    const args = [id, String(this.limits.idleTimeoutMs), this.prefix, JSON.stringify(record)];
    return (await this.run(SCRIPTS.update, [this.recordKey(id), this.allKey()], args)) === 1;
  }

  async touch(id: string): Promise<boolean> {
    const args = [id, String(this.limits.idleTimeoutMs), this.prefix];
    return (await this.run(SCRIPTS.update, [this.recordKey(id), this.allKey()], args)) === 1;
  }

  async delete(id: string): Promise<boolean> {
    const keys = [this.recordKey(id), this.allKey()];
    return (await this.run(SCRIPTS.delete, keys, [id, this.prefix])) === 1;
  }

  async count(principal: string | undefined): Promise<number> {
    return Number(await this.run(SCRIPTS.count, [this.bucketKey(principal)], []));
  }

  private recordKey = (id: string) => `${this.prefix}s:${id}`;
  private allKey = () => `${this.prefix}all`;
  /** Must name the same key as the scripts' bucketOf. */
  private bucketKey = (principal: string | undefined) =>
    principal === undefined ? `${this.prefix}anon` : `${this.prefix}p:${principal}`;

  /** The idle timeout, the bucket's cap and the store's, as script arguments. */
  private numbers(cap: number): string[] {
    return [this.limits.idleTimeoutMs, cap, this.limits.maxSessions].map(String);
  }

  /** Runs a script by its SHA-1, sending its text only when Redis has not cached it. */
  private async run(
    { text, sha }: { text: string; sha: string },
    keys: string[],
    args: string[],
  ): Promise<unknown> {
    const options = { keys, arguments: args };
    try {
      return await this.client.evalSha(sha, options);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      return await this.client.eval(text, options);
    }
  }
}

/**
 * A RedisSessionStore on a connection of its own to `url` (redis://...), made with the
 * `redis` package, which must be installed; `close()` ends that connection. The connection
 * reconnects by itself and tells `onError` once per outage (redis-connection.ts).
 */
export async function connectRedisSessionStore(
  options: Omit<RedisSessionStoreOptions, "client"> & {
    url: string;
    onError?: RedisErrorListener;
  },
): Promise<RedisSessionStore & { close(): Promise<void> }> {
  const { url, onError, ...rest } = options;
  const client = await connectRedis({
    url,
    ...(onError ? { onError } : {}),
    name: "session store",
  });
  const store = new RedisSessionStore({ ...rest, client });
  return Object.assign(store, { close: async () => void (await client.close()) });
}
