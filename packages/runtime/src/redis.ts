// `@mcp-gen/runtime/redis`: the Redis-backed stores, for several server instances. They take
// a connected node-redis client (the `redis` package, an optional peer dependency) and only
// send it commands: the rest of the runtime needs no Redis client at all.
export {
  RedisEventStore,
  type RedisCommandClient,
  type RedisEventStoreOptions,
} from "./transport/http/event-store-redis.js";
export type { EventRetention, EventStore } from "./transport/http/event-store.js";
