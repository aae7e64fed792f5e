// `@mcp-gen/runtime/redis`: the Redis-backed stores, for several server instances: legacy
// sessions (RedisSessionStore) and the events of their SSE streams (RedisEventStore); and
// the message bus carrying session notices between instances (RedisMessageBus, pub/sub). They
// take a connected node-redis client (the `redis` package, an optional peer dependency; the
// bus adds a duplicate of it for subscribing): only this subpath imports it, so the rest of
// the runtime stays dependency-free. `connectRedis()` makes a client with the runtime's
// failure policy (reconnection with backoff, commands refused while disconnected, one report
// per outage: redis-connection.ts), as the connect*() helpers do.
export * from "./stores/redis/redis-sessions.js";
export * from "./stores/redis/redis-bus.js";
export {
  connectRedis,
  type ConnectRedisOptions,
  type RedisConnection,
  type RedisErrorListener,
} from "./stores/redis/redis-connection.js";
export type {
  LegacySessionState,
  SessionChange,
  SessionLimits,
  SessionRecord,
  SessionRefusal,
  SessionStore,
} from "./transport/http/server/sessions.js";
export {
  connectRedisEventStore,
  RedisEventStore,
  type RedisCommandClient,
  type RedisEventStoreOptions,
} from "./stores/redis/event-store-redis.js";
export type {
  EventRetention,
  EventStore,
  EventStoreBounds,
} from "./transport/http/server/event-store.js";
export {
  DEFAULT_LEASE,
  type StreamFate,
  type StreamLeaseOptions,
} from "./stores/redis/stream-lease-redis.js";
