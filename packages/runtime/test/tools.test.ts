import { describe, expect, it } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import { createRouter } from "../src/server/router.js";
import type { AdaptedEra } from "../src/core/era.js";
import { defineTools, type SchemaValidator } from "../src/server/tools.js";
import { validate } from "../../cli/test/support/ajv-validate.js";
import { LEGACY_PROTOCOL, PROTOCOL, request, VALIDATORS } from "./fixture.js";

// defineTools: tools/list and tools/call from one table, arguments checked against the tool's
// inputSchema and structuredContent against its outputSchema (server/tools, "Security
// Considerations", "Output Schema", "Error Handling"), with ajv as README recommends.

type Any = any;
const calls: unknown[][] = [];
const add = {
  tool: {
    name: "add",
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
  call: (args: Record<string, unknown>, ctx: Any, params: Any) => {
    calls.push([args, ctx.method, params.name]);
    return {
      content: [{ type: "text", text: String((args["a"] as number) + (args["b"] as number)) }],
    };
  },
};
const weather: Any = {
  tool: {
    name: "weather",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" }, mode: { type: "string" } },
    },
    outputSchema: {
      type: "object",
      properties: { celsius: { type: "number" } },
      required: ["celsius"],
    },
  },
  call: (args: Record<string, unknown>, ctx: Any) => {
    if (args["mode"] === "ask") return inputRequired(PROTOCOL, ctx, { requestState: "again" });
    if (args["mode"] === "fail")
      return { content: [{ type: "text", text: "no station" }], isError: true };
    if (args["mode"] === "none") return { content: [{ type: "text", text: "21" }] };
    const celsius = args["mode"] === "wrong" ? "warm" : 21;
    return {
      content: [{ type: "text", text: JSON.stringify({ celsius }) }],
      structuredContent: { celsius },
    };
  },
};
const LIST = { ttlMs: 0, cacheScope: "private" };
const call = (name: string, args?: object, id = 1) =>
  request("tools/call", id, { name, ...(args ? { arguments: args } : {}) });
const routerFor = (handlers: object, errors: unknown[] = []) =>
  createRouter(PROTOCOL, VALIDATORS, "client->server", handlers as Any, {
    onError: (e) => errors.push(e),
  });

describe("defineTools serves tools/list and tools/call from one table", () => {
  const errors: unknown[] = [];
  const router = routerFor(defineTools([add, weather], { validate, list: LIST }), errors);

  it("lists every tool definition as given, with the list fields", async () => {
    expect(await router.handle(request("tools/list"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [add.tool, weather.tool],
        ttlMs: 0,
        cacheScope: "private",
        resultType: "complete",
      },
    });
  });

  it("runs the entry named with the arguments, the request context and the params", async () => {
    calls.length = 0;
    expect(await router.handle(call("add", { a: 2, b: 3 }))).toMatchObject({
      result: { content: [{ type: "text", text: "5" }] },
    });
    expect(calls).toEqual([[{ a: 2, b: 3 }, "tools/call", "add"]]);
  });

  it("answers an unknown tool with invalid params, as the spec's example and the v2 SDK server do", async () => {
    expect(await router.handle(call("subtract", { a: 1 }))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Tool subtract not found" },
    });
  });

  it("answers arguments that do not conform to inputSchema with a tool execution error, without running the tool", async () => {
    calls.length = 0;
    expect(await router.handle(call("add", { a: "two", b: 3 }))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          {
            type: "text",
            text: "Input validation error: Invalid arguments for tool add: /a must be number",
          },
        ],
        isError: true,
        resultType: "complete",
      },
    });
    // Arguments left out are checked as {}: add's required ones are missing.
    expect(await router.handle(call("add"))).toMatchObject({
      result: {
        content: [
          {
            text: "Input validation error: Invalid arguments for tool add: / must have required property 'a'",
          },
        ],
        isError: true,
      },
    });
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("passes conforming structuredContent, and isError, input_required and outputless results unchecked where they should be", async () => {
    expect(await router.handle(call("weather", { city: "Oslo" }))).toMatchObject({
      result: { structuredContent: { celsius: 21 } },
    });
    expect(await router.handle(call("weather", { mode: "fail" }))).toMatchObject({
      result: { isError: true, content: [{ text: "no station" }] },
    });
    expect(await router.handle(call("weather", { mode: "ask" }))).toMatchObject({
      result: { resultType: "input_required", requestState: "again" },
    });
    expect(errors).toEqual([]);
  });

  it("refuses structuredContent that does not conform, or is missing: the server's bug, told to onError, the model told as the SDK servers tell it", async () => {
    const wrong = await router.handle(call("weather", { mode: "wrong" }));
    expect(wrong).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          {
            type: "text",
            text: "Output validation error: Invalid structured content for tool weather: /celsius must be number",
          },
        ],
        isError: true,
        resultType: "complete",
      },
    });
    expect(JSON.stringify(wrong)).not.toContain("warm");
    expect(await router.handle(call("weather", { mode: "none" }))).toMatchObject({
      result: {
        content: [
          {
            text: "Output validation error: Tool weather has an output schema but no structured content was provided",
          },
        ],
        isError: true,
      },
    });
    expect(errors.map(String)).toEqual([
      "Error: Output validation error: Invalid structured content for tool weather: /celsius must be number",
      "Error: Output validation error: Tool weather has an output schema but no structured content was provided",
    ]);
    errors.length = 0;
  });
});

