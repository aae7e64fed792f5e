import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatedFiles, importGenerated, tempDir, typecheck, writeFiles } from "./helpers.js";
import { itCompiles } from "./support/compile.js";

// The dispatcher's handler types, and the dispatchers of revisions before 2026-07-28
// (dispatcher.test.ts runs 2026-07-28's).

type Any = any;

async function load(revision: string): Promise<{ d: Any; v: Any }> {
  const files = await generatedFiles(revision);
  return {
    d: await importGenerated<Any>(files, "dispatcher.js"),
    v: await importGenerated<Any>(files, "validators.js"),
  };
}

describe("handler types", () => {
  itCompiles(
    "only methods the schema lets answer input_required may return it (a type error elsewhere); result validators are typed by method",
    async () => {
      const dir = tempDir();
      writeFiles(dir, await generatedFiles("2026-07-28"));
      writeFileSync(
        join(dir, "use.ts"),
        `import { createServerDispatcher, inputRequired } from "./dispatcher.js";
createServerDispatcher({
  "tools/call": (_p, ctx) => inputRequired(ctx, { requestState: "ok" }),
  "tools/list": (_p, ctx) => inputRequired(ctx, { requestState: "not allowed" }),
  "completion/complete": () => ({ completion: { values: [] }, resultType: "input_required" }),
});
// validateMethodResult / validateInputResult are typed by a literal method (same program: a tsc run costs 20-60 s).
import { validateInputResult, validateMethodResult } from "./validators.js";
import type { CallToolResult, ElicitResult, InputRequiredResult, ListToolsResult } from "./types.js";
const listed = validateMethodResult("tools/list", null);
if (listed.ok) { const ok: ListToolsResult = listed.value; void ok; }
const called = validateMethodResult("tools/call", null);
if (called.ok) { const ok: CallToolResult | InputRequiredResult = called.value; void ok; }
if (called.ok) { const wrong: CallToolResult = called.value; void wrong; }
const asked = validateInputResult("elicitation/create", null);
if (asked.ok) { const ok: ElicitResult = asked.value; void ok; }
const named = validateMethodResult(String("tools/list"), null);
if (named.ok) { const wrong: ListToolsResult = named.value; void wrong; }
// defineTools: tool, args, ctx and result typed by the revision; validate always, list where the revision requires fields.
import { defineTools } from "./dispatcher.js";
const echo = { name: "echo", inputSchema: { type: "object" as const, properties: { text: { type: "string" } } } };
createServerDispatcher({ ...defineTools([{ tool: echo, call: (args, ctx) => ({ content: [{ type: "text", text: \`\${String(args["text"])} \${ctx.method}\` }] }) }], { validate: () => undefined, list: { ttlMs: 0, cacheScope: "private" } }) });
defineTools([{ tool: echo, call: () => ({ content: [] }) }], { validate: "handler" });
defineTools([{ tool: echo, call: () => ({ content: [] }) }], { list: { ttlMs: 0, cacheScope: "private" } });
defineTools([{ tool: echo, call: () => ({ content: "text" }) }], { validate: "handler", list: { ttlMs: 0, cacheScope: "public" } });
defineTools([{ tool: { name: "x", inputSchema: { type: "array" } }, call: () => ({ content: [] }) }], { validate: "handler", list: { ttlMs: 0, cacheScope: "public" } });
// defineTool: argument and structuredContent types from the schemas, bound to the revision's Tool and results.
import { defineTool } from "./dispatcher.js";
import { z } from "zod";
import { type } from "arktype";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
const out = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const;
defineTool({ tool: { name: "j", title: "J", annotations: { readOnlyHint: true }, inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, outputSchema: out }, call: ({ q }, ctx) => ({ content: [{ type: "text", text: q + ctx.method }], structuredContent: { n: q.length } }) });
// @ts-expect-error a JSON Schema literal's structuredContent of the wrong type
defineTool({ tool: { name: "j", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, outputSchema: out }, call: ({ q }) => ({ content: [], structuredContent: { n: q } }) });
// @ts-expect-error an argument the JSON Schema literal does not declare
defineTool({ tool: { name: "j", inputSchema: { type: "object", properties: { q: { type: "string" } } } }, call: (args) => ({ content: [{ type: "text", text: String(args.nope) }] }) });
// @ts-expect-error a zod argument used as what it is not
defineTool({ tool: { name: "z", inputSchema: z.object({ n: z.number() }) }, call: ({ n }) => ({ content: [{ type: "text", text: n.toUpperCase() }] }) });
// @ts-expect-error structuredContent missing where an ArkType outputSchema asks for it
defineTool({ tool: { name: "a", inputSchema: type({ q: "string" }), outputSchema: type({ ok: "boolean" }) }, call: () => ({ content: [] }) });
// @ts-expect-error a Valibot structuredContent of the wrong type
defineTool({ tool: { name: "v", inputSchema: toStandardJsonSchema(v.object({})), outputSchema: toStandardJsonSchema(v.object({ ok: v.boolean() })) }, call: () => ({ content: [], structuredContent: { ok: 1 } }) });
// @ts-expect-error an inputSchema that is no object's
defineTool({ tool: { name: "s", inputSchema: { type: "string" } }, call: () => ({ content: [] }) });
defineTools([defineTool({ tool: { name: "e", inputSchema: z.object({}), outputSchema: z.object({ ok: z.boolean() }) }, call: () => ({ content: [{ type: "text", text: "no" }], isError: true }) })], { list: { ttlMs: 0, cacheScope: "private" } });
// The bounds of the legacy sessions a dual-era dispatcher serves: options of its own, typed.
createServerDispatcher({}, { maxLegacyRounds: 3, clientRequestTimeoutMs: 60_000 });
// @ts-expect-error a bound that is not a number
createServerDispatcher({}, { maxLegacyRounds: "3" });
// Middleware sees the revision's request methods: a misspelt one does not compile.
createServerDispatcher({}, { middleware: [{ before: (call) => void (call.method === "tools/call") }] });
// @ts-expect-error a method the revision does not have
createServerDispatcher({}, { middleware: [{ before: (call) => void (call.method === "tools/cal") }] });
`,
      );
      const errors = typecheck([join(dir, "use.ts")]);
      expect(errors.some((e) => /use\.ts:4:/.test(e))).toBe(true);
      expect(errors.some((e) => /use\.ts:5:/.test(e))).toBe(true);
      expect(errors.some((e) => /use\.ts:3:/.test(e))).toBe(false);
      // A literal method gives its result type (and InputRequiredResult where it may answer one);
      // any string gives unknown.
      const at = (line: number) => errors.filter((e) => new RegExp(`use\\.ts:${line}:`).test(e));
      expect([11, 13, 16].flatMap(at)).toEqual([]);
      expect(at(14)).toEqual([
        expect.stringMatching(
          /missing in type 'InputRequiredResult' but required in type 'CallToolResult'/,
        ),
      ]);
      expect(at(18)).toEqual([
        expect.stringMatching(/'unknown' is not assignable to type 'ListToolsResult'/),
      ]);
      // defineTools: the typed use compiles; no list, no validate, a wrong result or a non-object inputSchema do not.
      expect(at(22)).toEqual([]);
      expect(at(23)).toEqual([expect.stringMatching(/Property 'list' is missing/)]);
      // No `validate` compiles (a tool made by defineTool with a Standard Schema needs none);
      // defineTools throws at start-up for a tool with a JSON Schema to check.
      expect(at(24)).toEqual([]);
      expect(at(25)).toEqual([
        expect.stringMatching(/Type 'string' is not assignable to type 'ContentBlock\[\]'/),
      ]);
      expect(at(26)).toEqual([
        expect.stringMatching(/Type '"array"' is not assignable to type '"object"'/),
      ]);
      // defineTool: the typed uses compile; each @ts-expect-error line has its error (an unused
      // directive would be an error of its own), none elsewhere.
      expect([34, 36, 38, 40, 42, 44, 46, 47].flatMap(at)).toEqual([]);
      // DispatcherOptions lists clientRequestTimeoutMs and maxLegacyRounds, as numbers.
      expect([49, 51].flatMap(at)).toEqual([]);
      // Middleware's call.method is the revision's methods (53: typed; 55: a misspelt one).
      expect([53, 54, 55].flatMap(at)).toEqual([]);
      const defineToolsErrors = [23, 24, 25, 26].flatMap(at).length;
      expect(errors.filter((e) => /use\.ts/.test(e))).toHaveLength(
        errors.filter((e) => /use\.ts:[45]:/.test(e)).length + 2 + defineToolsErrors,
      );
      // A tsc program over the whole output: 20 s idle, over 60 s on a shared 2-core machine.
    },
  );
});

