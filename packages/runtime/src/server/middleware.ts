import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import type { AuthInfo, Promisable, RequestContext } from "./context.js";

// Hooks around every request a router hands to a handler (request-dispatch.ts is the one
// place that calls handlers, for every era: modern requests, older stateless revisions and
// legacy sessions), for what cuts across handlers: authorization per tool, timing, audit
// logs, rate limits. Each middleware is one layer of an onion: the first in the list is the
// outermost, so its `before` runs first and its `after` last.

/**
 * One request as the middleware sees it. `Method`: the request methods it may be (the
 * generated dispatcher's options bind the revision's, so a hook comparing `call.method` with
 * a misspelt method fails to compile).
 */
export interface RequestCall<Method extends string = string> {
  readonly method: Method;
  readonly id: string | number;
  /** The params as received (after validation); for reading: a hook changes nothing. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The principal key handlers get as `ctx.principal` (undefined: unauthenticated). */
  readonly principal: string | undefined;
  /** The caller's token: subject, scopes, claims (undefined without the HTTP server's `auth`). */
  readonly authInfo: AuthInfo | undefined;
  /** tools/call: the tool called and its arguments; undefined for other methods. */
  readonly tool: ToolCall["tool"] | undefined;
  /** The context the handler gets. */
  readonly ctx: RequestContext;
}

/** A tools/call request as the middleware sees it. */
export interface ToolCall extends RequestCall {
  readonly tool: { readonly name: string; readonly arguments: Readonly<Record<string, unknown>> };
}

/**
 * How a request ended, as the `after` hooks see it: the handler's result (a tool execution
 * error or an input_required result too), or what was thrown (by the handler, or a refusal by a
 * `before` hook). `durationMs`: from the outermost `before` until then.
 */
export type Outcome =
  | { readonly ok: true; readonly result: unknown; readonly durationMs: number }
  | { readonly ok: false; readonly error: unknown; readonly durationMs: number };

/**
 * Hooks around requests. `before` refuses a request by throwing an McpError (the client gets
 * that JSON-RPC error; any other error is reported to `onError` and answered -32603), or lets
 * it pass by returning. `after` is told how it ended; what it throws is reported to `onError`
 * and changes nothing.
 */
export interface Middleware<Method extends string = string> {
  /** Names the middleware in errors reported to `onError`. */
  readonly name?: string;
  before?(call: RequestCall<Method>): Promisable<void>;
  after?(call: RequestCall<Method>, outcome: Outcome): Promisable<void>;
}

/** Hooks around tool calls only (tools/call), with the tool's name and arguments typed. */
export interface ToolMiddleware {
  readonly name?: string;
  before?(call: ToolCall): Promisable<void>;
  after?(call: ToolCall, outcome: Outcome): Promisable<void>;
}

const isToolCall = (call: RequestCall): call is ToolCall => call.tool !== undefined;

/** A middleware whose hooks run for tools/call requests only. */
export function forTools(hooks: ToolMiddleware): Middleware {
  const { before, after } = hooks;
  return {
    ...(hooks.name !== undefined ? { name: hooks.name } : {}),
    ...(before
      ? { before: (call) => (isToolCall(call) ? before.call(hooks, call) : undefined) }
      : {}),
    ...(after
      ? {
          after: (call, outcome) =>
            isToolCall(call) ? after.call(hooks, call, outcome) : undefined,
        }
      : {}),
  };
}

/** The middleware list of the dispatcher's options, checked. */
export function middlewareList(given: readonly Middleware[] | undefined): readonly Middleware[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) throw new TypeError("middleware: expected an array of middleware");
  for (const [i, layer] of given.entries()) {
    if (typeof layer !== "object" || layer === null)
      throw new TypeError(`middleware[${i}]: expected an object with before and/or after`);
    for (const hook of ["before", "after"] as const)
      if (layer[hook] !== undefined && typeof layer[hook] !== "function")
        throw new TypeError(`middleware[${i}].${hook}: expected a function`);
  }
  return [...given];
}

/** Tells `onError` about a hook's failure, naming the middleware and the hook. */
type Report = (error: unknown) => void;

/**
 * Runs `handler` inside `layers`: their `before` hooks outermost first, then the handler,
 * then the `after` hooks of every layer whose `before` completed, innermost first. Resolves
 * to the handler's result; rejects with its error, or with the refusal of a `before` hook.
 */
export async function callThrough(
  layers: readonly Middleware[],
  call: RequestCall,
  handler: () => unknown,
  report: Report,
): Promise<unknown> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let entered = 0;
  try {
    for (const layer of layers) {
      await layer.before?.(call);
      entered++;
    }
  } catch (error) {
    const refusal = refusalOf(error, layers[entered]!, report);
    await unwind(
      layers,
      entered,
      call,
      { ok: false, error: refusal, durationMs: elapsed() },
      report,
    );
    throw refusal;
  }
  let outcome: Outcome;
  try {
    outcome = { ok: true, result: await handler(), durationMs: elapsed() };
  } catch (error) {
    outcome = { ok: false, error, durationMs: elapsed() };
  }
  await unwind(layers, entered, call, outcome, report);
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}

/** A `before` hook's throw as the client gets it: an McpError as it is, else -32603. */
function refusalOf(error: unknown, layer: Middleware, report: Report): unknown {
  if (error instanceof McpError) return error;
  report(failureOf(layer, "before", error));
  return new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error");
}

/** The `after` hooks of the first `entered` layers, innermost first; each failure reported. */
async function unwind(
  layers: readonly Middleware[],
  entered: number,
  call: RequestCall,
  outcome: Outcome,
  report: Report,
): Promise<void> {
  for (let i = entered - 1; i >= 0; i--) {
    const layer = layers[i]!;
    try {
      await layer.after?.(call, outcome);
    } catch (error) {
      report(failureOf(layer, "after", error));
    }
  }
}

function failureOf(layer: Middleware, hook: "before" | "after", error: unknown): Error {
  const name = typeof layer.name === "string" ? `middleware ${layer.name}` : "middleware";
  return new Error(`${name}: its ${hook} hook failed`, { cause: error });
}

/** The call a request's middleware sees. */
export function requestCall(
  ctx: RequestContext,
  params: Record<string, unknown>,
  authInfo: AuthInfo | undefined,
  toolsCall: string | null,
): RequestCall {
  const name = params["name"];
  const args = params["arguments"];
  const tool =
    ctx.method === toolsCall && typeof name === "string"
      ? {
          name,
          arguments:
            typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {},
        }
      : undefined;
  return { method: ctx.method, id: ctx.id, params, principal: ctx.principal, authInfo, tool, ctx };
}
