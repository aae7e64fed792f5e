import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRouter } from "../src/server/router.js";
import { defineTools, type SchemaValidator } from "../src/server/tools.js";
import { defineTool as runtimeDefineTool, type TypedTool } from "../src/server/typed-tools.js";
import type { TypedInputSchema, TypedOutputSchema } from "../src/server/typed-tools.js";
import { validate } from "../../cli/test/support/ajv-validate.js";
import { PROTOCOL, request, VALIDATORS } from "./fixture.js";

// defineTool at run time: Standard Schemas (zod 4, Valibot, ArkType) check arguments and
// structuredContent themselves and write what tools/list lists; JSON Schema literals are
// checked by defineTools' validate, as untyped entries are.

type Any = any;
type Tool = { name: string; inputSchema: { type: "object" }; outputSchema?: object };
type Result = { content: { type: "text"; text: string }[]; structuredContent?: unknown };

/** defineTool bound to small types, as the generated dispatcher binds it to the revision's. */
const defineTool = <
  const In extends TypedInputSchema,
  const Out extends TypedOutputSchema | undefined = undefined,
>(
  entry: TypedTool<Tool, Any, Any, Result, In, Out>,
) => runtimeDefineTool<Tool, Any, Any, Result, In, Out>(entry);

const LIST = { ttlMs: 0, cacheScope: "private" };
const call = (name: string, args?: object) =>
  request("tools/call", 1, { name, ...(args ? { arguments: args } : {}) });
const routerFor = (handlers: object, errors: unknown[] = []) =>
  createRouter(PROTOCOL, VALIDATORS, "client->server", handlers as Any, {
    onError: (e) => errors.push(e),
  });
const text = (t: string) => [{ type: "text" as const, text: t }];
const refused = (tool: string, problems: string) => ({
  content: text(`Input validation error: Invalid arguments for tool ${tool}: ${problems}`),
  isError: true,
  resultType: "complete",
});

const seen: unknown[] = [];
const zodAdd = defineTool({
  tool: {
    name: "add",
    inputSchema: z.object({ a: z.number(), b: z.number().default(10) }),
    outputSchema: z.object({ sum: z.number() }),
  },
  call: (args) => {
    seen.push(args);
    const sum = args.a + args.b;
    // An extra key the schema does not know: zod strips it from what is sent.
    const extra = { secret: "kept out" };
    return { content: text(String(sum)), structuredContent: { sum, ...extra } };
  },
});
const valibotEcho = defineTool({
  tool: {
    name: "echo",
    inputSchema: toStandardJsonSchema(v.object({ says: v.pipe(v.string(), v.minLength(2)) })),
  },
  call: ({ says }) => ({ content: text(says) }),
});
const arkWeather = defineTool({
  tool: {
    name: "weather",
    inputSchema: type({ city: "string", "mode?": "'wrong' | 'fail'" }),
    outputSchema: type({ celsius: "number" }),
  },
  call: ({ city, mode }) => {
    if (mode === "fail") return { content: text("no station"), isError: true };
    // A wrong type reaches the run-time check only through a value typed loosely.
    const celsius: Any = mode === "wrong" ? "warm" : city.length;
    return { content: text(String(celsius)), structuredContent: { celsius } };
  },
});
const jsonGreet = defineTool({
  tool: {
    name: "greet",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string", minLength: 1 } },
      required: ["name"],
    },
    outputSchema: { type: "object", properties: { greeting: { type: "string" } } },
  },
  call: ({ name }) => ({
    content: text(`Hello, ${name}`),
    structuredContent: { greeting: name === "Eve" ? (7 as Any) : `Hello, ${name}` },
  }),
});

