import { describe, expect, it } from "vitest";
import type { AdaptedEra } from "../src/core/era.js";
import type { MessageValidators, ProtocolDescriptor } from "../src/core/protocol.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import { jsonForm } from "../src/server/json-form.js";
import { createRouter } from "../src/server/router.js";
import { defineTools } from "../src/server/tools.js";
import { validate } from "../../cli/test/support/ajv-validate.js";
import { LEGACY_PROTOCOL, PROTOCOL, request, VALIDATORS } from "./fixture.js";

// Results a handler writes itself, not through the runtime's helpers, are held to the rules
// the helpers keep: a resultType the revision defines (2026-07-28 basic/index, "ResultType"),
// input requests the client declared (basic/patterns/mrtr, "Server Requirements"), and what
// is checked is what is sent (JSON.stringify keeps own enumerable properties only).

type Any = any;

// A revision whose input requests include roots/list, gated by the client's `roots`.
const ROOTS: ProtocolDescriptor = {
  ...PROTOCOL,
  inputRequests: {
    ...PROTOCOL.inputRequests,
    "roots/list": { capability: { path: ["roots"], leaf: "object" } },
  },
};
const PREVIOUS: AdaptedEra = {
  protocol: { ...ROOTS, revision: "previous", protocolVersion: "2098-06-01" },
  validators: VALIDATORS,
  adapters: {},
};
// Initialize-based revisions have no code for a missing client capability.
const LEGACY: AdaptedEra = {
  protocol: {
    ...LEGACY_PROTOCOL,
    errorCodes: { ...LEGACY_PROTOCOL.errorCodes, missingClientCapability: null },
  },
  validators: VALIDATORS,
  adapters: {},
};

const weather = {
  tool: {
    name: "weather",
    inputSchema: { type: "object" },
    outputSchema: {
      type: "object",
      properties: { celsius: { type: "number" }, at: { type: "string" } },
      required: ["celsius"],
    },
  },
  call: (args: Record<string, unknown>): unknown => answers[args["mode"] as string]?.(),
};
const rootsRequest = { method: "roots/list" };
const answers: Record<string, () => unknown> = {
  zzz: () => ({ content: [], structuredContent: { celsius: "warm" }, resultType: "zzz" }),
  number: () => ({ content: [], structuredContent: { celsius: 21 }, resultType: 7 }),
  inherited: () => ({ content: [], structuredContent: Object.create({ celsius: 21 }) }),
  hidden: () => ({
    content: [],
    structuredContent: Object.defineProperty({}, "celsius", { value: 21 }),
  }),
  date: () => ({ content: [], structuredContent: { celsius: 21, at: new Date(0) } }),
  roots: () => ({ resultType: "input_required", inputRequests: { r: rootsRequest } }),
};
const tools = defineTools([weather], { validate });
const call = (mode: string, caps: object = {}, v = "2099-01-01") => ({
  ...request("tools/call", 1, { name: "weather", arguments: { mode } }),
  params: { name: "weather", arguments: { mode }, _meta: { v, caps } },
});
const routerFor = (errors: unknown[], validators: MessageValidators = VALIDATORS) =>
  createRouter(ROOTS, validators, "client->server", tools as Any, {
    onError: (e) => errors.push(e),
  });
const INTERNAL = { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } };

describe("a resultType the revision does not define", () => {
  it("is refused as any invalid result: -32603 to the client, the reason to onError", async () => {
    const errors: unknown[] = [];
    const router = routerFor(errors);
    const zzz = await router.handle(call("zzz"));
    expect(zzz).toEqual(INTERNAL);
    expect(JSON.stringify(zzz)).not.toContain("warm");
    expect(await router.handle(call("number"))).toEqual(INTERNAL);
    expect(errors.map(String)).toEqual([
      'TypeError: tools/call answered resultType "zzz", which revision test does not define',
      "TypeError: tools/call answered resultType of type number, which revision test does not define",
    ]);
  });

  it("is refused in every era: an older stateless one, and a legacy session (a tool execution error there)", async () => {
    const errors: unknown[] = [];
    const dispatcher = createEraDispatcher(
      {
        modern: { protocol: ROOTS, validators: VALIDATORS },
        previous: [PREVIOUS],
        legacy: [LEGACY],
      },
      tools as Any,
      { onError: (e) => errors.push(e) },
    );
    expect(await dispatcher.handle(call("zzz", {}, "2098-06-01"))).toEqual(INTERNAL);
    const channel = {};
    await dispatcher.handle(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2098-01-01", capabilities: {} },
      },
      { channel },
    );
    const legacy = await dispatcher.handle(
      { ...call("zzz"), params: { name: "weather", arguments: { mode: "zzz" } } },
      { channel },
    );
    expect(legacy).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          {
            type: "text",
            text: 'tools/call answered resultType "zzz", which revision test does not define',
          },
        ],
        isError: true,
      },
    });
    expect(errors).toHaveLength(2);
  });
});

