import type { Promisable } from "./context.js";
import { JSONRPC_ERRORS, McpError } from "../core/errors.js";

// Completions of prompt arguments and resource template variables (server/utilities/
// completion), kept beside what they complete: each table (prompts.ts, resources.ts) answers
// for its own names, and defineServer (define-server.ts) routes completion/complete to them.

/**
 * Suggests values for one argument (or template variable) from what the user typed so far,
 * `value`; `known` holds the arguments already resolved (the request's `context.arguments`,
 * only those the prompt or template declares). Best first; more than 100 are cut to 100.
 */
export type Completer<Ctx, Known = { readonly [name: string]: string | undefined }> = (
  value: string,
  known: Known,
  ctx: Ctx,
) => Promisable<readonly string[]>;

/** What completion/complete answers. */
export interface Completion {
  completion: { values: string[]; total: number; hasMore: boolean };
}

/** What completion/complete asks a table for. */
export interface CompletionRequest {
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: { readonly [name: string]: string } } | undefined;
}

/** "Maximum 100 items per response" (2026-07-28 server/utilities/completion, "Completion Results"). */
const MAX_VALUES = 100;

/**
 * Runs the completer of `request.argument` among `completers`, the completers of a prompt or
 * template whose argument names are `declared` (`what` names it in errors): -32602 for a name
 * it does not declare, no values for one without a completer.
 */
export async function complete<Ctx>(
  what: string,
  declared: readonly string[],
  completers: { readonly [name: string]: Completer<Ctx> | undefined } | undefined,
  request: CompletionRequest,
  ctx: Ctx,
): Promise<Completion> {
  const { name, value } = request.argument;
  if (!declared.includes(name))
    throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `${what} has no argument ${name}`);
  const completer = Object.prototype.hasOwnProperty.call(completers ?? {}, name)
    ? completers?.[name]
    : undefined;
  if (completer === undefined) return { completion: { values: [], total: 0, hasMore: false } };
  const given = request.context?.arguments ?? {};
  const known: Record<string, string> = {};
  for (const other of declared)
    if (other !== name && typeof given[other] === "string") known[other] = given[other];
  const found = [...(await completer(value, known, ctx))];
  const values = found.slice(0, MAX_VALUES);
  return { completion: { values, total: found.length, hasMore: found.length > values.length } };
}
