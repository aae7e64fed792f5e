import { describe, expect, it } from "vitest";
import { errorText, McpError } from "../src/core/errors.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import type { ProtocolDescriptor } from "../src/core/protocol.js";
import {
  capCompletion,
  toolExecutionError,
  UNREADABLE_ERROR_TEXT,
} from "../src/server/result-rules.js";
import { createRouter } from "../src/server/router.js";
import type { AdaptedEra } from "../src/core/era.js";
import { LEGACY_PROTOCOL, PROTOCOL, request, VALIDATORS } from "./fixture.js";

// What the router makes of handlers' answers where the spec's prose asks for more than the
// schema checks: a tool's failure is a tool execution error (server/tools, "Error Handling"),
// a completion answers at most 100 values (server/utilities/completion), in every era served.

const COMPLETE = {
  kind: "request",
  directions: ["client->server"],
  inputRequired: false,
  capabilities: { "client->server": { side: "server", path: ["completions"], leaf: "object" } },
} as const;
const withComplete = (p: ProtocolDescriptor): ProtocolDescriptor => ({
  ...p,
  methods: { ...p.methods, "completion/complete": COMPLETE },
});
const MODERN = { protocol: withComplete(PROTOCOL), validators: VALIDATORS };
const PREVIOUS: AdaptedEra = {
  protocol: { ...MODERN.protocol, revision: "previous", protocolVersion: "2098-06-01" },
  validators: VALIDATORS,
  adapters: {},
};
// Initialize-based revisions have no code for a missing client capability.
const LEGACY: AdaptedEra = {
  protocol: {
    ...withComplete(LEGACY_PROTOCOL),
    errorCodes: { ...LEGACY_PROTOCOL.errorCodes, missingClientCapability: null },
  },
  validators: VALIDATORS,
  adapters: {},
};

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
const handlers = {
  "tools/call": (params: { name: string }, ctx: any) => {
    if (params.name === "down") throw new Error("the backend is down");
    if (params.name === "string") throw "a thrown string";
    if (params.name === "ask") return inputRequired(PROTOCOL, ctx, { requestState: "again" });
    if (params.name === "elicit")
      return inputRequired(PROTOCOL, ctx, {
        inputRequests: { who: { method: "elicitation/create" } },
      });
    throw new McpError(-32602, `Unknown tool: ${params.name}`);
  },
  "tools/list": () => {
    throw new Error("list failed: secret detail");
  },
  "completion/complete": (params: { argument: { value: string } }) => {
    const [n, total] = params.argument.value.split("/").map(Number);
    return { completion: { values: words(n!), ...(total !== undefined ? { total } : {}) } };
  },
};
const call = (name: string, id = 1) => request("tools/call", id, { name });
const complete = (value: string, id = 1) =>
  request("completion/complete", id, {
    ref: { type: "ref/prompt", name: "p" },
    argument: { name: "a", value },
  });

