// Type-level tests of typed tools and typed request state: `npm run typecheck` type-checks this
// file (tsconfig.test.json), so a wrong inferred type, or a `@ts-expect-error` line that no
// longer errs (a negative test passing), fails it. vitest runs it too, for the few run-time
// facts. defineTool is bound here to types shaped as a revision's (2026-07-28: a Tool whose
// inputSchema has `type: "object"`, results with index signatures, input_required and
// extension results in the union), as the generated dispatcher binds it;
// packages/cli/test/dispatcher-revisions.test.ts checks the generated binding itself.
import type {
  StandardJSONSchemaV1 as SpecJSONSchema,
  StandardSchemaV1 as SpecSchema,
} from "@standard-schema/spec";
import {
  defineTool as runtimeDefineTool,
  openStateFor,
  sealStateFor,
  type FromJsonSchema,
  type StandardSchemaV1,
  type StandardToolSchema,
  type StateContext,
  type TypedInputSchema,
  type TypedOutputSchema,
  type TypedTool,
} from "@mcp-gen/runtime/server";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { validate } from "./support/ajv-validate.js";

interface Result {
  _meta?: { [key: string]: unknown };
  resultType: string;
  [key: string]: unknown;
}
interface CallToolResult extends Result {
  content: { type: "text"; text: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}
interface InputRequiredResult extends Result {
  requestState?: string;
}
interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { $schema?: string; type: "object"; [key: string]: unknown };
  outputSchema?: { $schema?: string; [key: string]: unknown };
  annotations?: { readOnlyHint?: boolean };
}
/** As the generated dispatcher's HandlerResult: `resultType` optional, the other keys kept. */
type HandlerResult<R> = { [K in keyof R as K extends "resultType" ? never : K]: R[K] } & {
  resultType?: "complete";
};
type ToolsCallResult = HandlerResult<CallToolResult> | InputRequiredResult;
interface Ctx {
  method: string;
}

/** defineTool as the generated dispatcher writes it, bound to the types above. */
function defineTool<
  const In extends TypedInputSchema,
  const Out extends TypedOutputSchema | undefined = undefined,
>(entry: TypedTool<Tool, Ctx, { name: string }, ToolsCallResult, In, Out>) {
  return runtimeDefineTool<Tool, Ctx, { name: string }, ToolsCallResult, In, Out>(entry);
}

const text = (t: string) => [{ type: "text" as const, text: t }];

