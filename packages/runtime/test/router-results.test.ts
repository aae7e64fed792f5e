import { describe, expect, it } from "vitest";
import type { AdaptedEra } from "../src/core/era.js";
import type { ProtocolDescriptor } from "../src/core/protocol.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import { createRouter } from "../src/server/router.js";
import { defineTools } from "../src/server/tools.js";
import { validate } from "../../../test/support/ajv-validate.js";
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
const routerFor = (errors: unknown[]) =>
  createRouter(ROOTS, VALIDATORS, "client->server", tools as Any, {
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