describe("a tools/call handler's own error is a tool execution error (server/tools, Error Handling)", () => {
  it("is answered in the result with isError and the error's message, and still told to onError", async () => {
    const errors: unknown[] = [];
    const router = createRouter(MODERN.protocol, VALIDATORS, "client->server", handlers, {
      onError: (e) => errors.push(e),
    });
    expect(await router.handle(call("down", 4))).toEqual({
      jsonrpc: "2.0",
      id: 4,
      result: {
        content: [{ type: "text", text: "the backend is down" }],
        isError: true,
        resultType: "complete",
      },
    });
    expect(await router.handle(call("string"))).toMatchObject({
      result: { content: [{ text: "a thrown string" }], isError: true },
    });
    expect(errors.map(String)).toEqual(["Error: the backend is down", "a thrown string"]);
  });

  it("leaves protocol errors (an McpError a handler throws) and other methods' failures as JSON-RPC errors", async () => {
    const router = createRouter(MODERN.protocol, VALIDATORS, "client->server", handlers);
    expect(await router.handle(call("nope"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Unknown tool: nope" },
    });
    const list = await router.handle(request("tools/list"));
    expect(list).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "Internal error" },
    });
    expect(JSON.stringify(list)).not.toContain("secret");
  });

  it("holds in every era: the newest, an older stateless one, and a legacy session (without resultType)", async () => {
    const dispatcher = createEraDispatcher(
      { modern: MODERN, previous: [PREVIOUS], legacy: [LEGACY] },
      handlers,
      { maxLegacyRounds: 2 },
    );
    const failed = { content: [{ type: "text", text: "the backend is down" }], isError: true };
    expect(await dispatcher.handle(call("down"))).toMatchObject({
      result: { ...failed, resultType: "complete" },
    });
    const older = {
      ...call("down"),
      params: { name: "down", _meta: { v: "2098-06-01", caps: {} } },
    };
    expect(await dispatcher.handle(older)).toMatchObject({
      result: { ...failed, resultType: "complete" },
    });
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
    const legacyCall = (name: string) => ({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name },
    });
    expect(await dispatcher.handle(legacyCall("down"), { channel })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: failed,
    });
    expect(await dispatcher.handle(legacyCall("nope"), { channel })).toMatchObject({
      error: { code: -32602 },
    });
    // A tool that keeps asking for input past the bound: the server's failure, shown to the model.
    expect(await dispatcher.handle(legacyCall("ask"), { channel })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [{ type: "text", text: "tools/call still asked for input after 2 rounds" }],
        isError: true,
      },
    });
    // Input the session's client cannot give: no -32021 (a stateless revisions' code) on a
    // legacy session, but a tool execution error, as the v2 SDK's legacy shim answers.
    expect(await dispatcher.handle(legacyCall("elicit"), { channel })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [{ type: "text", text: "this request needs the client capability elicitation" }],
        isError: true,
      },
    });
    // Stateless clients still get the revision's own protocol error.
    expect(await dispatcher.handle(call("elicit"))).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
  });

  it("builds the result the SDK servers build", () => {
    expect(toolExecutionError(new TypeError("bad"))).toEqual({
      content: [{ type: "text", text: "bad" }],
      isError: true,
    });
    expect(toolExecutionError(42)).toEqual({
      content: [{ type: "text", text: "42" }],
      isError: true,
    });
  });
});

/** Thrown values that fail when read: each must still get an answer, never an exception. */
function hostileThrowables(): [string, () => unknown][] {
  const revoked = Proxy.revocable(new Error("gone"), {});
  revoked.revoke();
  const badMessage = new Error("hidden");
  Object.defineProperty(badMessage, "message", {
    get: () => {
      throw new Error("message getter");
    },
  });
  const badToString = {
    toString: () => {
      throw new Error("toString");
    },
  };
  const nullProto = Object.create(null);
  const badToPrimitive = {
    [Symbol.toPrimitive]: () => {
      throw new Error("toPrimitive");
    },
  };
  const badMcpError = new McpError(-32602, "hidden");
  Object.defineProperty(badMcpError, "message", {
    get: () => {
      throw new Error("McpError message getter");
    },
  });
  return [
    ["a revoked Proxy", () => revoked.proxy],
    ["an Error whose message getter throws", () => badMessage],
    ["an object whose toString throws", () => badToString],
    ["an object without a prototype", () => nullProto],
    ["an object whose Symbol.toPrimitive throws", () => badToPrimitive],
    ["an McpError whose message getter throws", () => badMcpError],
  ];
}

