import { decodeHeaderValue } from "../headers.js";
import { isObject, own, type ProtocolDescriptor } from "../../../core/protocol.js";
import { headerPlan, type HeaderPlan } from "../../../core/tool-headers.js";

// The server side of Mcp-Param-* headers (2026-07-28 transports/streamable-http, "Server
// Behavior for Custom Headers" and "Server Validation"): a tools/call whose tool marks
// arguments with `x-mcp-header` must carry each given (non-null) argument as its
// Mcp-Param-{Name} header, equal to the body's value after decoding; otherwise 400 with
// HeaderMismatch. Which arguments are marked is in the tool's inputSchema, so the server
// lists its own tools (through its tools/list handler, as the caller) and keeps the plans a
// short while, per principal (tool lists may differ between callers).

/** One page of the server's own tools/list, for the caller of the checked request. */
export type ListTools = (
  cursor: string | undefined,
) => Promise<{ tools: unknown[]; nextCursor?: string } | undefined>;

/** Plans are kept this long, for at most this many callers; a listing reads at most this many pages. */
const TTL_MS = 30_000;
const MAX_CALLERS = 1000;
const MAX_PAGES = 20;

/** Whether a decoded header value stands for the body's value (integers compared as numbers). */
function matches(decoded: string, value: unknown): boolean {
  if (typeof value === "string") return decoded === value;
  if (typeof value === "number") return decoded.trim() !== "" && Number(decoded) === value;
  if (typeof value === "boolean") return decoded === String(value);
  return false;
}

/** What a check answers when the caller's plans are not listed yet (or no longer fresh). */
export const NOT_LISTED: unique symbol = Symbol("not listed");

/** What is wrong with a tools/call's Mcp-Param headers by its tool's plan, or undefined. */
function problemOf(
  plan: HeaderPlan | undefined,
  params: Record<string, unknown>,
  header: (name: string) => string | undefined,
): string | undefined {
  // A tool without annotations (or with invalid ones, refused by clients) has nothing to check.
  if (!plan || "invalid" in plan) return undefined;
  const args = isObject(params["arguments"]) ? params["arguments"] : {};
  for (const [property, headerName] of plan.headers) {
    const value = own(args, property);
    const raw = header(`Mcp-Param-${headerName}`);
    // A null or absent argument has no header to expect.
    if (value === undefined || value === null) continue;
    if (raw === undefined) return `missing Mcp-Param-${headerName} header for "${property}"`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Mcp-Param-${headerName} header is not a valid value`;
    if (!matches(decoded, value))
      return `Mcp-Param-${headerName} header does not match the body's "${property}"`;
  }
  return undefined;
}

/** One caller's plans: the listing, and its result once it is in. */
interface KeptPlans {
  readonly at: number;
  readonly plans: Promise<Map<string, HeaderPlan>>;
  listed: Map<string, HeaderPlan> | undefined;
}

export function createToolHeaderChecker() {
  const cache = new Map<string, KeptPlans>();

  async function fetchPlans(list: ListTools): Promise<Map<string, HeaderPlan>> {
    const plans = new Map<string, HeaderPlan>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await list(cursor);
      if (!listed) break;
      for (const tool of listed.tools) {
        if (isObject(tool) && typeof tool["name"] === "string")
          plans.set(tool["name"], headerPlan(tool));
      }
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return plans;
  }

  /** The caller's kept plans while fresh. */
  function fresh(caller: string, now: number): KeptPlans | undefined {
    const kept = cache.get(caller);
    return kept && now - kept.at < TTL_MS ? kept : undefined;
  }

  function plansFor(caller: string, list: ListTools): Promise<Map<string, HeaderPlan>> {
    const now = Date.now();
    const kept = fresh(caller, now);
    if (kept) return kept.plans;
    cache.delete(caller);
    if (cache.size >= MAX_CALLERS) cache.delete(cache.keys().next().value!);
    const entry: KeptPlans = {
      at: now,
      plans: fetchPlans(list)
        .catch(() => new Map<string, HeaderPlan>())
        .then((plans) => (entry.listed = plans)),
      listed: undefined,
    };
    cache.set(caller, entry);
    return entry.plans;
  }

  return {
    /** What is wrong with a tools/call's Mcp-Param headers, or undefined; lists the tools when needed. */
    async check(
      caller: string,
      params: Record<string, unknown>,
      header: (name: string) => string | undefined,
      list: ListTools,
    ): Promise<string | undefined> {
      const name = params["name"];
      if (typeof name !== "string") return undefined;
      return problemOf((await plansFor(caller, list)).get(name), params, header);
    },
    /**
     * The same answer at once, from the caller's plans when they are listed and fresh (the
     * HTTP hot path: no listing, no promise); NOT_LISTED when `check` must list them first.
     */
    checkListed(
      caller: string,
      params: Record<string, unknown>,
      header: (name: string) => string | undefined,
    ): string | undefined | typeof NOT_LISTED {
      const name = params["name"];
      if (typeof name !== "string") return undefined;
      const listed = fresh(caller, Date.now())?.listed;
      return listed ? problemOf(listed.get(name), params, header) : NOT_LISTED;
    },
  };
}

/** How the check reaches the server's own handlers (the HTTP server's dispatcher). */
interface Handler {
  handle(message: unknown, context: { principal?: string; channel?: object }): Promise<unknown>;
}

/**
 * The HTTP server's check of a message's Mcp-Param-* headers: for a tools/call, by its tool's
 * annotations, listed through `dispatcher` as the caller would see them (same `_meta`, same
 * principal); nothing for other messages or revisions without these headers.
 */
export function toolHeaderCheck(protocol: ProtocolDescriptor, dispatcher: Handler) {
  const checker = protocol.features.toolHeaders ? createToolHeaderChecker() : undefined;
  const { toolsCall, toolsList } = protocol.wellKnown;
  /** The server's own tools/list, as the caller of `params` would send it. */
  const listingFor =
    (params: Record<string, unknown>, principal: string | undefined): ListTools =>
    async (cursor) => {
      const meta = isObject(params["_meta"]) ? { _meta: params["_meta"] } : {};
      const request = {
        jsonrpc: "2.0",
        id: "mcp-gen/tool-headers",
        method: toolsList,
        params: { ...meta, ...(cursor ? { cursor } : {}) },
      };
      const context = principal === undefined ? { channel: {} } : { channel: {}, principal };
      const reply = await dispatcher.handle(request, context);
      const result = isObject(reply) && isObject(reply["result"]) ? reply["result"] : undefined;
      if (!result || !Array.isArray(result["tools"])) return undefined;
      const next = result["nextCursor"];
      return { tools: result["tools"], ...(typeof next === "string" ? { nextCursor: next } : {}) };
    };
  /** The problem with a message's Mcp-Param headers: at once when nothing needs listing. */
  return (
    message: Record<string, unknown>,
    principal: string | undefined,
    header: (name: string) => string | undefined,
  ): string | undefined | Promise<string | undefined> => {
    const params = message["params"];
    if (!checker || message["method"] !== toolsCall || !toolsList || !isObject(params))
      return undefined;
    const caller = principal ?? "";
    const known = checker.checkListed(caller, params, header);
    if (known !== NOT_LISTED) return known;
    return checker.check(caller, params, header, listingFor(params, principal));
  };
}