describe("arguments and structuredContent inferred from Standard Schemas", () => {
  it("zod 4: the output type (defaults applied) as arguments, the input type as structuredContent", () => {
    defineTool({
      tool: {
        name: "add",
        annotations: { readOnlyHint: true },
        inputSchema: z.object({
          a: z.number(),
          b: z.number().default(1),
          tag: z.string().optional(),
        }),
        outputSchema: z.object({ sum: z.number() }),
      },
      call: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number; tag?: string | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<Ctx>();
        return { content: text(""), structuredContent: { sum: args.a + args.b } };
      },
    });
    defineTool({
      tool: { name: "add", inputSchema: z.object({ a: z.number() }) },
      // @ts-expect-error a number used as a string
      call: ({ a }) => ({ content: text(a.toUpperCase()) }),
    });
    defineTool({
      tool: { name: "add", inputSchema: z.object({ a: z.number() }) },
      // @ts-expect-error an argument the schema does not have
      call: ({ b }) => ({ content: text(String(b)) }),
    });
    defineTool({
      tool: {
        name: "add",
        inputSchema: z.object({ a: z.number() }),
        outputSchema: z.object({ sum: z.number() }),
      },
      // @ts-expect-error structuredContent of the wrong type
      call: ({ a }) => ({ content: text(""), structuredContent: { sum: String(a) } }),
    });
    defineTool({
      tool: { name: "add", inputSchema: z.object({}), outputSchema: z.object({ sum: z.number() }) },
      // @ts-expect-error structuredContent missing from a successful result
      call: () => ({ content: text("") }),
    });
    // An error result needs no structuredContent; input_required answers need none either.
    defineTool({
      tool: { name: "add", inputSchema: z.object({}), outputSchema: z.object({ sum: z.number() }) },
      call: (_args, ctx) =>
        ctx.method === "x"
          ? { content: text("failed"), isError: true }
          : { resultType: "input_required", requestState: "s" },
    });
  });

  it("Valibot, through toStandardJsonSchema", () => {
    const input = toStandardJsonSchema(
      v.object({ query: v.string(), limit: v.optional(v.number(), 10) }),
    );
    const output = toStandardJsonSchema(v.object({ hits: v.array(v.string()) }));
    defineTool({
      tool: { name: "search", inputSchema: input, outputSchema: output },
      call: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ query: string; limit: number }>();
        return { content: text(""), structuredContent: { hits: [args.query] } };
      },
    });
    defineTool({
      tool: { name: "search", inputSchema: input },
      // @ts-expect-error a string used as a number
      call: ({ query }) => ({ content: text(query.toFixed()) }),
    });
    defineTool({
      tool: { name: "search", inputSchema: input, outputSchema: output },
      // @ts-expect-error structuredContent of the wrong type
      call: ({ query }) => ({ content: text(""), structuredContent: { hits: query } }),
    });
    // A Valibot schema as it is writes no JSON Schema: not a tool schema.
    // (and at run time, defineTool throws for it)
    expect(() =>
      defineTool({
        // @ts-expect-error a Standard Schema without ~standard.jsonSchema
        tool: { name: "plain", inputSchema: v.object({}) },
        call: () => ({ content: [] }),
      }),
    ).toThrow(/without Standard JSON Schema/);
  });

  it("ArkType", () => {
    const input = type({ city: "string", "days?": "1 <= number.integer <= 7" });
    defineTool({
      tool: { name: "weather", inputSchema: input, outputSchema: type({ celsius: "number" }) },
      call: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number }>();
        return { content: text(""), structuredContent: { celsius: args.days ?? 0 } };
      },
    });
    defineTool({
      tool: { name: "weather", inputSchema: input },
      // @ts-expect-error days may be missing
      call: ({ days }) => ({ content: text(days.toFixed()) }),
    });
    defineTool({
      tool: { name: "weather", inputSchema: input, outputSchema: type({ celsius: "number" }) },
      // @ts-expect-error structuredContent of the wrong type
      call: ({ city }) => ({ content: text(""), structuredContent: { celsius: city } }),
    });
  });

  it("the copied Standard Schema interfaces are @standard-schema/spec's, both ways", () => {
    expectTypeOf<StandardSchemaV1<{ a: 1 }, { b: 2 }>>().toExtend<SpecSchema<{ a: 1 }, { b: 2 }>>();
    expectTypeOf<SpecSchema<{ a: 1 }, { b: 2 }>>().toExtend<StandardSchemaV1<{ a: 1 }, { b: 2 }>>();
    expectTypeOf<SpecSchema<number> & SpecJSONSchema<number>>().toExtend<
      StandardToolSchema<number>
    >();
    expectTypeOf<StandardToolSchema<number>>().toExtend<SpecJSONSchema<number>>();
  });
});

