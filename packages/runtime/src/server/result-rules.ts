import { errorText } from "../core/errors.js";
import { isObject } from "../core/protocol.js";

// Rules the spec states in prose about what a server answers, which the router applies to
// what handlers give it, so a handler written the obvious way answers as the spec (and the
// SDK servers) do in every era served.

/**
 * The result of a `tools/call` whose handler threw something other than an McpError: a tool
 * execution error, reported in the result with `isError: true` so the model sees it and can
 * correct itself, not a JSON-RPC error (server/tools, "Error Handling": API failures and
 * business logic errors are tool execution errors; unknown tools and malformed requests are
 * protocol errors, which a handler throws as McpError). The SDK servers answer the same:
 * the error's message as the one text content block.
 */
export function toolExecutionError(error: unknown): Record<string, unknown> {
  return {
    content: [{ type: "text", text: errorText(error, UNREADABLE_ERROR_TEXT) }],
    isError: true,
  };
}

/** The text of a tool execution error whose thrown value cannot be read. */
export const UNREADABLE_ERROR_TEXT = "The tool failed (its error could not be read)";

/** server/utilities/completion, "Completion Results": "Maximum 100 items per response". */
export const MAX_COMPLETION_VALUES = 100;

/**
 * A completion/complete result with at most MAX_COMPLETION_VALUES values: the first ones
 * (values are ranked by relevance), `hasMore: true`, and `total` the full count unless the
 * handler gave one, as the SDK servers truncate. Any other result is returned as it is.
 */
export function capCompletion(result: Record<string, unknown>): Record<string, unknown> {
  const completion = result["completion"];
  if (!isObject(completion)) return result;
  const values = completion["values"];
  if (!Array.isArray(values) || values.length <= MAX_COMPLETION_VALUES) return result;
  const capped: Record<string, unknown> = {
    ...completion,
    values: values.slice(0, MAX_COMPLETION_VALUES),
    hasMore: true,
  };
  if (capped["total"] === undefined) capped["total"] = values.length;
  return { ...result, completion: capped };
}