describe("defineTool with Standard Schemas: no validate needed", () => {
  const errors: unknown[] = [];
  const router = routerFor(defineTools([zodAdd, valibotEcho, arkWeather], { list: LIST }), errors);

  it("lists the JSON Schema each library writes (2020-12), the rest of the tool as given", async () => {
    const answer: Any = await router.handle(request("tools/list"));
    const [add, echo, weather] = answer.result.tools;
    expect(add).toEqual({
      name: "add",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number", default: 10 } },
        required: ["a"],
      },
      outputSchema: expect.objectContaining({
        type: "object",
        properties: { sum: { type: "number" } },
        required: ["sum"],
      }),
    });
    expect(echo.inputSchema).toMatchObject({
      type: "object",
      properties: { says: { type: "string", minLength: 2 } },
      required: ["says"],
    });
    expect(weather.inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
    expect(weather.outputSchema).toMatchObject({ required: ["celsius"] });
  });

  it("answers arguments a schema refuses as a tool execution error naming each problem, without running the tool", async () => {
    seen.length = 0;
    expect(((await router.handle(call("add", { a: "2" }))) as Any).result).toEqual(
      refused("add", "/a: Invalid input: expected number, received string"),
    );
    expect(((await router.handle(call("echo", { says: "x" }))) as Any).result).toEqual(
      refused("echo", "/says: Invalid length: Expected >=2 but received 1"),
    );
    expect(((await router.handle(call("weather"))) as Any).result).toEqual(
      refused("weather", "/city: city must be a string (was missing)"),
    );
    expect(seen).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("calls with what the schema gives back (defaults applied), and sends structuredContent as it checks it", async () => {
    const answer: Any = await router.handle(call("add", { a: 2 }));
    expect(seen).toEqual([{ a: 2, b: 10 }]);
    expect(answer.result).toEqual({
      content: text("12"),
      structuredContent: { sum: 12 },
      resultType: "complete",
    });
    expect(((await router.handle(call("echo", { says: "hi" }))) as Any).result.content).toEqual(
      text("hi"),
    );
  });

  it("refuses structuredContent its schema refuses (reported, answered as an output validation error); isError results are not checked", async () => {
    expect(((await router.handle(call("weather", { city: "Oslo" }))) as Any).result).toMatchObject({
      structuredContent: { celsius: 4 },
    });
    expect(errors).toEqual([]);
    const wrong: Any = await router.handle(call("weather", { city: "Oslo", mode: "wrong" }));
    expect(wrong.result.isError).toBe(true);
    expect(wrong.result.content[0].text).toBe(
      "Output validation error: Invalid structured content for tool weather: /celsius: celsius must be a number (was a string)",
    );
    expect(errors.map(String)).toEqual([`Error: ${wrong.result.content[0].text}`]);
    errors.length = 0;
    expect(
      ((await router.handle(call("weather", { city: "x", mode: "fail" }))) as Any).result,
    ).toEqual({ content: text("no station"), isError: true, resultType: "complete" });
    expect(errors).toEqual([]);
  });
});

describe("defineTool with JSON Schema literals: checked by validate", () => {
  it("checks arguments and structuredContent with the server's validator", async () => {
    const errors: unknown[] = [];
    const router = routerFor(defineTools([jsonGreet, zodAdd], { validate, list: LIST }), errors);
    expect(((await router.handle(call("greet", { name: "" }))) as Any).result).toEqual(
      refused("greet", "/name must NOT have fewer than 1 characters"),
    );
    expect(((await router.handle(call("greet", { name: "Ada" }))) as Any).result).toMatchObject({
      structuredContent: { greeting: "Hello, Ada" },
    });
    const eve: Any = await router.handle(call("greet", { name: "Eve" }));
    expect(eve.result.content[0].text).toBe(
      "Output validation error: Invalid structured content for tool greet: /greeting must be string",
    );
    // The zod tool beside it is still checked by zod, not by the validator.
    expect(((await router.handle(call("add", { a: "2" }))) as Any).result).toEqual(
      refused("add", "/a: Invalid input: expected number, received string"),
    );
  });

  it("defineTools refuses to start without validate when a tool has a JSON Schema to check", () => {
    expect(() => defineTools([jsonGreet], { list: LIST })).toThrow(
      /defineTools needs `validate` for tool "greet" \(its schemas are JSON Schemas\)/,
    );
    // A copy of a Standard Schema tool is no longer known to check itself: validate checks it.
    expect(() => defineTools([{ ...zodAdd }], { list: LIST })).toThrow(/tool "add"/);
    const mixed = defineTool({
      tool: {
        name: "mixed",
        inputSchema: z.object({}),
        outputSchema: { type: "object", properties: { n: { type: "number" } } },
      },
      call: () => ({ content: [], structuredContent: { n: 1 } }),
    });
    expect(() => defineTools([mixed], { list: LIST })).toThrow(/tool "mixed"/);
    expect(() => defineTools([mixed], { validate: "handler", list: LIST })).not.toThrow();
  });

  it("a copy of a Standard Schema tool is checked by validate against the JSON Schema listed", async () => {
    const router = routerFor(defineTools([{ ...zodAdd }], { validate, list: LIST }));
    expect(((await router.handle(call("add", { a: "2" }))) as Any).result).toEqual(
      refused("add", "/a must be number"),
    );
  });
});

describe("defineTool refuses what it cannot list", () => {
  it("a Standard Schema without Standard JSON Schema, an inputSchema that is not an object's, a missing name or call", () => {
    expect(() =>
      defineTool({
        tool: { name: "plain", inputSchema: v.object({ q: v.string() }) as Any },
        call: () => ({ content: [] }),
      }),
    ).toThrow(
      /tool "plain": its inputSchema \(valibot\) is a Standard Schema without Standard JSON Schema .*toStandardJsonSchema/,
    );
    expect(() =>
      defineTool({
        tool: { name: "str", inputSchema: z.string() as Any },
        call: () => ({ content: [] }),
      }),
    ).toThrow(/tool "str": its inputSchema must describe an object \(it writes type "string"\)/);
    expect(() =>
      defineTool({
        tool: { name: "date", inputSchema: z.object({ at: z.date() }) },
        call: () => ({ content: [] }),
      }),
    ).toThrow(/tool "date": its inputSchema cannot be written as JSON Schema/);
    expect(() => defineTool({ tool: { name: "" } } as Any)).toThrow(/non-empty name/);
    expect(() => defineTool({ tool: { name: "x", inputSchema: {} } } as Any)).toThrow(
      /tool "x" needs a `call` function/,
    );
  });

  it("quotes at most five problems, each cut to 300 characters", async () => {
    const many = defineTool({
      tool: {
        name: "many",
        inputSchema: z.object(
          Object.fromEntries(
            ["a", "b", "c", "d", "e", "f", "g"].map((k) => [k, z.string().max(1, "x".repeat(400))]),
          ),
        ),
      },
      call: () => ({ content: [] }),
    });
    const router = routerFor(defineTools([many], { list: LIST }));
    const args = Object.fromEntries(["a", "b", "c", "d", "e", "f", "g"].map((k) => [k, "long"]));
    const answer: Any = await router.handle(call("many", args));
    const message: string = answer.result.content[0].text;
    expect(message).toMatch(/\(and 2 more\)$/);
    expect(message.split("; ")).toHaveLength(5);
    expect(message).toContain(`/a: ${"x".repeat(300)}...`);
  });
});

// The validator type, so that the import is used as a type too.
export const checked: SchemaValidator = validate;