describe("a thrown value that cannot be read still gets an answer", () => {
  const thrower = (value: unknown) => () => {
    throw value;
  };

  it.each(hostileThrowables())(
    "tools/call: %s is a tool execution error with a fixed text",
    async (_name, make) => {
      const reported: unknown[] = [];
      const router = createRouter(
        MODERN.protocol,
        VALIDATORS,
        "client->server",
        { "tools/call": thrower(make()) },
        { onError: (e) => reported.push(e) },
      );
      expect(await router.handle(call("x", 7))).toEqual({
        jsonrpc: "2.0",
        id: 7,
        result: {
          content: [{ type: "text", text: UNREADABLE_ERROR_TEXT }],
          isError: true,
          resultType: "complete",
        },
      });
      // Told to onError as thrown (the hook is the place to look at it), exactly once.
      expect(reported).toHaveLength(1);
    },
  );

  it.each(hostileThrowables())("any other method: %s is a generic -32603", async (_name, make) => {
    const router = createRouter(
      MODERN.protocol,
      VALIDATORS,
      "client->server",
      { "tools/list": thrower(make()) },
      {
        onError: () => {
          throw new Error("the hook fails too");
        },
      },
    );
    expect(await router.handle(request("tools/list", 3))).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32603, message: "Internal error" },
    });
  });

  it.each(hostileThrowables())(
    "a legacy session: %s is answered the same way",
    async (_name, make) => {
      const dispatcher = createEraDispatcher(
        { modern: MODERN, legacy: [LEGACY] },
        { "tools/call": thrower(make()) },
      );
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
      expect(
        await dispatcher.handle(
          { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x" } },
          { channel },
        ),
      ).toEqual({
        jsonrpc: "2.0",
        id: 2,
        result: { content: [{ type: "text", text: UNREADABLE_ERROR_TEXT }], isError: true },
      });
    },
  );

  it("a Symbol and an Error with a non-string message are read as String() reads them", async () => {
    const router = createRouter(MODERN.protocol, VALIDATORS, "client->server", {
      "tools/call": (p: { name: string }) => {
        throw p.name === "symbol" ? Symbol("boom") : Object.assign(new Error(), { message: 42 });
      },
    });
    expect(await router.handle(call("symbol"))).toMatchObject({
      result: { content: [{ type: "text", text: "Symbol(boom)" }], isError: true },
    });
    expect(await router.handle(call("number"))).toMatchObject({
      result: { content: [{ type: "text", text: "42" }], isError: true },
    });
    expect(errorText(Symbol(), "fallback")).toBe("Symbol()");
  });

  it("an McpError whose code is not an integer is not sent as a JSON-RPC error", async () => {
    const router = createRouter(MODERN.protocol, VALIDATORS, "client->server", {
      "tools/list": thrower(new McpError(Number.NaN, "odd")),
      "tools/call": thrower(new McpError(1.5, "odd code")),
    });
    expect(await router.handle(request("tools/list"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "Internal error" },
    });
    expect(await router.handle(call("x"))).toMatchObject({
      result: { content: [{ type: "text", text: "odd code" }], isError: true },
    });
  });
});

describe("completion/complete answers at most 100 values (server/utilities/completion)", () => {
  it("keeps the first 100, sets hasMore, and total to the full count unless the handler gave one", async () => {
    const router = createRouter(MODERN.protocol, VALIDATORS, "client->server", handlers);
    expect(await router.handle(complete("150"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        completion: { values: words(100), hasMore: true, total: 150 },
        resultType: "complete",
      },
    });
    expect(await router.handle(complete("101/5000"))).toMatchObject({
      result: { completion: { values: words(100), hasMore: true, total: 5000 } },
    });
    expect(await router.handle(complete("100"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { completion: { values: words(100) }, resultType: "complete" },
    });
  });

  it("holds in every era", async () => {
    const dispatcher = createEraDispatcher(
      { modern: MODERN, previous: [PREVIOUS], legacy: [LEGACY] },
      handlers,
    );
    const capped = { completion: { values: words(100), hasMore: true, total: 120 } };
    expect(await dispatcher.handle(complete("120"))).toMatchObject({ result: capped });
    const older = complete("120");
    expect(
      await dispatcher.handle({
        ...older,
        params: { ...older.params, _meta: { v: "2098-06-01", caps: {} } },
      }),
    ).toMatchObject({ result: capped });
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
    const { _meta: _modernOnly, ...legacyParams } = complete("120").params;
    void _modernOnly;
    expect(
      await dispatcher.handle(
        { jsonrpc: "2.0", id: 3, method: "completion/complete", params: legacyParams },
        { channel },
      ),
    ).toEqual({ jsonrpc: "2.0", id: 3, result: capped });
  });

  it("leaves results without a values list over the bound as they are", () => {
    const odd = { completion: { values: "not a list" } };
    expect(capCompletion(odd)).toBe(odd);
    expect(capCompletion({ other: 1 })).toEqual({ other: 1 });
  });
});
