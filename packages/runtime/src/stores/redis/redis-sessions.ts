import { createHash } from "node:crypto";
import { isObject } from "../../core/protocol.js";
import {
  capFor,
  parseSessionRecord,
  sessionLimits,
  type SessionChange,
  type SessionLimits,
  type SessionRecord,
  type SessionRefusal,
  type SessionStore,
} from "../../transport/http/server/sessions.js";
import { connectRedis, type RedisErrorListener } from "./redis-connection.js";

// Legacy sessions in Redis, shared by every instance of a server: each session a hash of
// fields (what never changes as one JSON field, then the log level and `initialized`) and its
// subscriptions in a set of their own, so that a request writes only what it changed; both
// expire when idle (PEXPIRE, refreshed on each use). Per principal (and for the whole store)
// a sorted set of session ids scored by when each expires, so that a cap is counted and
// checked in one Lua script: atomic across instances, and nobody is evicted to make room.
// Times come from the Redis server's clock (TIME), the same for every instance.
//
// Redis is reached through a client the application makes with `redis` (node-redis), an
// optional peer dependency of @mcp-gen/runtime: this module is its own subpath
// (`@mcp-gen/runtime/redis`) so that nothing else in the runtime needs it.

/** The commands the store sends: what a node-redis client (`createClient()`) has. */
export interface RedisScriptClient {
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

/** Whether the record key holds a session (a hash: another shape, e.g. an older release's, is none). */
const IS_SESSION = `local function isSession(key) return redis.call('TYPE', key).ok == 'hash' end`;

/** The sorted set of a record's principal, or of the anonymous bucket. */
const BUCKET_OF = `local function bucketOf(record, prefix)
  local principal = redis.call('HGET', record, 'principal')
  if principal then return prefix .. 'p:' .. principal end
  return prefix .. 'anon'
end`;

/** Marks `id` used now in its bucket and the store's set: both expire with the newest session. */
const REFRESH = `local function refresh(bucket, all, id, now, idle)
  redis.call('ZADD', bucket, now + idle, id)
  redis.call('PEXPIRE', bucket, idle)
  redis.call('ZADD', all, now + idle, id)
  redis.call('PEXPIRE', all, idle)
end`;

/**
 * KEYS: record, bucket, all, subscriptions. ARGV: id, idle ms, the bucket's cap, the store's
 * cap, the fixed part's JSON, initialized ("1" or "0"), "1" and the log level or "0" and "",
 * "1" and the principal or "0" and "", then the subscriptions.
 */
const CREATE = `${NOW}
${REFRESH}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'principal-full' end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'store-full' end
local idle = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
redis.call('DEL', KEYS[4])
redis.call('HSET', KEYS[1], 'fixed', ARGV[5], 'initialized', ARGV[6])
if ARGV[7] == '1' then redis.call('HSET', KEYS[1], 'logLevel', ARGV[8]) end
if ARGV[9] == '1' then redis.call('HSET', KEYS[1], 'principal', ARGV[10]) end
for i = 11, #ARGV do redis.call('SADD', KEYS[4], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('PEXPIRE', KEYS[4], idle)
refresh(KEYS[2], KEYS[3], ARGV[1], now, idle)
return 'created'`;

/**
 * KEYS: record, all, subscriptions. ARGV: id, idle ms, prefix; for an update (none for a
 * touch): "1" and the log level or "0" and "", initialized ("1", "0" or "" unchanged), the
 * number n of URIs subscribed to, those n, then the URIs unsubscribed from.
 */
const UPDATE = `${NOW}
${IS_SESSION}
${BUCKET_OF}
${REFRESH}
if not isSession(KEYS[1]) then return 0 end
local idle = tonumber(ARGV[2])
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'logLevel', ARGV[5]) end
if ARGV[6] == '1' or ARGV[6] == '0' then redis.call('HSET', KEYS[1], 'initialized', ARGV[6]) end
if ARGV[7] then
  local n = tonumber(ARGV[7])
  for i = 8, 7 + n do redis.call('SADD', KEYS[3], ARGV[i]) end
  for i = 8 + n, #ARGV do redis.call('SREM', KEYS[3], ARGV[i]) end
end
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('PEXPIRE', KEYS[3], idle)
refresh(bucketOf(KEYS[1], ARGV[3]), KEYS[2], ARGV[1], now, idle)
return 1`;

/** KEYS: record, subscriptions. The record's fields (flat) and the subscriptions; nil when none. */
const GET = `${IS_SESSION}
if not isSession(KEYS[1]) then return false end
return { redis.call('HGETALL', KEYS[1]), redis.call('SMEMBERS', KEYS[2]) }`;

/** KEYS: record, all, subscriptions. ARGV: id, prefix. */
const DELETE = `${IS_SESSION}
${BUCKET_OF}
if not isSession(KEYS[1]) then return 0 end
local bucket = bucketOf(KEYS[1], ARGV[2])
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', bucket, ARGV[1])
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
  get: script(GET),
  delete: script(DELETE),
  count: script(COUNT),
};

/** A session as GET returns it (fields, subscriptions), checked; undefined when none or damaged. */
function recordFromReply(reply: unknown): SessionRecord | undefined {
  if (!Array.isArray(reply) || !Array.isArray(reply[0]) || !Array.isArray(reply[1]))
    return undefined;
  const flat = reply[0] as unknown[];
  const fields = new Map<unknown, unknown>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i], flat[i + 1]);
  try {
    const record: unknown = JSON.parse(String(fields.get("fixed")));
    if (!isObject(record) || !isObject(record["session"])) return undefined;
    const logLevel = fields.get("logLevel");
    record["session"] = {
      ...record["session"],
      ...(typeof logLevel === "string" ? { logLevel } : {}),
      initialized: fields.get("initialized") === "1",
      subscriptions: reply[1],
    };
    return parseSessionRecord(record);
  } catch {
    return undefined;
  }
}

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
    const keys = [
      this.recordKey(id),
      this.bucketKey(record.principal),
      this.allKey(),
      this.subscriptionsKey(id),
    ];
    const { logLevel, initialized, subscriptions, ...fixed } = record.session;
    const { principal } = record;
    const args = [
      id,
      ...[this.limits.idleTimeoutMs, cap, this.limits.maxSessions].map(String),
      JSON.stringify({ ...record, session: fixed }),
      initialized ? "1" : "0",
      ...(logLevel === undefined ? ["0", ""] : ["1", logLevel]),
      ...(principal === undefined ? ["0", ""] : ["1", principal]),
      ...subscriptions,
    ];
    const outcome = await this.run(SCRIPTS.create, keys, args);
    if (outcome === "created" || outcome === "principal-full" || outcome === "store-full")
      return outcome;
    throw new Error(`RedisSessionStore: session id ${id} is taken`);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const reply = await this.run(SCRIPTS.get, [this.recordKey(id), this.subscriptionsKey(id)], []);
    return recordFromReply(reply);
  }

  async update(id: string, change: SessionChange): Promise<boolean> {
    const subscribed = change.subscribed ?? [];
    const args = [
      ...this.updateArgs(id),
      ...(change.logLevel === undefined ? ["0", ""] : ["1", change.logLevel]),
      change.initialized === undefined ? "" : change.initialized ? "1" : "0",
      String(subscribed.length),
      ...subscribed,
      ...(change.unsubscribed ?? []),
    ];
    return (await this.run(SCRIPTS.update, this.updateKeys(id), args)) === 1;
  }

  async touch(id: string): Promise<boolean> {
    return (await this.run(SCRIPTS.update, this.updateKeys(id), this.updateArgs(id))) === 1;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.run(SCRIPTS.delete, this.updateKeys(id), [id, this.prefix])) === 1;
  }

  async count(principal: string | undefined): Promise<number> {
    return Number(await this.run(SCRIPTS.count, [this.bucketKey(principal)], []));
  }

  private recordKey = (id: string) => `${this.prefix}s:${id}`;
  private subscriptionsKey = (id: string) => `${this.prefix}s:${id}:subscriptions`;
  private allKey = () => `${this.prefix}all`;
  /** Must name the same key as the scripts' bucketOf. */
  private bucketKey = (principal: string | undefined) =>
    principal === undefined ? `${this.prefix}anon` : `${this.prefix}p:${principal}`;
  /** The keys of UPDATE and DELETE: record, all, subscriptions. */
  private updateKeys = (id: string) => [
    this.recordKey(id),
    this.allKey(),
    this.subscriptionsKey(id),
  ];
  private updateArgs = (id: string) => [id, String(this.limits.idleTimeoutMs), this.prefix];

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