describe("the handlers.ts skeleton", () => {
  it("serves nothing it has not implemented: placeholders are method not found and advertise no capability but logging", async () => {
    const files = await generatedFiles("2026-07-28");
    const skeleton = await importGenerated<Any>(files, "handlers.js");
    const { d } = await load("2026-07-28");
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const ask = (server: Any, method: string, params: object = {}) =>
      server.handle({ jsonrpc: "2.0", id: 1, method, params: { _meta: meta, ...params } });
    const discovered = await ask(skeleton.serverDispatcher, "server/discover");
    // logging alone: every server declares it (ctx.log is on every context).
    expect(discovered.result.capabilities).toEqual({ logging: {} });
    expect((await ask(skeleton.serverDispatcher, "tools/call", { name: "x" })).error).toMatchObject(
      { code: -32601 },
    );
    // Replacing one placeholder serves that method and advertises its capability.
    const handlers = {
      ...skeleton.serverHandlers,
      "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private" }),
    };
    const served = d.createServerDispatcher(handlers);
    expect((await ask(served, "server/discover")).result.capabilities).toEqual({
      tools: {},
      logging: {},
    });
    expect((await ask(served, "tools/list")).result).toMatchObject({ tools: [] });
    expect((await ask(served, "prompts/list")).error).toMatchObject({ code: -32601 });
  });
});