describe("defineTools' validator", () => {
  it('is required: none is a TypeError, and "handler" leaves checking to each tool', async () => {
    expect(() => defineTools([add], {} as Any)).toThrow(/defineTools needs `validate`/);
    expect(() => defineTools([add], undefined as Any)).toThrow(/defineTools needs `validate`/);
    calls.length = 0;
    const router = routerFor(defineTools([add, weather], { validate: "handler" }));
    expect(await router.handle(call("add", { a: "2", b: 3 }))).toMatchObject({
      result: { content: [{ text: "23" }] },
    });
    expect(await router.handle(call("weather", { mode: "wrong" }))).toMatchObject({
      result: { structuredContent: { celsius: "warm" } },
    });
    expect(calls).toEqual([[{ a: "2", b: 3 }, "tools/call", "add"]]);
  });

  it("is any function returning problems: it gets the tool's schemas, its first five problems are quoted, the rest counted", async () => {
    const seen: [object, unknown][] = [];
    const picky: SchemaValidator = (schema, value) => (
      seen.push([schema, value]),
      ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    );
    const router = routerFor(defineTools([add], { validate: picky }));
    expect(await router.handle(call("add", { a: 1 }))).toMatchObject({
      result: {
        content: [
          {
            text: "Input validation error: Invalid arguments for tool add: p1; p2; p3; p4; p5 (and 2 more)",
          },
        ],
        isError: true,
      },
    });
    expect(seen).toEqual([[add.tool.inputSchema, { a: 1 }]]);
    // A validator that throws (a schema it cannot compile) fails the call: told to onError, shown as the tool's failure.
    const errors: unknown[] = [];
    const broken = routerFor(
      defineTools([add], {
        validate: () => {
          throw new Error("schema is invalid");
        },
      }),
      errors,
    );
    expect(await broken.handle(call("add", { a: 1, b: 1 }))).toMatchObject({
      result: { content: [{ text: "schema is invalid" }], isError: true },
    });
    expect(errors.map(String)).toEqual(["Error: schema is invalid"]);
    const lenient = routerFor(defineTools([add, weather], { validate: () => [] }));
    expect(await lenient.handle(call("add", { a: 1, b: 1 }))).toMatchObject({
      result: { content: [{ text: "2" }] },
    });
  });
});

describe("defineTools' table", () => {
  it("refuses a name defined twice, a tool without a name, an inputSchema or a call", () => {
    expect(() => defineTools([add, { ...add }], { validate })).toThrow(
      'defineTools: tool "add" is defined twice',
    );
    expect(() => defineTools([{ ...add, tool: { ...add.tool, name: "" } }], { validate })).toThrow(
      /non-empty name/,
    );
    expect(() =>
      defineTools([{ ...add, tool: { name: "x", inputSchema: null as Any } }], { validate }),
    ).toThrow('tool "x" needs an inputSchema object');
    expect(() => defineTools([{ tool: add.tool, call: undefined as Any }], { validate })).toThrow(
      'tool "add" needs a `call` function',
    );
  });

  it("serves legacy sessions too: the same handlers, the same answers, without resultType", async () => {
    const handlers = defineTools([add], { validate, list: LIST });
    const era = (p: typeof PROTOCOL): AdaptedEra => ({
      protocol: p,
      validators: VALIDATORS,
      adapters: {},
    });
    const dispatcher = createEraDispatcher(
      { modern: era(PROTOCOL), previous: [], legacy: [era(LEGACY_PROTOCOL)] },
      handlers as Any,
    );
    const channel = {};
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2098-01-01", capabilities: {} },
    };
    expect(await dispatcher.handle(init, { channel })).toMatchObject({
      result: { protocolVersion: "2098-01-01" },
    });
    const legacyCall = (args: object) => ({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "add", arguments: args },
    });
    expect(await dispatcher.handle(legacyCall({ a: 1, b: 2 }), { channel })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "3" }] },
    });
    expect(await dispatcher.handle(legacyCall({ a: 1 }), { channel })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [
          {
            type: "text",
            text: "Input validation error: Invalid arguments for tool add: / must have required property 'b'",
          },
        ],
        isError: true,
      },
    });
  });
});

describe("a number JSON cannot hold (1e400 parses as Infinity)", () => {
  const router = routerFor(defineTools([add, weather], { validate, list: LIST }));
  const refusal = (argument: string) => ({
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32602,
      message: `Invalid params for tools/call: argument ${argument} is not a finite number (JSON has no Infinity: 1e400 overflows to it)`,
    },
  });

  it("is refused as invalid params naming the argument, before the tool runs, not blamed on its output", async () => {
    calls.length = 0;
    // As a client's text: JSON.parse reads 1e400 as Infinity.
    const text = (args: string) => JSON.stringify(call("add", { a: 0 })).replace('{"a":0}', args);
    expect(await router.handleText!(text('{"a":1e400,"b":1}'))).toEqual(refusal("/a"));
    expect(await router.handleText!(text('{"a":1,"b":2,"more":[0,{"x":-1e400}]}'))).toEqual(
      refusal("/more/1/x"),
    );
    expect(calls).toEqual([]);
  });

  it('is refused by handler-checked tools too (validate: "handler")', async () => {
    const echo = {
      tool: { name: "echo", inputSchema: { type: "object" } },
      call: (args: Record<string, unknown>) => ({
        content: [{ type: "text", text: String(args["n"]) }],
      }),
    };
    const own = routerFor(defineTools([echo], { validate: "handler", list: LIST }));
    expect(await own.handle(call("echo", { n: Infinity }))).toEqual({
      ...refusal("/n"),
    });
  });
});
