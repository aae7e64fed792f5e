import type { RouterExtension } from "./extensions.js";
import type { Handler } from "./router-types.js";
import type { RouterState } from "./router-state.js";
import { own, type MethodEntry } from "../core/protocol.js";
import { serverCapabilities } from "./server-capabilities.js";

// Which handler serves a method: a registered one, the router's own (ping, server/discover),
// or an extension's, for the methods the routed side may receive.

/** The revision's entry for `method`, when the routed side may receive it. */
export function revisionEntry(
  state: Pick<RouterState, "protocol" | "direction">,
  method: string,
): MethodEntry | undefined {
  const entry = own(state.protocol.methods, method);
  return entry && entry.directions.includes(state.direction) ? entry : undefined;
}

/** How a request is served. */
export interface RequestRoute {
  /** The revision's entry for the method; undefined for an extension's request. */
  readonly entry: MethodEntry | undefined;
  /** The extension serving the request, when the revision lacks the method. */
  readonly extension: RouterExtension | undefined;
  readonly handler: Handler;
}

/** How a request of `method` is served, or undefined when it is not (method not found). */
export function requestRoute(state: RouterState, method: string): RequestRoute | undefined {
  const entry = revisionEntry(state, method);
  const extension = entry ? undefined : state.extensions.requests.get(method);
  const handler = entry
    ? (own(state.handlers, method) ?? builtIn(state, method))
    : extension?.handler;
  if (!handler || (entry !== undefined && entry.kind !== "request")) return undefined;
  return { entry, extension: extension?.extension, handler };
}

/** What the router answers by itself when no handler is registered: ping, server/discover. */
function builtIn(state: RouterState, method: string): Handler | undefined {
  if (method === state.protocol.wellKnown.ping) return () => ({});
  if (method === state.protocol.wellKnown.discover) return () => discoverResult(state);
  return undefined;
}

function discoverResult(state: RouterState): Record<string, unknown> {
  const { protocol, options } = state;
  return {
    ...options.discoverFields,
    supportedVersions: state.supportedVersions,
    // Decided as initialize decides them for legacy sessions (server-capabilities.ts).
    capabilities: state.extensions.advertise(
      serverCapabilities(protocol, {
        handlers: state.handlers,
        declared: options.capabilities,
        direction: state.direction,
      }),
    ),
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(protocol.features.discoverCacheHints
      ? (options.discoverCache ?? { ttlMs: 0, cacheScope: "public" })
      : {}),
  };
}