describe("dispatchers of older revisions", () => {
  it("2025-11-25: both sides receive requests; ping is answered both ways", async () => {
    const { d, v } = await load("2025-11-25");
    const server = d.createServerDispatcher({});
    const client = d.createClientDispatcher({
      "sampling/createMessage": () => ({
        role: "assistant",
        content: { type: "text", text: "hi" },
        model: "m",
      }),
    });
    for (const side of [server, client]) {
      expect(await side.handle({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({
        jsonrpc: "2.0",
        id: 1,
        result: {},
      });
    }
    const sampled = await client.handle({
      jsonrpc: "2.0",
      id: 2,
      method: "sampling/createMessage",
      params: { messages: [], maxTokens: 5 },
    });
    expect(v.validateCreateMessageResult(sampled.result).ok).toBe(true);
    // A server does not answer requests meant for clients, and the other way round.
    expect(
      (
        await server.handle({
          jsonrpc: "2.0",
          id: 3,
          method: "sampling/createMessage",
          params: { messages: [], maxTokens: 5 },
        })
      ).error.code,
    ).toBe(-32601);
    expect((await client.handle({ jsonrpc: "2.0", id: 4, method: "tools/list" })).error.code).toBe(
      -32601,
    );
    expect(d.createServerDispatcher).toBeTypeOf("function");
  });

  it("2025-03-26: batches are answered as batches", async () => {
    const { d } = await load("2025-03-26");
    const server = d.createServerDispatcher({ "tools/list": () => ({ tools: [] }) });
    const replies = await server.handle([
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "nope" },
    ]);
    expect(replies).toEqual([
      { jsonrpc: "2.0", id: 1, result: { tools: [] } },
      { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found: nope" } },
    ]);
    expect(
      await server.handle([{ jsonrpc: "2.0", method: "notifications/initialized" }]),
    ).toBeUndefined();
  });

  it("2025-03-26: a batch longer than maxBatchLength is refused whole, before any handler runs", async () => {
    const { d } = await load("2025-03-26");
    let calls = 0;
    const handlers = { "tools/list": () => (calls++, { tools: [] }) };
    const batch = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "tools/list" }));
    expect(await d.createServerDispatcher(handlers).handle(batch(101))).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid request: a batch of 101 messages; at most 100" },
    });
    expect(calls).toBe(0);
    expect(await d.createServerDispatcher(handlers).handle(batch(100))).toHaveLength(100);
    const small = d.createServerDispatcher(handlers, { maxBatchLength: 2 });
    expect((await small.handle(batch(3))).error.message).toBe(
      "Invalid request: a batch of 3 messages; at most 2",
    );
    expect(() => d.createServerDispatcher(handlers, { maxBatchLength: 0 })).toThrow(
      "maxBatchLength must be a positive integer, got 0",
    );
  });

  it("2024-11-05: an unidentifiable request gets id null, as JSON-RPC says", async () => {
    const { d } = await load("2024-11-05");
    expect(await d.createServerDispatcher({}).handleText("[")).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error" },
    });
    expect("createClientDispatcher" in d).toBe(true);
  });
});
