// The names packages/runtime/test/redis-event-store.test.ts imports; the helper itself is
// test/support/redis.ts, the one way the tests start redis-server. Point that test at
// redis.js and this file can go.
export { redisMissing, startRedis, type RunningRedis as RedisProcess } from "./redis.js";
