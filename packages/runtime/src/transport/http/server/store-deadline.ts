import type { EventStore } from "./event-store.js";
import type { SessionStore } from "./sessions.js";

// A shared store (Redis) that stalls must not hang the requests that need it: each call to a
// session or event store the application passed is bounded by the request timeout, and one
// that fails or does not answer in time throws StoreUnavailableError, which the legacy path
// answers with 503 and Retry-After (a failure of the store, not of the client's request). The
// call itself goes on unseen: a stalled Redis answers it, or its connection fails, later.
// The stores in memory cannot stall: they are used as they are.

/** A store that failed, or did not answer within the request timeout. */
export class StoreUnavailableError extends Error {
  constructor(
    /** What was unavailable: "session store", "message bus". */
    readonly what: string,
    cause: unknown,
  ) {
    super(`the ${what} is unavailable: ${describe(cause)}`, { cause });
    this.name = "StoreUnavailableError";
  }
}

/** Seconds a client is told to wait (Retry-After) after a 503 for an unavailable store. */
export const STORE_RETRY_AFTER_SECONDS = 2;

/** Reports a store's failures once per outage: the first failure after a success. */
export type StoreReport = (line: string) => void;

/** A session store with each call bounded. */
export interface BoundedSessionStore {
  /** Each call bounded by the request timeout. */
  readonly store: SessionStore;
  /** One request's calls, all bounded by one deadline: the request timeout from now. */
  forRequest(): RequestDeadline;
}

/** What one request waits for, within its deadline. */
export interface RequestDeadline {
  /** The session store, each call bounded by the deadline. */
  readonly store: SessionStore;
  /** Waits for `ready` until the deadline; after it, throws StoreUnavailableError(`what`). */
  settled(ready: Promise<unknown>, what: string): Promise<void>;
}

/**
 * `store` bounded by `timeoutMs` (see the module's comment); a store `inMemory` (it keeps
 * its data in this process: DefaultStores.inProcess) is used as it is.
 */
export function boundedSessionStore(
  store: SessionStore,
  timeoutMs: number,
  report: StoreReport,
  inMemory: boolean,
): BoundedSessionStore {
  const guard = outageGuard("session store", report);
  const view = (deadline: () => number) =>
    inMemory ? store : boundedCalls(store, guard, deadline);
  return {
    store: view(() => timeoutMs),
    forRequest() {
      const end = Date.now() + timeoutMs;
      const left = () => Math.max(0, end - Date.now());
      return {
        store: view(left),
        async settled(ready, what) {
          try {
            await beforeDeadline(ready, left(), what);
          } catch (error) {
            throw new StoreUnavailableError(what, error);
          }
        },
      };
    },
  };
}

/**
 * `store` with each call bounded by `timeoutMs`: one that does not answer in time rejects (the
 * stream that waited for it goes on without ids, and says so once, as for any store failure).
 * A store `inMemory` is used as it is.
 */
export function boundedEventStore(
  store: EventStore,
  timeoutMs: number,
  inMemory: boolean,
): EventStore {
  if (inMemory) return store;
  return boundedCalls(
    store,
    (call, ms) => beforeDeadline(call, ms, "event store"),
    () => timeoutMs,
  );
}

/**
 * `store` with every method that returns a promise bounded by `deadline()` ms: methods a store
 * adds later are bounded too.
 */
function boundedCalls<T extends object>(
  store: T,
  guard: <R>(call: Promise<R>, ms: number) => Promise<R>,
  deadline: () => number,
): T {
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result instanceof Promise ? guard(result, deadline()) : result;
      };
    },
  });
}

/**
 * Bounds a store call by `ms`, turning a failure or a timeout into StoreUnavailableError,
 * reported the first time after a success (not once per request while the store is down).
 */
function outageGuard(what: string, report: StoreReport) {
  let down = false;
  return async function guarded<T>(call: Promise<T>, ms: number): Promise<T> {
    try {
      const result = await beforeDeadline(call, ms, what);
      down = false;
      return result;
    } catch (error) {
      const unavailable = new StoreUnavailableError(what, error);
      if (!down) report(`mcp-gen: ${unavailable.message}`);
      down = true;
      throw unavailable;
    }
  };
}

/** `call`, or a rejection when it has not settled within `ms`. */
async function beforeDeadline<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the ${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
    // The call, when it settles after the deadline, must not be an unhandled rejection.
    call.catch(() => undefined);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