describe("input requests of an input_required result a handler writes itself", () => {
  it("are checked against the client's capabilities, answered as inputRequired() answers", async () => {
    const router = routerFor([]);
    const helper = createRouter(ROOTS, VALIDATORS, "client->server", {
      "tools/call": (_p: unknown, ctx: Any) =>
        inputRequired(ROOTS, ctx, { inputRequests: { r: rootsRequest } }),
    });
    const expected = {
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32021,
        message: "this request needs the client capability roots",
        data: { requiredCapabilities: { roots: {} } },
      },
    };
    expect(await helper.handle(call("roots"))).toEqual(expected);
    expect(await router.handle(call("roots"))).toEqual(expected);
    expect(await router.handle(call("roots", { roots: {} }))).toMatchObject({
      result: { resultType: "input_required", inputRequests: { r: rootsRequest } },
    });
  });

  it("are never sent to a legacy session's client that did not declare the capability", async () => {
    const asked: unknown[] = [];
    const dispatcher = createEraDispatcher(
      { modern: { protocol: ROOTS, validators: VALIDATORS }, legacy: [LEGACY] },
      tools as Any,
    );
    const channel = {};
    const notify = async (message: object) => {
      asked.push(message);
      throw new Error("the client cannot answer in this test");
    };
    await dispatcher.handle(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2098-01-01", capabilities: {} },
      },
      { channel },
    );
    const reply = await dispatcher.handle(
      { ...call("roots"), params: { name: "weather", arguments: { mode: "roots" } } },
      { channel, notify },
    );
    expect(asked).toEqual([]);
    expect(reply).toMatchObject({
      result: {
        content: [{ text: "this request needs the client capability roots" }],
        isError: true,
      },
    });
  });
});

describe("structuredContent is checked as it is sent", () => {
  it("an inherited or non-enumerable property is not there (JSON.stringify drops it)", async () => {
    const errors: unknown[] = [];
    const router = routerFor(errors);
    for (const mode of ["inherited", "hidden"])
      expect(await router.handle(call(mode))).toMatchObject({
        result: {
          content: [
            {
              text: "Output validation error: Invalid structured content for tool weather: / must have required property 'celsius'",
            },
          ],
          isError: true,
        },
      });
    expect(errors).toHaveLength(2);
  });

  it("a value with a JSON form (a Date) is checked, and sent, in that form", async () => {
    const reply: Any = await routerFor([]).handle(call("date"));
    expect(reply.result.structuredContent).toEqual({ celsius: 21, at: new Date(0).toJSON() });
  });
});

describe("a result is checked as it is sent", () => {
  // Validators that need a tools/call result's `content`, as the revision's schema does.
  const needsContent: MessageValidators = {
    ...VALIDATORS,
    validateMethodResult: (method, value: Any) =>
      method !== "tools/call" || value.content !== undefined
        ? { ok: true, value }
        : { ok: false, errors: [{ path: "", message: 'required property "content" is missing' }] },
  };
  const serve = (result: () => unknown, errors: unknown[] = []) =>
    createRouter(
      PROTOCOL,
      needsContent,
      "client->server",
      { "tools/call": result },
      {
        onError: (e) => errors.push(e),
      },
    );

  it("refuses a result whose required property is inherited, which the client would not get", async () => {
    const errors: unknown[] = [];
    // resultType its own: the router has no reason to copy the result to fill it in.
    const result = () => Object.assign(Object.create({ content: [] }), { resultType: "complete" });
    const reply = await serve(result, errors).handle(call("x"));
    expect(reply).toEqual(INTERNAL);
    expect(errors.map(String)).toEqual([
      'McpError: invalid tools/call result: /: required property "content" is missing',
    ]);
  });

  it("refuses a result that has no JSON form (a cycle, a BigInt), answering rather than failing to send", async () => {
    const cyclic: Any = { content: [] };
    cyclic.self = cyclic;
    for (const result of [cyclic, { content: [], n: 1n }]) {
      const errors: unknown[] = [];
      const reply = await serve(() => result, errors).handle(call("x"));
      expect(reply).toEqual(INTERNAL);
      expect(String(errors[0])).toMatch(
        /^TypeError: the tools\/call result cannot be sent as JSON/,
      );
    }
  });

  it("sends what a JSON round trip would, and plain data as it is (not copied)", async () => {
    const data = { content: [{ type: "text", text: "t" }], structuredContent: { n: 1 } };
    const plain: Any = await serve(() => data).handle(call("x"));
    expect(plain.result.structuredContent).toBe(data.structuredContent);
    expect(plain.result.content).toBe(data.content);
    const holey: unknown[] = [1, NaN, undefined];
    holey[4] = 2; // index 3 is a hole
    const odd = { content: holey, gone: undefined, at: new Date(0) };
    const sent: Any = await serve(() => odd).handle(call("x"));
    expect(sent.result).toStrictEqual({
      content: [1, null, null, null, 2],
      at: "1970-01-01T00:00:00.000Z",
      resultType: "complete",
    });
  });
});

describe("jsonForm", () => {
  it("keeps plain data as it is, and takes the round trip for the rest, never overflowing the stack", () => {
    const bare = Object.assign(Object.create(null), { a: [1, "b", true, null, { c: -0 }] });
    expect(jsonForm(bare)).toEqual({ ok: true, value: bare });
    expect((jsonForm(bare) as Any).value).toBe(bare);
    const dated = Object.assign([1], { toJSON: () => "one" });
    expect(jsonForm({ dated })).toEqual({ ok: true, value: { dated: "one" } });
    // Deeper than the walk goes: the round trip, which gives equal data.
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(jsonForm(deep)).toEqual({ ok: true, value: deep });
    expect((jsonForm(deep) as Any).value).not.toBe(deep);
    let hostile: unknown = {};
    for (let i = 0; i < 100_000; i++) hostile = { a: hostile };
    expect(jsonForm(hostile)).toMatchObject({ ok: false });
    const throwing = {
      get a() {
        throw new Error("unreadable");
      },
    };
    expect(jsonForm(throwing)).toEqual({ ok: false, problem: "unreadable" });
    expect(jsonForm(() => 1)).toEqual({ ok: false, problem: "JSON.stringify skips function" });
  });
});
