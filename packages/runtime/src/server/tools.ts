import type { Promisable } from "./context.js";
import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { isObject } from "../core/protocol.js";
import { markTableBackChannel } from "./back-channel-uses.js";
import {
  checkedOutput,
  inputRefusal,
  nonFiniteAt,
  nonFiniteRefusal,
  quoted,
  SELF_CHECKED,
  type Checked,
} from "./tool-checks.js";

// Tools served from one table: tools/list answers its definitions and tools/call runs the
// entry named, so the two cannot drift apart. Arguments are checked against the tool's
// inputSchema, and structuredContent against its outputSchema, by a JSON Schema validator
// the server gives (this module has no dependencies, and validating arbitrary schemas is a
// library's job): "Servers MUST validate all tool inputs" and "MUST provide structured
// results that conform to" the output schema (2026-07-28 server/tools, "Security
// Considerations" and "Output Schema"). Method names and shapes are the same in every
// revision, so the handlers serve modern and legacy sessions alike.

/**
 * Checks `value` against the JSON Schema `schema`: the problems found, each one readable line
 * (empty or undefined when it conforms). It may throw for a schema it cannot compile.
 */
export type SchemaValidator = (schema: object, value: unknown) => readonly string[] | undefined;

/** What this module reads of a tool definition (it lists the whole definition as given). */
export interface ToolShape {
  readonly name: string;
  readonly inputSchema: object;
  readonly outputSchema?: object;
}

/** What this module reads of tools/call params. */
export interface ToolCallParams {
  readonly name: string;
  readonly arguments?: { readonly [key: string]: unknown } | undefined;
}

/** One tool: its definition, as tools/list lists it, and what tools/call runs for it. */
export interface ToolDefinition<Tool extends ToolShape, Ctx, Params, Result> {
  readonly tool: Tool;
  /** Runs the tool on arguments that conform to its inputSchema (unless validate is "handler"). */
  readonly call: (args: Record<string, unknown>, ctx: Ctx, params: Params) => Promisable<Result>;
}

export interface DefineToolsOptions<ListFields extends object = object> {
  /**
   * How arguments (and structured results) are checked against JSON Schemas: a JSON Schema
   * validator (see SchemaValidator), or "handler": each tool's `call` checks its own arguments
   * and structuredContent, and nothing is checked for it. A tool made by defineTool with a
   * Standard Schema (zod, Valibot, ArkType) is checked by that schema instead, whatever this
   * says. Required as soon as one tool has a JSON Schema to check (defineTools throws
   * without it), so that no server goes without validation by omission.
   */
  readonly validate?: SchemaValidator | "handler" | undefined;
  /** Put into every tools/list result beside `tools` (ttlMs and cacheScope where required). */
  readonly list?: ListFields;
}

/** The tools/list and tools/call handlers of a table of tools (spread them into the handlers). */
export interface ToolHandlers<Tool, Ctx, Params, Result, ListFields> {
  readonly "tools/list": (params: unknown, ctx: Ctx) => { tools: Tool[] } & ListFields;
  readonly "tools/call": (params: Params, ctx: Ctx) => Promise<Result>;
}

/** `validate` as a check of one value against `schema`. */
const schemaCheck =
  (validate: SchemaValidator, schema: object) =>
  async (value: unknown): Promise<Checked> => {
    const problems = validate(schema, value);
    return problems === undefined || problems.length === 0
      ? { ok: true, value }
      : { ok: false, problems };
  };