describe("arguments and structuredContent inferred from JSON Schema literals", () => {
  it("objects, required, enum, const, arrays, nested objects", () => {
    const schema = {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1 },
        kind: { enum: ["web", "news"] },
        version: { const: 2 },
        tags: { type: "array", items: { type: "string" } },
        pair: {
          type: "array",
          prefixItems: [{ type: "number" }, { type: "boolean" }],
          items: false,
        },
        where: {
          type: "object",
          properties: { lat: { type: "number" }, near: { type: ["string", "null"] } },
          required: ["lat"],
        },
        anything: {},
      },
      required: ["query", "kind"],
    } as const;
    expectTypeOf<FromJsonSchema<typeof schema>>().toEqualTypeOf<{
      query: string;
      kind: "web" | "news";
      version?: 2;
      tags?: string[];
      pair?: [number, boolean];
      where?: { lat: number; near?: string | null };
      anything?: unknown;
    }>();
    // A value of the type is one the schema accepts (and a value it refuses is no such value).
    const value: FromJsonSchema<typeof schema> = {
      query: "mcp",
      kind: "news",
      pair: [1, true],
      where: { lat: 1, near: null },
    };
    expect(validate(schema, value)).toBeUndefined();
    // @ts-expect-error kind is one of the enum's values
    expect(validate(schema, { ...value, kind: "blog" } satisfies typeof value)).toHaveLength(1);
  });

  it("unions (anyOf, oneOf, merged with the keywords beside them), allOf, $defs and $ref", () => {
    const schema = {
      type: "object",
      properties: {
        id: { anyOf: [{ type: "string" }, { type: "integer" }] },
        shape: {
          oneOf: [
            { type: "object", properties: { circle: { type: "number" } }, required: ["circle"] },
            { type: "object", properties: { side: { type: "number" } }, required: ["side"] },
          ],
        },
        from: { $ref: "#/$defs/Place" },
        to: { $ref: "#/definitions/Place" },
        both: {
          allOf: [
            { $ref: "#/$defs/Place" },
            { type: "object", properties: { at: { type: "string" } } },
          ],
        },
      },
      required: ["id", "from"],
      $defs: {
        Place: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
      definitions: { Place: { type: "object", properties: { town: { type: "string" } } } },
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    const value: Args = { id: 7, shape: { side: 2 }, from: { city: "Oslo" }, to: {} };
    expect(validate(schema, value)).toBeUndefined();
    expectTypeOf<Args["id"]>().toEqualTypeOf<string | number>();
    expectTypeOf<NonNullable<Args["shape"]>>().toEqualTypeOf<
      { circle: number } | { side: number }
    >();
    expectTypeOf<Args["from"]>().toEqualTypeOf<{ city: string }>();
    expectTypeOf<NonNullable<Args["to"]>>().toEqualTypeOf<{ town?: string }>();
    expectTypeOf<NonNullable<Args["both"]>>().toExtend<{ city: string; at?: string }>();
    // additionalProperties: a schema (or true) lets other keys in; a bare object is a record.
    expectTypeOf<
      FromJsonSchema<{
        type: "object";
        properties: { a: { type: "string" } };
        additionalProperties: true;
      }>
    >().toEqualTypeOf<{ a?: string; [key: string]: unknown }>();
    expectTypeOf<FromJsonSchema<{ type: "object" }>>().toEqualTypeOf<{ [key: string]: unknown }>();
  });

  it("typed tools from literals written inline (no `as const` needed) or declared `as const`", () => {
    const output = {
      type: "object",
      properties: { n: { type: "integer" } },
      required: ["n"],
    } as const;
    defineTool({
      tool: {
        name: "count",
        inputSchema: {
          type: "object",
          properties: { word: { type: "string" }, mode: { enum: ["fast", "exact"] } },
          required: ["word"],
        },
        outputSchema: output,
      },
      call: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ word: string; mode?: "fast" | "exact" }>();
        return { content: text(""), structuredContent: { n: args.word.length } };
      },
    });
    defineTool({
      tool: {
        name: "count",
        inputSchema: {
          type: "object",
          properties: { word: { type: "string" } },
          required: ["word"],
        },
      },
      // @ts-expect-error a string used as a number
      call: ({ word }) => ({ content: text(word.toFixed()) }),
    });
    defineTool({
      tool: {
        name: "count",
        inputSchema: { type: "object", properties: { word: { type: "string" } } },
      },
      // @ts-expect-error an argument the schema does not declare
      call: (args) => ({ content: text(String(args.other)) }),
    });
    defineTool({
      tool: { name: "count", inputSchema: { type: "object" }, outputSchema: output },
      // @ts-expect-error structuredContent of the wrong type
      call: () => ({ content: text(""), structuredContent: { n: "one" } }),
    });
    defineTool({
      // @ts-expect-error tool arguments are an object: the inputSchema must say so
      tool: { name: "x", inputSchema: { type: "array" } },
      call: () => ({ content: [] }),
    });
  });
});

describe("typed request state", () => {
  it("keeps its type through seal and open, from a schema or a type parameter", async () => {
    const ctx: StateContext = {
      principal: undefined,
      request: { method: "m", params: {} },
      requestState: undefined,
    };
    const secret = "a secret of at least sixteen bytes";
    const zodState = z.object({ size: z.enum(["s", "l"]) });
    expectTypeOf(openStateFor(ctx, { secret, schema: zodState })).resolves.toEqualTypeOf<
      { size: "s" | "l" } | undefined
    >();
    const literal = {
      type: "object",
      properties: { asked: { const: "name" } },
      required: ["asked"],
    } as const;
    expectTypeOf(openStateFor(ctx, { secret, schema: literal, validate })).resolves.toEqualTypeOf<
      { asked: "name" } | undefined
    >();
    expectTypeOf(openStateFor<{ n: number }>(ctx, { secret })).resolves.toEqualTypeOf<
      { n: number } | undefined
    >();
    expectTypeOf(openStateFor(ctx, { secret })).resolves.toEqualTypeOf<unknown>();
    // @ts-expect-error a JSON Schema literal needs the validator that checks it
    await expect(openStateFor(ctx, { secret, schema: literal })).rejects.toThrow(
      /needs `validate`/,
    );
    void sealStateFor(ctx, { size: "s" }, { secret, schema: zodState });
    // @ts-expect-error state of another shape than its schema's
    void sealStateFor(ctx, { size: "m" }, { secret, schema: zodState });
    // @ts-expect-error state of another shape than its schema's
    void sealStateFor(ctx, { asked: "age" }, { secret, schema: literal });
  });
});
