// @mcp-gen/runtime/redis: legacy sessions in Redis, shared by every instance of a server, and
// the message bus carrying session notices between them (pub/sub).
// Needs the `redis` package (node-redis), an optional peer dependency: only this subpath
// imports it, so the rest of the runtime stays dependency-free.
export * from "./transport/http/redis-sessions.js";
export * from "./transport/http/redis-bus.js";
export type {
  LegacySessionState,
  SessionLimits,
  SessionRecord,
  SessionRefusal,
  SessionStore,
} from "./transport/http/sessions.js";
