// @mcp-gen/runtime/fetch: the Streamable HTTP server as a web-standard fetch handler,
// `(request: Request) => Promise<Response>`, for Cloudflare Workers, Deno, Bun, Next.js
// route handlers and Hono (both eras; legacy sessions need one process to hold them). Its
// default stores, in memory (stores/memory/), are wired here: the transport imports no store.
import type { ProtocolDescriptor } from "./core/protocol.js";
import { MEMORY_STORES } from "./stores/memory/defaults.js";
import {
  fetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from "./transport/http/server/fetch.js";
import type { MessageHandler } from "./transport/http/server/options.js";

export type {
  CancellationWatch,
  FetchHandler,
  FetchHandlerOptions,
} from "./transport/http/server/fetch.js";
export type {
  CorsOptions,
  HttpCoreOptions,
  LegacyServingOptions,
  MessageHandler,
} from "./transport/http/server/options.js";
export type { MessageBus } from "./server/message-bus.js";
export type { BackChannelUse, HandlerBackChannel } from "./server/back-channel-uses.js";
export * from "./transport/http/server/sessions.js";
export { MemorySessionStore, type MemorySessionStoreOptions } from "./stores/memory/sessions.js";
export {
  DEFAULT_RETENTION,
  DEFAULT_STORE_BOUNDS,
  formatEventId,
  parseEventId,
  type EventRetention,
  type EventStore,
  type EventStoreBounds,
} from "./transport/http/server/event-store.js";
export { MemoryEventStore, type MemoryEventStoreOptions } from "./stores/memory/event-store.js";

/** A fetch handler serving MCP at `options.path` (default /mcp). */
export function createFetchHandler(
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: FetchHandlerOptions = {},
): FetchHandler {
  return fetchHandler(MEMORY_STORES, protocol, dispatcher, options);
}
