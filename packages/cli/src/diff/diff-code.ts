import type { LoadedRevision } from "../schema/index.js";
import { McpGenError } from "../schema/diagnostics.js";
import type { InputRequestInfo, MethodInfo, Side } from "../schema/protocol.js";
import { receivingSides } from "../generators/emit/dispatcher-plan.js";
import { senderSides } from "../generators/emit/client-senders.js";
import { runtimeFacts } from "../schema/runtime-protocol.js";

// What a method added or removed means for generated code and the user's handlers.ts: the
// names come from the generators themselves (dispatcher.ts's handler interfaces, client.ts's
// function names), so the diff says exactly what the regenerated output will say.

export interface CodeUpdate {
  /** The params and result type names (`ValidateToolRequest["params"]` where params are inline). */
  params?: string;
  result?: string;
  /** Handler entries: `ServerHandlers["tools/validate"]` in handlers.ts, `inputHandlers["confirm/ask"]` for input requests. */
  handlers: { side: Side; interface: string; key: string }[];
  /** Client functions: `Client.validateTool()`. */
  functions: { side: Side; interface: string; name: string }[];
  /** The capabilities that gate it: a path into the named side's capabilities. */
  capabilities: { side: Side; path: string[] }[];
}

/** The handler entry, client function and gating capability of a method in one revision. */
export function methodCode(loaded: LoadedRevision, m: MethodInfo): CodeUpdate {
  // ping and server/discover are answered by the dispatcher: no handler to add or remove.
  const { ping, discover } = runtimeFacts(loaded).wellKnown;
  const builtIn = m.method === ping || m.method === discover;
  const handlers = receivingSides(loaded)
    .filter((s) => !builtIn && m.directions.includes(s.direction))
    .map((s) => ({ side: s.side as Side, interface: s.handlers, key: m.method }));
  const functions = sendersOf(loaded).flatMap((s) => {
    const name = m.directions.includes(s.direction)
      ? (m.kind === "request" ? s.functions : s.notificationFunctions).get(m.method)
      : undefined;
    return name ? [{ side: s.side as Side, interface: s.name, name }] : [];
  });
  const capabilities = m.directions.flatMap((d) => {
    const gate = m.capabilities[d];
    return gate ? [{ side: gate.side, path: gate.path }] : [];
  });
  return { ...typeNames(m.params, m.result), handlers, functions, capabilities };
}

/**
 * An input request is fulfilled by the client's `inputHandlers` (client.ts's InputHandlers,
 * keyed by method) and asked for by the server; the client capability gates it.
 */
export function inputRequestCode(r: InputRequestInfo): CodeUpdate {
  return {
    ...typeNames(r.params, r.result),
    handlers: [{ side: "client", interface: "InputHandlers", key: r.method }],
    functions: [],
    capabilities: r.capability ? [{ side: "client", path: r.capability.path }] : [],
  };
}

function typeNames(
  params: string | undefined,
  result: string | undefined,
): Pick<CodeUpdate, "params" | "result"> {
  return { ...(params ? { params } : {}), ...(result ? { result } : {}) };
}

const senderCache = new WeakMap<LoadedRevision, ReturnType<typeof senderSides>>();

/** The client senders, or none where the revision's method names cannot be client functions (generation refuses those too). */
function sendersOf(loaded: LoadedRevision): ReturnType<typeof senderSides> {
  let senders = senderCache.get(loaded);
  if (!senders) {
    try {
      senders = senderSides(loaded);
    } catch (error) {
      if (!(error instanceof McpGenError)) throw error;
      senders = [];
    }
    senderCache.set(loaded, senders);
  }
  return senders;
}