/**
 * The tools/list and tools/call handlers serving `definitions`. tools/call answers:
 * - an unknown tool name: JSON-RPC error -32602 `Tool <name> not found` (a protocol error in
 *   server/tools, "Error Handling"; the v2 SDK server sends the same);
 * - arguments that do not conform to inputSchema: a tool execution error (`isError: true`,
 *   `Input validation error: Invalid arguments for tool <name>: ...`), which the model can
 *   correct (2025-11-25 and 2026-07-28 "Error Handling": input validation errors are tool
 *   execution errors; 2025-06-18 and earlier called invalid arguments protocol errors, but
 *   handlers are shared by every era, and both SDK servers answer isError in all of them);
 * - a complete result whose structuredContent is missing or does not conform to outputSchema:
 *   an Error thrown to the router, which reports it (onError) and answers it as a tool
 *   execution error with its message (`Output validation error: ...`), as the SDK servers do;
 *   the non-conforming content is not sent. What is checked is what is sent: the JSON form
 *   of structuredContent (an inherited property is not there, a Date is a string), which
 *   the result then carries. isError results, input_required answers and extension results
 *   (a task handle) are not checked; the router refuses any other resultType.
 * Arguments left out are checked as `{}`, as the SDK servers do.
 */
export function defineTools<
  Tool extends ToolShape,
  Ctx,
  Params extends ToolCallParams,
  Result,
  ListFields extends object = object,
>(
  definitions: readonly ToolDefinition<Tool, Ctx, Params, Result>[],
  options: DefineToolsOptions<ListFields>,
): ToolHandlers<Tool, Ctx, Params, Result, ListFields> {
  const { validate } = options ?? {};
  if (validate !== undefined && validate !== "handler" && typeof validate !== "function")
    throw new TypeError(
      'defineTools: `validate` must be a JSON Schema validator, or "handler" when each tool checks its own arguments',
    );
  const byName = new Map<string, ToolDefinition<Tool, Ctx, Params, Result>>();
  for (const definition of definitions) {
    const { tool, call } = definition ?? {};
    if (!isObject(tool) || typeof tool.name !== "string" || tool.name === "")
      throw new TypeError("defineTools: each entry needs a `tool` with a non-empty name");
    if (byName.has(tool.name))
      throw new TypeError(`defineTools: tool "${tool.name}" is defined twice`);
    // "inputSchema MUST be a valid JSON Schema object (not null)" (2026-07-28 server/tools, "Tool").
    if (!isObject(tool.inputSchema))
      throw new TypeError(`defineTools: tool "${tool.name}" needs an inputSchema object`);
    if (typeof call !== "function")
      throw new TypeError(`defineTools: tool "${tool.name}" needs a \`call\` function`);
    const self = SELF_CHECKED.get(definition);
    const needsValidate = !self?.input || (tool.outputSchema !== undefined && !self.output);
    if (validate === undefined && needsValidate)
      throw new TypeError(
        `defineTools needs \`validate\` for tool "${tool.name}" (its schemas are JSON Schemas): a JSON Schema validator, or "handler" when each tool checks its own arguments`,
      );
    byName.set(tool.name, definition);
  }
  const tools = [...byName.values()].map((d) => d.tool);
  const listFields = options?.list ?? ({} as ListFields);

  const call: ToolHandlers<Tool, Ctx, Params, Result, ListFields>["tools/call"] = async (
    params,
    ctx,
  ) => {
    const definition = byName.get(params.name);
    if (definition === undefined)
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `Tool ${params.name} not found`);
    const { tool } = definition;
    const args = params.arguments ?? {};
    const nonFinite = nonFiniteAt(args);
    if (nonFinite !== undefined)
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, nonFiniteRefusal(nonFinite));
    // A definition made by defineTool with a Standard Schema checks that part itself.
    const self = SELF_CHECKED.get(definition);
    const byValidate = typeof validate === "function" ? validate : undefined;
    if (byValidate && !self?.input) {
      const wrong = quoted(byValidate(tool.inputSchema, args));
      if (wrong !== undefined) return inputRefusal(tool.name, wrong) as Result;
    }
    const result = await definition.call({ ...args }, ctx, params);
    if (!byValidate || self?.output || tool.outputSchema === undefined) return result;
    return (await checkedOutput(
      tool.name,
      result,
      schemaCheck(byValidate, tool.outputSchema),
    )) as Result;
  };
  // Each tool's uses by name, for the start-up list of a mode without a back-channel.
  const calls = [...byName].map(([name, d]) => [name, d.call] as const);
  return {
    "tools/list": () => ({ ...listFields, tools: [...tools] }),
    "tools/call": markTableBackChannel(call, calls),
  };
}
