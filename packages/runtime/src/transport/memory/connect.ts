import { createInMemoryTransport, type InMemoryServer } from "./memory.js";
import type { Transport } from "../../core/transport.js";

// The test client: a generated client joined to a server's dispatcher in this process, the
// way FastMCP's Client(server) is. Nothing here knows a test framework: it returns the client,
// whose calls are plain promises, for vitest, node:test or jest alike. The generated
// createClient is passed in (the runtime imports no generated code), so the client keeps the
// typed functions of its revision.

/** The options of one call of the client `C` (those of its `request` function). */
type CallOptionsOf<C> = C extends {
  request(method: never, params: never, options?: infer O): unknown;
}
  ? NonNullable<O>
  : never;

type Pick3<O, K extends string> = { [P in K & keyof O]?: O[P] };

/**
 * Call options the test client gives every call (a call's own are heard too): each call sends a
 * progress token when `onProgress` is set, and asks for log messages of `logLevel` and above
 * (2026-07-28: per request; a legacy session gets every level until `logging/setLevel`).
 */
export type InMemoryCallDefaults<C> = Pick3<CallOptionsOf<C>, "onProgress" | "onLog" | "logLevel">;

/**
 * connectInMemory's options: the client's own (but its transport), the call defaults, and
 * the principal the server sees (`ctx.principal`, as if a transport had verified it).
 */
export type InMemoryClientOptions<C, O> = Omit<O, "transport"> &
  InMemoryCallDefaults<C> & { principal?: string };

/**
 * The client `createClient` makes (the generated one), connected to `server` (a generated
 * dispatcher, or what defineServer returns) in this process: no port, no process. `options`
 * are the client's (`era`: "modern" for 2026-07-28 requests, "legacy" for an initialize-based
 * session; `inputHandlers` answer the server's elicitation, sampling and roots requests in
 * either era), plus `onProgress`, `onLog` and `logLevel` for every call, and `principal`
 * (the caller `ctx.principal` names, as if a transport had verified it). `client.close()`
 * closes the server's side too: its handlers in flight see their signal abort, the legacy
 * session ends, and it resolves once they have settled.
 */
export function connectInMemory<C extends object, O extends { transport: Transport }>(
  createClient: (options: O) => C,
  server: InMemoryServer,
  options?: InMemoryClientOptions<C, O>,
): C {
  const { onProgress, onLog, logLevel, principal, ...clientOptions } = (options ??
    {}) as CallDefaults & { principal?: string } & Record<string, unknown>;
  const transport = createInMemoryTransport(server, principal === undefined ? {} : { principal });
  const client = createClient({ ...clientOptions, transport } as unknown as O);
  return withCallDefaults(client, { onProgress, onLog, logLevel });
}

interface CallDefaults {
  onProgress?: ((params: unknown) => void) | undefined;
  onLog?: ((params: unknown) => void) | undefined;
  logLevel?: string | undefined;
}

/** Client functions without call options: notifications, era() and close(). */
const WITHOUT_CALL_OPTIONS = /^(?:era|close|notify[A-Z].*)$/;

/**
 * `client` with `defaults` merged into the options of each call. A generated client's
 * functions take (params, options), `request` (method, params, options).
 */
function withCallDefaults<C extends object>(client: C, defaults: CallDefaults): C {
  const { onProgress, onLog, logLevel } = defaults;
  if (onProgress === undefined && onLog === undefined && logLevel === undefined) return client;
  const merged = (given: CallDefaults | undefined): CallDefaults => ({
    ...given,
    ...both("onProgress", onProgress, given?.onProgress),
    ...both("onLog", onLog, given?.onLog),
    ...((given?.logLevel ?? logLevel) !== undefined
      ? { logLevel: given?.logLevel ?? logLevel }
      : {}),
  });
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (
        typeof value !== "function" ||
        typeof property !== "string" ||
        WITHOUT_CALL_OPTIONS.test(property)
      )
        return value;
      const at = property === "request" ? 2 : 1;
      return (...args: unknown[]) => {
        const call = [...args];
        call.length = Math.max(call.length, at + 1);
        call[at] = merged(call[at] as CallDefaults | undefined);
        return (value as (...a: unknown[]) => unknown).apply(target, call);
      };
    },
  });
}

/** `{ [name]: listener }` calling the test client's listener and the call's own, if any. */
function both(
  name: string,
  defaults: ((params: unknown) => void) | undefined,
  own: ((params: unknown) => void) | undefined,
): Record<string, (params: unknown) => void> {
  if (defaults === undefined) return own === undefined ? {} : { [name]: own };
  if (own === undefined) return { [name]: defaults };
  return { [name]: (params) => (defaults(params), own(params)) };
}
