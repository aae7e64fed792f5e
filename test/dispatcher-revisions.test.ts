import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatedFiles, importGenerated, tempDir, typecheck, writeFiles } from "./helpers.js";

// The dispatcher's handler types, and the dispatchers of revisions before 2026-07-28
// (dispatcher.test.ts runs 2026-07-28's).

type Any = any;

async function load(revision: string): Promise<{ d: Any; v: Any }> {
  const files = await generatedFiles(revision);
  return { d: await importGenerated<Any>(files, "dispatcher.js"), v: await importGenerated<Any>(files, "validators.js") };
}

describe("handler types", () => {
  it("only methods the schema lets answer input_required may return it (a type error elsewhere)", async () => {
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
`,
    );
    const errors = typecheck([join(dir, "use.ts")]);
    expect(errors.some((e) => /use\.ts:4:/.test(e))).toBe(true);
    expect(errors.some((e) => /use\.ts:5:/.test(e))).toBe(true);
    expect(errors.some((e) => /use\.ts:3:/.test(e))).toBe(false);
    // A tsc program over the whole output: 20 s idle, over 60 s on a shared 2-core machine.
  }, 120_000);
});

describe("the handlers.ts skeleton", () => {
  it("serves nothing it has not implemented: placeholders are method not found and advertise no capability", async () => {
    const files = await generatedFiles("2026-07-28");
    const skeleton = await importGenerated<Any>(files, "handlers.js");
    const { d } = await load("2026-07-28");
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const ask = (server: Any, method: string, params: object = {}) => server.handle({ jsonrpc: "2.0", id: 1, method, params: { _meta: meta, ...params } });
    const discovered = await ask(skeleton.serverDispatcher, "server/discover");
    expect(discovered.result.capabilities).toEqual({});
    expect((await ask(skeleton.serverDispatcher, "tools/call", { name: "x" })).error).toMatchObject({ code: -32601 });
    // Replacing one placeholder serves that method and advertises its capability.
    const handlers = { ...skeleton.serverHandlers, "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private" }) };
    const served = d.createServerDispatcher(handlers);
    expect((await ask(served, "server/discover")).result.capabilities).toEqual({ tools: {} });
    expect((await ask(served, "tools/list")).result).toMatchObject({ tools: [] });
    expect((await ask(served, "prompts/list")).error).toMatchObject({ code: -32601 });
  });
});

describe("dispatchers of older revisions", () => {
  it("2025-11-25: both sides receive requests; ping is answered both ways", async () => {
    const { d, v } = await load("2025-11-25");
    const server = d.createServerDispatcher({});
    const client = d.createClientDispatcher({
      "sampling/createMessage": () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" }),
    });
    for (const side of [server, client]) {
      expect(await side.handle({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    }
    const sampled = await client.handle({ jsonrpc: "2.0", id: 2, method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } });
    expect(v.validateCreateMessageResult(sampled.result).ok).toBe(true);
    // A server does not answer requests meant for clients, and the other way round.
    expect((await server.handle({ jsonrpc: "2.0", id: 3, method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } })).error.code).toBe(-32601);
    expect((await client.handle({ jsonrpc: "2.0", id: 4, method: "tools/list" })).error.code).toBe(-32601);
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
    expect(await server.handle([{ jsonrpc: "2.0", method: "notifications/initialized" }])).toBeUndefined();
  });

  it("2024-11-05: an unidentifiable request gets id null, as JSON-RPC says", async () => {
    const { d } = await load("2024-11-05");
    expect(await d.createServerDispatcher({}).handleText("[")).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    expect("createClientDispatcher" in d).toBe(true);
  });
});
