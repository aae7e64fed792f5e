// `@mcp-gen/runtime/redis`: the Redis-backed stores, for several server instances: legacy
// sessions (RedisSessionStore) and the events of their SSE streams (RedisEventStore). They
// take a connected node-redis client (the `redis` package, an optional peer dependency) and
// only send it commands: only this subpath imports it, so the rest of the runtime stays
// dependency-free.
export * from "./transport/http/redis-sessions.js";
export type {
  LegacySessionState,
  SessionLimits,
  SessionRecord,
  SessionRefusal,
  SessionStore,
} from "./transport/http/sessions.js";
export {
  RedisEventStore,
  type RedisCommandClient,
  type RedisEventStoreOptions,
} from "./transport/http/event-store-redis.js";
export type { EventRetention, EventStore } from "./transport/http/event-store.js";
