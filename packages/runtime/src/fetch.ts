// @mcp-gen/runtime/fetch: the Streamable HTTP server as a web-standard fetch handler,
// `(request: Request) => Promise<Response>`, for Cloudflare Workers, Deno, Bun, Next.js
// route handlers and Hono (both eras; legacy sessions need one process to hold them).
export * from "./transport/http/server/fetch.js";
export type {
  CorsOptions,
  HttpCoreOptions,
  MessageHandler,
} from "./transport/http/server/options.js";
export type { MessageBus } from "./server/message-bus.js";
export * from "./transport/http/server/sessions.js";
export {
  DEFAULT_RETENTION,
  DEFAULT_STORE_BOUNDS,
  formatEventId,
  MemoryEventStore,
  parseEventId,
  type EventRetention,
  type EventStore,
  type EventStoreBounds,
  type MemoryEventStoreOptions,
} from "./transport/http/server/event-store.js";
