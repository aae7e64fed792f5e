import type { DefaultStores } from "../../transport/http/server/store-defaults.js";
import { MemoryEventStore } from "./event-store.js";
import { localSessionsOf, MemorySessionStore } from "./sessions.js";

// The HTTP server's defaults: both stores in memory (one instance). The entry points of the
// server (transport/http/server/server.ts, src/fetch.ts) pass these to it.

export const MEMORY_STORES: DefaultStores = {
  sessionStore: (limits) => new MemorySessionStore(limits),
  eventStore: () => new MemoryEventStore(),
  inProcess: (store) => store instanceof MemorySessionStore || store instanceof MemoryEventStore,
  localSessions: localSessionsOf,
};
