import type { EventStore } from "./event-store.js";
import type { SessionLimits, SessionStore } from "./sessions.js";
import type { LocalSessions } from "./local-sessions.js";

// The stores the HTTP server keeps legacy sessions and stream events in when its options give
// none. They sit above the transport (stores/memory/), so the server takes them as this
// contract, from the entry points that wire them (server.ts for node:http, src/fetch.ts):
// the transport imports no store.

/** The HTTP server's default stores, and how it tells them from the ones it was given. */
export interface DefaultStores {
  /** The session store when the options give none, bounded by the limits they give. */
  sessionStore(limits: SessionLimits): SessionStore;
  /** The event store of resumable streams when the options give none. */
  eventStore(): EventStore;
  /**
   * Whether `store` keeps its data in this process: it cannot stall, so its calls are not
   * bounded by the request timeout (store-deadline.ts).
   */
  inProcess(store: object): boolean;
  /**
   * The sessions of a store `sessionStore` made, read and written in place; asked only for
   * the server's own default store, which nothing else holds (legacy-stores.ts).
   */
  localSessions?(store: SessionStore): LocalSessions | undefined;
}
