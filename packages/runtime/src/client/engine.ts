import type { MessageValidators, ProtocolDescriptor } from "../core/protocol.js";
import { EraConnection } from "./era-connection.js";
import { addLegacyCalls } from "./legacy-calls.js";
import { modernCall, type ModernCallOptions } from "./modern-call.js";
import { pages } from "./pages.js";
import { createRoundSender } from "./round.js";
import { NegotiatedVersion, ToolHeaderPlans, type EngineContext } from "./sender-state.js";
import { senderSettings, type ClientEras, type SenderSettings } from "./sender-settings.js";
import { TaskCalls } from "./task-calls.js";
import { TaskNotices, ToolTaskSupport } from "./task-settings.js";
import type { TaskOptions } from "./task-types.js";
import { callOnSession } from "./session-call.js";
import type { LegacyClient } from "./legacy-client.js";
import type { CallOptions, SenderOptions, Transport } from "../core/transport.js";

// The sending side of MCP: one function per request method, doing the multi round-trip
// (input_required) dance where the revision has it (modern-call.ts). Given legacy eras, it
// also reaches initialize-based servers (era-connection.ts, session-call.ts). This file
// assembles the parts into the object a generated client types.

type Json = Record<string, unknown>;

export type { ClientEras } from "./sender-settings.js";

/** The names of the functions a sender has: method -> function name, per kind. */
export interface SenderShape {
  readonly functions: { readonly [method: string]: string };
  readonly notifications: { readonly [method: string]: string };
  readonly paginated: readonly string[];
  /** The tools/call that returns a task handle (`callToolTask`), where the client has one. */
  readonly taskCall?: string;
  /** Calls only legacy eras have (client-legacy-calls.ts), per kind. */
  readonly legacy?: {
    readonly functions: { readonly [method: string]: string };
    readonly notifications: { readonly [method: string]: string };
  };
}

/**
 * A sender: a function per method `shape` names (and `...Pages` per paginated one), the
 * legacy-only calls, `request`, `era` and `close`.
 *
 * `Client` is the type the caller gives that object; the engine cannot check it, so the caller
 * vouches that it declares those functions and no others (a generated client writes its
 * interface and `shape` from the same method list, packages/cli/src/generators/emit/client.ts). Without it, the
 * sender is an untyped record.
 */
export function createSender<Client extends object = Json>(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  shape: SenderShape,
  options: SenderOptions,
  eras?: ClientEras,
): Client {
  const notices = new TaskNotices();
  const given = senderSettings(protocol, options, eras);
  // Task status notifications no call receives (a legacy session's) wake the task they name.
  const settings: SenderSettings = {
    ...given,
    onNotification: (notification) => {
      notices.route(notification);
      given.onNotification?.(notification as never);
    },
  };
  const { transport, defaultTimeout, maxTimeout } = settings;
  const ctx: EngineContext = {
    protocol,
    validators,
    settings,
    round: createRoundSender(protocol, transport, defaultTimeout, maxTimeout),
    version: new NegotiatedVersion(settings.initialVersion, settings.versions),
    toolHeaderPlans: new ToolHeaderPlans(protocol),
    toolTaskSupport: new ToolTaskSupport(),
  };
  const connection = new EraConnection(ctx);
  const tasks = new TaskCalls(ctx, connection, settings.tasks, notices);
  const legacyCall = (session: LegacyClient, method: string, params: unknown, opts: CallOptions) =>
    callOnSession(ctx, session, method, params, opts);

  async function untracedCall(method: string, params: unknown, opts: ModernCallOptions = {}) {
    if (tasks.handles(method, opts)) return tasks.callTool(params, opts);
    const session = await connection.connect(opts.signal);
    if (session) return legacyCall(session, method, params, opts);
    try {
      return await modernCall(ctx, method, params, opts);
    } catch (error) {
      // The era was a cached assumption and the server now answers like a legacy one: probe again.
      const again = await connection.reconnectAfter(error, opts.signal);
      return legacyCall(again, method, params, opts);
    }
  }

  // Tracing wraps the whole call (era probe, rounds of input_required, retries), once.
  const { traceCall } = options;
  const call =
    traceCall === undefined
      ? untracedCall
      : (method: string, params: unknown, opts: ModernCallOptions = {}) =>
          traceCall({ method, params, options: opts }, (sent) =>
            untracedCall(method, params, sent as ModernCallOptions),
          );

  const api = senderApi(shape, transport, settings.maxPages, call, connection);
  if (shape.taskCall !== undefined)
    api[shape.taskCall] = (params: unknown, callOptions: ModernCallOptions & TaskOptions = {}) =>
      tasks.start(params, callOptions, "optional");
  addLegacyCalls(api, shape.legacy, {
    protocol,
    transport,
    legacyCall,
    call,
    legacyEras: settings.legacyEras,
    capabilities: settings.capabilities,
    connection: (signal) => connection.connect(signal),
    openedSession: () => connection.opened,
    version: () => ctx.version.current,
  });
  // The one unchecked step: `api` has the functions `shape` names, which `Client` declares.
  return api as Client;
}

/** The functions `shape` names, over `call`, with request(), era() and close(). */
function senderApi(
  shape: SenderShape,
  transport: Transport,
  maxPages: number,
  call: (method: string, params: unknown, opts?: CallOptions) => Promise<Json>,
  connection: EraConnection,
): Json {
  const api: Json = {
    request: (method: string, params: unknown, callOptions?: CallOptions) =>
      call(method, params, callOptions),
    era: async () => ((await connection.connect(undefined)) ? "legacy" : "modern"),
    close: async () => {
      await connection.close();
      await transport.close?.();
    },
  };
  for (const [method, fn] of Object.entries(shape.functions))
    api[fn] = (params: unknown, callOptions?: CallOptions) => call(method, params, callOptions);
  for (const method of shape.paginated) {
    api[`${shape.functions[method]}Pages`] = (params: unknown, callOptions?: CallOptions) =>
      pages(method, params, maxPages, (page) => call(method, page, callOptions));
  }
  for (const [method, fn] of Object.entries(shape.notifications)) {
    api[fn] = (params?: unknown) =>
      transport.notify({ jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) });
  }
  return api;
}
