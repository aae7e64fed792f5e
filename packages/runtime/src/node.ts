// @mcp-gen/runtime/node: the Node.js-only transports: stdio (both sides) and the Streamable
// HTTP server on node:http (the node host of the same core the fetch handler uses), with the
// in-memory stores it defaults to (stores/memory/).
export * from "./transport/stdio/stdio.js";
export * from "./transport/http/server/server.js";
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
