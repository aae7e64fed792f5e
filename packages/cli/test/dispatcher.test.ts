import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { generatedFiles, importGenerated, SPEC_DIR } from "./helpers.js";
import { meta, MODERN, request } from "./support/modern-messages.js";

type Any = any;

async function load(revision: string): Promise<{ d: Any; v: Any; m: Any }> {
  const files = await generatedFiles(revision);
  const d = await importGenerated<Any>(files, "dispatcher.js");
  const v = await importGenerated<Any>(files, "validators.js");
  const m = await importGenerated<Any>(files, "methods.js");
  return { d, v, m };
}

const VERSION = MODERN;
const cache = { ttlMs: 0, cacheScope: "private" };

describe("dispatcher 2026-07-28", () => {
  let d: Any;
  let v: Any;
  let m: Any;
  beforeAll(async () => ({ d, v, m } = await load(VERSION)));

  const echoTool = {
    "tools/call": (p: Any) => ({
      content: [{ type: "text", text: String(p.arguments?.text ?? "") }],
    }),
  };

  describe("protocol errors", () => {
    it("-32700 for unparsable text, without an id", async () => {
      const reply = await d.createServerDispatcher({}).handleText("{not json");
      expect(reply).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });
      expect(v.validateJSONRPCErrorResponse(reply).ok).toBe(true);
    });

    it("-32600 for a malformed envelope, echoing the id when there is one", async () => {
      const server = d.createServerDispatcher(echoTool);
      expect((await server.handle([])).error.code).toBe(-32600);
      expect((await server.handle("x")).error.code).toBe(-32600);
      expect((await server.handle({ jsonrpc: "2.0", id: 1 })).error.code).toBe(-32600);
      expect(
        await server.handle({ jsonrpc: "1.0", id: 9, method: "tools/call", params: {} }),
      ).toMatchObject({ id: 9, error: { code: -32600 } });
      expect(await server.handle({ jsonrpc: "2.0", id: { a: 1 }, method: "tools/call" })).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid request" },
      });
    });

    it("-32601 for an unknown method, a method of the other direction, or one without a handler", async () => {
      const server = d.createServerDispatcher(echoTool);
      expect(await server.handle(request("tools/frobnicate", {}, 3))).toEqual({
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32601, message: "Method not found: tools/frobnicate" },
      });
      expect((await server.handle(request("prompts/list"))).error.code).toBe(-32601);
      expect(
        (await server.handle(request("elicitation/create", { message: "x", requestedSchema: {} })))
          .error.code,
      ).toBe(-32601);
    });

    it("-32602 with JSON pointers for invalid params", async () => {
      const reply = await d
        .createServerDispatcher(echoTool)
        .handle(request("tools/call", { name: 5 }, "a"));
      expect(reply).toEqual({
        jsonrpc: "2.0",
        id: "a",
        error: {
          code: -32602,
          message: "Invalid params for tools/call: /params/name: expected string, found number 5",
          data: {
            errors: [
              {
                path: "/params/name",
                message: "expected string, found number 5",
                expected: "string",
              },
            ],
          },
        },
      });
    });

    it("reports the first error by default, every error with allErrors", async () => {
      const bad = request("tools/call", { name: 5, arguments: "x" }, 1);
      const first = await d.createServerDispatcher(echoTool).handle(bad);
      expect(first.error.data.errors).toHaveLength(1);
      const all = await d.createServerDispatcher(echoTool, { allErrors: true }).handle(bad);
      expect(all.error.data.errors.length).toBeGreaterThan(1);
      expect(all.error.data.errors).toContainEqual(first.error.data.errors[0]);
    });

    it("-32602 when a required _meta field is missing", async () => {
      const reply = await d.createServerDispatcher(echoTool).handle({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "echo", _meta: { "io.modelcontextprotocol/protocolVersion": VERSION } },
      });
      expect(reply.error.code).toBe(-32602);
      expect(reply.error.data.errors[0].path).toBe(
        "/params/_meta/io.modelcontextprotocol~1clientCapabilities",
      );
      const noMeta = await d
        .createServerDispatcher(echoTool)
        .handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
      expect(noMeta.error).toMatchObject({
        code: -32602,
        data: { errors: [{ path: "/params/_meta" }] },
      });
    });

    // README, "Using the generated code": the server's own data is the handler's to check.
    it("leaves a tool's inputSchema and outputSchema to its handler (what the README and init's project say)", async () => {
      const weather = {
        name: "weather",
        inputSchema: {
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        },
        outputSchema: {
          type: "object",
          properties: { celsius: { type: "number" } },
          required: ["celsius"],
        },
      };
      const seen: Any[] = [];
      const server = d.createServerDispatcher({
        "tools/list": () => ({ tools: [weather], ...cache }),
        "tools/call": (p: Any) => (
          seen.push(p.arguments),
          { content: [], structuredContent: { celsius: "warm" } }
        ),
      });
      const reply = await server.handle(
        request("tools/call", { name: "weather", arguments: { town: 5 } }),
      );
      expect(seen).toEqual([{ town: 5 }]);
      expect(reply.result.structuredContent).toEqual({ celsius: "warm" });
    });

    it("-32022 with supported and requested for an unsupported protocol version", async () => {
      const reply = await d.createServerDispatcher(echoTool).handle(
        request("tools/call", {
          name: "e",
          _meta: meta({ "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
        }),
      );
      expect(reply.error).toEqual({
        code: -32022,
        message: "Unsupported protocol version: 2099-01-01",
        data: { supported: [VERSION], requested: "2099-01-01" },
      });
      expect(v.validateUnsupportedProtocolVersionError(reply).ok).toBe(true);
      const custom = d.createServerDispatcher(echoTool, {
        supportedVersions: ["2099-01-01", VERSION],
      });
      expect(
        (
          await custom.handle(
            request("tools/call", {
              name: "e",
              _meta: meta({ "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
            }),
          )
        ).result,
      ).toBeDefined();
    });

    it("-32603 with a generic message when a handler throws; details go to onError", async () => {
      const onError = vi.fn();
      const server = d.createServerDispatcher(
        {
          "prompts/get": () => {
            throw new Error("database password is hunter2");
          },
        },
        { onError },
      );
      const reply = await server.handle(request("prompts/get", { name: "x" }, 5));
      expect(reply).toEqual({
        jsonrpc: "2.0",
        id: 5,
        error: { code: -32603, message: "Internal error" },
      });
      expect(JSON.stringify(reply)).not.toMatch(/hunter2|at /);
      expect(onError).toHaveBeenCalledWith(
        expect.objectContaining({ message: "database password is hunter2" }),
        { method: "prompts/get", id: 5 },
      );
    });

    it("a tools/call handler's error is a tool execution error: its message in a valid result with isError, no stack", async () => {
      const onError = vi.fn();
      const server = d.createServerDispatcher(
        {
          "tools/call": () => {
            throw new Error("the weather service is down");
          },
        },
        { onError },
      );
      const reply = await server.handle(request("tools/call", { name: "x" }, 6));
      expect(reply).toEqual({
        jsonrpc: "2.0",
        id: 6,
        result: {
          content: [{ type: "text", text: "the weather service is down" }],
          isError: true,
          resultType: "complete",
        },
      });
      expect(v.validateCallToolResultResponse(reply).ok).toBe(true);
      expect(JSON.stringify(reply)).not.toMatch(/at /);
      expect(onError).toHaveBeenCalledWith(
        expect.objectContaining({ message: "the weather service is down" }),
        { method: "tools/call", id: 6 },
      );
    });

    it("a typed McpError sends the handler's code, message and data", async () => {
      const server = d.createServerDispatcher({
        "tools/call": () => {
          throw new d.McpError(-32602, "Unknown tool: nope", { tool: "nope" });
        },
      });
      expect((await server.handle(request("tools/call", { name: "nope" }))).error).toEqual({
        code: -32602,
        message: "Unknown tool: nope",
        data: { tool: "nope" },
      });
    });

    it("notifications are never answered, valid, invalid or unknown", async () => {
      const seen: unknown[] = [];
      const onError = vi.fn();
      const server = d.createServerDispatcher(
        { "notifications/cancelled": (p: Any) => void seen.push(p) },
        { onError },
      );
      expect(
        await server.handle({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: 1 },
        }),
      ).toBeUndefined();
      expect(
        await server.handle({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: {} },
        }),
      ).toBeUndefined();
      expect(await server.handle({ jsonrpc: "2.0", method: "notifications/nope" })).toBeUndefined();
      expect(seen).toEqual([{ requestId: 1 }]);
      expect(onError).toHaveBeenCalledTimes(1);
    });

    it("invalid results never reach the wire (validation on by default, can be turned off)", async () => {
      const onError = vi.fn();
      const bad = { "tools/list": () => ({ tools: [{ name: 5 }], ...cache }) };
      const reply = await d.createServerDispatcher(bad, { onError }).handle(request("tools/list"));
      expect(reply.error).toEqual({ code: -32603, message: "Internal error" });
      expect(onError.mock.calls[0]![0].data.errors[0].path).toBe("/tools/0/name");
      // The message names the first error: console.error(error) prints data.errors as [Object].
      expect(onError.mock.calls[0]![0].message).toMatch(
        /^invalid tools\/list result: \/tools\/0\/name: expected string/,
      );
      const unchecked = await d
        .createServerDispatcher(bad, { validateResults: false })
        .handle(request("tools/list"));
      expect(unchecked.result.tools[0].name).toBe(5);
    });

    it("a method that may not answer input_required cannot (types and run time)", async () => {
      const onError = vi.fn();
      const server = d.createServerDispatcher(
        { "tools/list": () => ({ resultType: "input_required", requestState: "x" }) },
        { onError },
      );
      expect((await server.handle(request("tools/list"))).error.code).toBe(-32603);
      expect(onError.mock.calls[0]![0].message).toBe("tools/list may not answer input_required");
    });
  });

  describe("answers", () => {
    it("fills resultType and puts serverInfo into result _meta", async () => {
      const serverInfo = { name: "test-server", version: "1.2.3" };
      const server = d.createServerDispatcher(echoTool, { serverInfo });
      const reply = await server.handle(
        request("tools/call", { name: "echo", arguments: { text: "hi" } }, 7),
      );
      expect(reply).toEqual({
        jsonrpc: "2.0",
        id: 7,
        result: {
          content: [{ type: "text", text: "hi" }],
          resultType: "complete",
          _meta: { "io.modelcontextprotocol/serverInfo": serverInfo },
        },
      });
      expect(v.validateCallToolResultResponse(reply).ok).toBe(true);
    });

    it("answers server/discover from the options and the registered handlers", async () => {
      const server = d.createServerDispatcher(
        {
          ...echoTool,
          "prompts/list": () => ({ prompts: [], ...cache }),
          "completion/complete": () => ({ completion: { values: [] } }),
        },
        { instructions: "Be nice." },
      );
      const reply = await server.handle(request("server/discover"));
      expect(reply.result).toEqual({
        supportedVersions: [VERSION],
        // logging: declared in every era (server-capabilities.ts), ctx.log being everywhere.
        capabilities: { completions: {}, prompts: {}, tools: {}, logging: {} },
        instructions: "Be nice.",
        ttlMs: 0,
        cacheScope: "public",
        resultType: "complete",
      });
      expect(v.validateDiscoverResultResponse(reply).ok).toBe(true);
      const overridden = d.createServerDispatcher({
        "server/discover": () => ({ supportedVersions: ["x"], capabilities: {}, ...cache }),
      });
      expect(
        (await overridden.handle(request("server/discover"))).result.supportedVersions,
      ).toEqual(["x"]);
      const declared = d.createServerDispatcher(
        {},
        { capabilities: { tools: { listChanged: true } } },
      );
      expect((await declared.handle(request("server/discover"))).result.capabilities).toEqual({
        tools: { listChanged: true },
        logging: {},
      });
    });

    it("lays the declared capabilities over those the handlers imply (logging, declared anyway)", async () => {
      const handlers = { ...echoTool, "prompts/list": () => ({ prompts: [], ...cache }) };
      const server = d.createServerDispatcher(handlers, {
        capabilities: { logging: {}, tools: { listChanged: true } },
      });
      const reply = await server.handle(request("server/discover"));
      expect(reply.result.capabilities).toEqual({
        logging: {},
        prompts: {},
        tools: { listChanged: true },
      });
    });

    it("gives handlers the request context", async () => {
      let seen: Any;
      const server = d.createServerDispatcher({
        "tools/call": (_p: Any, ctx: Any) => {
          seen = ctx;
          return { content: [] };
        },
      });
      const clientInfo = { name: "c", version: "1" };
      await server.handle(
        request(
          "tools/call",
          {
            name: "x",
            _meta: meta({
              "io.modelcontextprotocol/clientInfo": clientInfo,
              "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
              "io.modelcontextprotocol/logLevel": "info",
              progressToken: "tok",
            }),
          },
          11,
        ),
        { principal: "alice" },
      );
      expect(seen).toMatchObject({
        method: "tools/call",
        id: 11,
        principal: "alice",
        protocolVersion: VERSION,
        clientCapabilities: { elicitation: {} },
        clientInfo,
        logLevel: "info",
        progressToken: "tok",
      });
      expect(seen.signal.aborted).toBe(false);
    });

    it("sends progress and log notifications tied to the request, as the client asked", async () => {
      const sent: Any[] = [];
      const server = d.createServerDispatcher({
        "tools/call": async (_p: Any, ctx: Any) => {
          await ctx.sendProgress(1, 2, "half");
          await ctx.log("debug", "too chatty");
          await ctx.log("error", { disk: "full" }, "db");
          return { content: [] };
        },
      });
      const notify = (n: Any) => void sent.push(n);
      await server.handle(
        request("tools/call", {
          name: "x",
          _meta: meta({ progressToken: 9, "io.modelcontextprotocol/logLevel": "warning" }),
        }),
        { notify },
      );
      expect(sent).toEqual([
        {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 9, progress: 1, total: 2, message: "half" },
        },
        {
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: "error", data: { disk: "full" }, logger: "db" },
        },
      ]);
      for (const n of sent)
        expect(v.validateNotificationMessage(n, "server->client").ok).toBe(true);
      sent.length = 0;
      await server.handle(request("tools/call", { name: "x" }), { notify });
      expect(sent).toEqual([]);
    });

    it("notifications/cancelled aborts the handler's signal and the request gets no response", async () => {
      let signal: AbortSignal | undefined;
      let release!: () => void;
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const server = d.createServerDispatcher({
        "tools/call": (_p: Any, ctx: Any) =>
          new Promise((resolve) => {
            signal = ctx.signal;
            release = () => resolve({ content: [] });
            started();
          }),
      });
      const pending = server.handle(request("tools/call", { name: "slow" }, 77), {
        principal: "p",
      });
      await running;
      // Another principal cannot cancel it.
      await server.handle(
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 77 } },
        { principal: "q" },
      );
      expect(signal?.aborted).toBe(false);
      await server.handle(
        {
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: 77, reason: "user" },
        },
        { principal: "p" },
      );
      expect(signal?.aborted).toBe(true);
      release();
      expect(await pending).toBeUndefined();
    });

    it("requireClientCapability answers -32021 with the required capabilities", async () => {
      const server = d.createServerDispatcher({
        "tools/call": (_p: Any, ctx: Any) => {
          d.requireClientCapability(ctx, ["sampling", "tools"]);
          return { content: [] };
        },
      });
      const reply = await server.handle(request("tools/call", { name: "x" }, 4));
      expect(reply.error).toEqual({
        code: -32021,
        message: "this request needs the client capability sampling.tools",
        data: { requiredCapabilities: { sampling: { tools: {} } } },
      });
      expect(v.validateMissingRequiredClientCapabilityError(reply).ok).toBe(true);
      const ok = await server.handle(
        request("tools/call", {
          name: "x",
          _meta: meta({
            "io.modelcontextprotocol/clientCapabilities": { sampling: { tools: {} } },
          }),
        }),
      );
      expect(ok.result).toBeDefined();
    });
  });

  it("the spec's request examples reach their handlers, and its result examples pass result validation", async () => {
    const dir = join(SPEC_DIR, "schema", VERSION, "examples");
    const reached: string[] = [];
    const handlers: Record<string, Any> = {};
    const results: Record<string, unknown> = {};
    for (const type of readdirSync(dir).filter(
      (t) => t.endsWith("Result") && !t.startsWith("InputRequired"),
    )) {
      results[type] = JSON.parse(
        readFileSync(join(dir, type, readdirSync(join(dir, type))[0]!), "utf8"),
      );
    }
    for (const [method, entry] of Object.entries(m.METHODS as Record<string, Any>)) {
      if (entry.kind !== "request") continue;
      handlers[method] = () => {
        reached.push(method);
        return results[entry.result];
      };
    }
    const server = d.createServerDispatcher(handlers);
    let requests = 0;
    for (const type of readdirSync(dir).filter((t) => t.endsWith("Request"))) {
      for (const file of readdirSync(join(dir, type))) {
        const example = JSON.parse(readFileSync(join(dir, type, file), "utf8"));
        // Input requests (sampling, roots, elicitation) travel inside results, not to a server.
        if (!m.METHODS[example.method]?.directions.includes("client->server")) continue;
        requests++;
        const reply = await server.handle(example);
        expect(reply.error, `${type}/${file}`).toBeUndefined();
        expect(reply.id).toBe(example.id);
        expect(v.validateMethodResult(example.method, reply.result).ok).toBe(true);
      }
    }
    expect(requests).toBeGreaterThanOrEqual(10);
    expect(new Set(reached).size).toBe(10);
  });

  it("property: 20,000 random and mutated messages always get a valid reply (or none for notifications)", async () => {
    const handlers: Record<string, Any> = {
      "tools/call": (p: Any) =>
        p.name === "boom" ? Promise.reject(new Error("boom")) : { content: [] },
      "tools/list": () => ({ tools: [], ...cache }),
      "prompts/get": () => ({ messages: [] }),
      "notifications/cancelled": () => undefined,
    };
    const server = d.createServerDispatcher(handlers, { onError: () => undefined });
    const methods = [
      "tools/call",
      "tools/list",
      "prompts/get",
      "prompts/list",
      "server/discover",
      "notifications/cancelled",
      "nope",
      "",
    ];
    const id = fc.oneof(
      fc.integer(),
      fc.string({ maxLength: 5 }),
      fc.constant(null),
      fc.constant(undefined),
      fc.double(),
      fc.object({ maxDepth: 0 }),
    );
    const params = fc.oneof(
      fc.constant(undefined),
      fc.record(
        { _meta: fc.constant(meta()), name: fc.constantFrom("echo", "boom", 3) },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const message = fc.oneof(
      fc.record(
        {
          jsonrpc: fc.constantFrom("2.0", "1.0", 2),
          id,
          method: fc.constantFrom(...methods),
          params,
        },
        { requiredKeys: ["jsonrpc", "method"] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
      fc.anything({ maxDepth: 2 }),
    );
    let replies = 0;
    await fc.assert(
      fc.asyncProperty(message, async (msg: Any) => {
        const reply = await server.handle(msg);
        const isNotification =
          typeof msg === "object" &&
          msg !== null &&
          !Array.isArray(msg) &&
          typeof msg.method === "string" &&
          msg.id === undefined;
        if (isNotification) return reply === undefined;
        if (reply === undefined) return false;
        replies++;
        const valid =
          "error" in reply
            ? v.validateJSONRPCErrorResponse(reply).ok
            : v.validateJSONRPCResultResponse(reply).ok;
        const validId = typeof msg?.id === "string" || Number.isInteger(msg?.id);
        const echoed = validId && typeof msg?.method === "string" ? reply.id === msg.id : true;
        return valid && echoed;
      }),
      { seed: Number(process.env["FC_SEED"] ?? 20261130), numRuns: 20_000 },
    );
    expect(replies).toBeGreaterThan(5000);
  });
});
