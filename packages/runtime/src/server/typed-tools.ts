import type { Promisable } from "./context.js";
import type { FromJsonSchema } from "./json-schema-types.js";
import {
  isStandardSchema,
  standardJsonSchema,
  standardValidate,
  type StandardInput,
  type StandardOutput,
  type StandardSchemaV1,
  type StandardToolSchema,
} from "./standard-schema.js";
import { checkedOutput, inputRefusal, quoted, SELF_CHECKED } from "./tool-checks.js";
import { inheritBackChannel } from "./back-channel-uses.js";
import type { ToolDefinition, ToolShape } from "./tools.js";

// One tool whose types come from its schemas, for defineTools' table: `call` gets arguments
// of the type its inputSchema describes, and must answer structuredContent of the type its
// outputSchema describes (a compile error otherwise; it is still checked at run time, as the
// spec asks: "Servers MUST provide structured results that conform", 2026-07-28 server/tools,
// "Output Schema"). A schema is a JSON Schema literal (checked by defineTools' `validate`) or
// a Standard Schema that writes JSON Schema (zod 4, ArkType, Valibot through
// toStandardJsonSchema), which checks the values itself and writes what tools/list lists.

/**
 * What a typed tool's inputSchema may be: an object's JSON Schema literal, or a Standard Schema
 * that writes JSON Schema. (A schema library's object that is not a Standard JSON Schema, say a
 * Valibot object with its `type: "object"`, is neither.)
 */
export type TypedInputSchema =
  { readonly type: "object"; readonly "~standard"?: never } | StandardToolSchema;

/** What a typed tool's outputSchema may be: a JSON Schema literal, or a Standard Schema that writes JSON Schema. */
export type TypedOutputSchema =
  { readonly [keyword: string]: unknown; readonly "~standard"?: never } | StandardToolSchema;

/** The arguments `call` gets for inputSchema `In`: what the schema library gives back, or what the JSON Schema describes. */
export type ToolArguments<In> = In extends StandardSchemaV1
  ? StandardOutput<In>
  : FromJsonSchema<In>;

/** The structuredContent a tool with outputSchema `Out` answers. */
export type ToolStructuredContent<Out> = Out extends StandardSchemaV1
  ? StandardInput<Out>
  : FromJsonSchema<Out>;

/**
 * `Result` (a union of what tools/call may answer) for a tool with outputSchema `Out`: its
 * complete results carry structuredContent of the schema's type, unless they are errors
 * (`isError: true`), which need none. Without an outputSchema, `Result` as it is.
 */
export type TypedToolResult<Result, Out> = [Out] extends [undefined]
  ? Result
  : WithStructuredContent<Result, ToolStructuredContent<Out>>;

type WithStructuredContent<Member, Content> = Member extends { content: unknown }
  ? (Member & { structuredContent: Content; isError?: false }) | (Member & { isError: true })
  : Member;

/** A tool definition's fields other than its schemas (name, description, annotations, ...). */
export type ToolFields<Tool> = {
  [K in keyof Tool as K extends "inputSchema" | "outputSchema" ? never : K]: Tool[K];
};

/** A typed tool, as defineTool takes it: the tool's fields with its schemas, and `call`. */
export interface TypedTool<Tool extends ToolShape, Ctx, Params, Result, In, Out> {
  /** Listed by tools/list, with each Standard Schema written as JSON Schema. */
  readonly tool: ToolFields<Tool> & {
    readonly inputSchema: In;
    readonly outputSchema?: Out;
  };
  /** Runs the tool on arguments that conform to its inputSchema. */
  readonly call: (
    args: ToolArguments<In>,
    ctx: Ctx,
    params: Params,
  ) => Promisable<TypedToolResult<Result, Out>>;
}

/** The JSON Schema listed for a Standard Schema; throws naming the tool when it writes none. */
function listedSchema(name: string, schema: StandardSchemaV1, io: "input" | "output"): object {
  const field = io === "input" ? "inputSchema" : "outputSchema";
  let written: Record<string, unknown> | undefined;
  try {
    written = standardJsonSchema(schema, io);
  } catch (error) {
    throw new TypeError(
      `defineTool: tool "${name}": its ${field} cannot be written as JSON Schema: ${String(error)}`,
      { cause: error },
    );
  }
  if (written === undefined)
    throw new TypeError(
      `defineTool: tool "${name}": its ${field} (${schema["~standard"].vendor}) is a Standard Schema without Standard JSON Schema (~standard.jsonSchema): use a library version that has it (zod 4.2, ArkType 2.1.20 or later), or wrap a Valibot schema with toStandardJsonSchema from @valibot/to-json-schema`,
    );
  // "inputSchema MUST be a valid JSON Schema object (not null)" with `type: "object"` at its
  // root (2026-07-28 server/tools, "Tool"): tool arguments are always an object.
  if (io === "input" && written["type"] !== "object")
    throw new TypeError(
      `defineTool: tool "${name}": its inputSchema must describe an object (it writes type ${JSON.stringify(written["type"])})`,
    );
  return written;
}

/**
 * One tool for defineTools' table, its argument and structuredContent types inferred from its
 * schemas (the generated dispatcher's defineTool binds Tool, Ctx, Params and Result to the
 * revision). A Standard Schema checks the arguments before `call` runs (invalid ones are
 * answered as a tool execution error naming the problems, as defineTools answers them) and
 * `call` gets what the schema gives back (its defaults and transforms applied); it checks
 * structuredContent too, and what it gives back is what is sent. JSON Schema literals are
 * checked by defineTools' `validate`. Throws a TypeError for a Standard Schema that cannot
 * write itself as JSON Schema, or an inputSchema that does not describe an object.
 */
export function defineTool<Tool extends ToolShape, Ctx, Params, Result, In, Out>(
  entry: TypedTool<Tool, Ctx, Params, Result, In, Out>,
): ToolDefinition<Tool, Ctx, Params, Result> {
  const { tool, call } = entry ?? {};
  const name = typeof tool?.name === "string" ? tool.name : "";
  if (name === "")
    throw new TypeError("defineTool: the entry needs a `tool` with a non-empty name");
  if (typeof call !== "function")
    throw new TypeError(`defineTool: tool "${name}" needs a \`call\` function`);
  const input: unknown = tool.inputSchema;
  const output: unknown = tool.outputSchema;
  const inputStandard = isStandardSchema(input) ? input : undefined;
  const outputStandard = isStandardSchema(output) ? output : undefined;
  const listed = {
    ...tool,
    ...(inputStandard && { inputSchema: listedSchema(name, inputStandard, "input") }),
    ...(outputStandard && { outputSchema: listedSchema(name, outputStandard, "output") }),
  } as unknown as Tool;
  const typedCall = call as (args: unknown, ctx: Ctx, params: Params) => Promisable<unknown>;
  const definition: ToolDefinition<Tool, Ctx, Params, Result> = {
    tool: listed,
    call: async (args, ctx, params) => {
      let value: unknown = args;
      if (inputStandard) {
        const checked = await standardValidate(inputStandard, args);
        if (!checked.ok) return inputRefusal(name, quoted(checked.problems)!) as Result;
        value = checked.value;
      }
      const result = await typedCall(value, ctx, params);
      if (!outputStandard) return result as Result;
      return (await checkedOutput(name, result, (sent) =>
        standardValidate(outputStandard, sent),
      )) as Result;
    },
  };
  // What the call asks and sends, for the start-up list of a mode without a back-channel.
  inheritBackChannel(definition.call, call);
  SELF_CHECKED.set(definition, {
    input: inputStandard !== undefined,
    output: outputStandard !== undefined,
  });
  return definition;
}
