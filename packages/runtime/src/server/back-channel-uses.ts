import { own, type MethodEntry } from "../core/protocol.js";
import type { Handlers } from "./router-types.js";

// Which handlers use a back-channel during a call: ask the client for input (sampling,
// elicitation, roots) or send it notifications (progress, logs) before answering. A legacy
// serving mode that cannot carry them (Streamable HTTP's JSON responses, stateless serving)
// names these handlers once at start-up, so the loss shows before a client meets it. What is
// known for sure comes from marks: withInput marks the handler it serves, defineTool carries
// its call's uses to its wrapper and defineTools records its tools' by name. A handler without
// a mark is read from its source text, the only record of what plain code sends: a call of
// `inputRequired(`, `.inputResponse(`, `.sendProgress(`, `.notify(` or `.log("<level>"`.
// Property names survive bundlers, so this misses little, but it is a reading, not a proof.

/** What a handler uses of the back-channel during a call. */
export type BackChannelUse = "input" | "notifications";

/** One handler (or one tool of a table) and what it uses. */
export interface HandlerBackChannel {
  /** The method, and for a tool of defineTools its name: `tools/call "research"`. */
  readonly handler: string;
  readonly uses: readonly BackChannelUse[];
}

/** A registry symbol, so two copies of the runtime agree on it (as notImplemented's). */
const USES = Symbol.for("mcp-gen.backChannelUses");

/** A mark: the uses of the function itself, or of each entry of a table, by name. */
type Mark = readonly BackChannelUse[] | { readonly byName: ReadonlyMap<string, Mark> };

/**
 * Marks `fn` (a wrapper) as using what `inner` (the function it runs) uses, and `also`;
 * returns it.
 */
export function inheritBackChannel<F extends object>(
  fn: F,
  inner: unknown,
  also: readonly BackChannelUse[] = [],
): F {
  const of = usesOf(inner);
  const mark: Mark = Array.isArray(of) ? [...new Set([...also, ...of])].sort() : of;
  Object.defineProperty(fn, USES, { value: mark, configurable: true });
  return fn;
}

/** Marks the handler of a table (tools/call of defineTools) with its entries' uses, by name. */
export function markTableBackChannel<F extends object>(
  fn: F,
  entries: Iterable<readonly [string, unknown]>,
): F {
  const byName = new Map<string, Mark>();
  for (const [name, inner] of entries) byName.set(name, usesOf(inner));
  Object.defineProperty(fn, USES, { value: { byName }, configurable: true });
  return fn;
}

function markOf(fn: unknown): Mark | undefined {
  if (typeof fn !== "function") return undefined;
  return (fn as unknown as Record<symbol, Mark | undefined>)[USES];
}

// `inputRequired(...)`, or as compiled imports call it: `(0, module.inputRequired)(...)`.
const INPUT = /\binputRequired\s*\)?\s*\(|\.\s*inputResponse\s*\(/;
const NOTIFICATIONS =
  /\.\s*(?:sendProgress|notify)\s*\(|\.\s*log\s*\(\s*["'`](?:debug|info|notice|warning|error|critical|alert|emergency)["'`]/;

/** What `fn` uses: its mark, else what its source text shows (nothing for a non-function). */
export function usesOf(fn: unknown): Mark {
  const mark = markOf(fn);
  if (mark !== undefined) return mark;
  if (typeof fn !== "function") return [];
  let source: string;
  try {
    source = Function.prototype.toString.call(fn);
  } catch {
    return [];
  }
  const uses: BackChannelUse[] = [];
  if (INPUT.test(source)) uses.push("input");
  if (NOTIFICATIONS.test(source)) uses.push("notifications");
  return uses;
}

/**
 * The request handlers of `handlers` (those `methods` lists as client requests) that use the
 * back-channel during a call, a tool table's tools one by one, in method order.
 */
export function backChannelHandlers(
  handlers: Handlers,
  methods: { readonly [method: string]: MethodEntry },
): HandlerBackChannel[] {
  const found: HandlerBackChannel[] = [];
  const visit = (label: string, mark: Mark) => {
    if (Array.isArray(mark)) {
      if (mark.length > 0) found.push({ handler: label, uses: mark });
      return;
    }
    for (const [name, inner] of (mark as { byName: ReadonlyMap<string, Mark> }).byName)
      visit(`${label} ${JSON.stringify(name)}`, inner);
  };
  for (const [method, entry] of Object.entries(methods)) {
    if (entry.kind !== "request" || !entry.directions.includes("client->server")) continue;
    const handler = own(handlers, method);
    if (handler !== undefined) visit(method, usesOf(handler));
  }
  return found;
}
