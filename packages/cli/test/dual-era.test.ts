// Dual-era: ONE generated server (2026-07-28 handlers, legacy revisions 2025-11-25 ..
// 2025-03-26 through `initialize`) serving, concurrently on one HTTP endpoint, the official
// v1 SDK client 1.32.2 (legacy), the v2 SDK client 2.4.0 in its default (legacy) mode, and
// mcp-gen's own generated modern client. Its elicitation tool answers input_required; legacy
// clients see it as a server-initiated elicitation/create request on their session. (The SDK
// clients' basic flows, over HTTP and stdio, run against both targets in sdk-peers.test.ts.)
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedFiles, writeGenerated } from "./helpers.js";
import {
  type DualEraServer,
  LEGACY,
  startDualEraServer,
  WORDS,
} from "./support/dual-era-server.js";

type Any = any;

let server: DualEraServer;
let eraDispatcher: Any;
let generated: DualEraServer["generated"];

beforeAll(async () => {
  server = await startDualEraServer("ts");
  ({ dispatcher: eraDispatcher, generated } = server);
});
afterAll(() => server?.close());

describe("dual-era server over Streamable HTTP", () => {
  it("hands legacy clients their request errors as JSON-RPC errors, keeping the session (v1, v2, mcp-gen's)", async () => {
    // No resources handlers: method not found. Before, these came as HTTP 404 and 400: the SDK
    // clients threw transport errors without the code, mcp-gen's dropped its live session.
    const v1 = new V1Client({ name: "v1", version: "1.0.0" });
    await v1.connect(new V1HttpTransport(new URL(server.url)));
    await expect(v1.listResources()).rejects.toMatchObject({ code: -32601 });
    await expect(v1.getPrompt({ name: 42 as Any })).rejects.toMatchObject({ code: -32602 });
    expect((await v1.listTools()).tools).toHaveLength(2);
    await v1.close();
    const v2 = new V2Client({ name: "v2", version: "1.0.0" });
    await v2.connect(new V2HttpTransport(new URL(server.url)));
    await expect(v2.readResource({ uri: "memo://a" })).rejects.toMatchObject({ code: -32601 });
    await v2.close();
    let initializes = 0;
    const transport = generated.httpClient.createHttpTransport({
      url: server.url,
      fetch: (url: Any, init: Any) => (
        String(init?.body).includes('"initialize"') && initializes++,
        fetch(url, init)
      ),
    });
    const ours = generated.client.createClient({ transport, era: "legacy" });
    await expect(ours.listResources()).rejects.toMatchObject({ code: -32601 });
    expect((await ours.listTools()).tools).toHaveLength(2);
    expect(initializes).toBe(1);
  });

  it("serves mcp-gen's modern client on the same endpoint, statelessly", async () => {
    const client = generated.client.createClient({
      transport: generated.httpClient.createHttpTransport({ url: server.url }),
      inputHandlers: {
        "elicitation/create": async () => ({ action: "accept", content: { name: "Lin" } }),
      },
    });
    const greet = await client.callTool({ name: "greet" });
    expect(greet.content).toEqual([{ type: "text", text: "Hello, Lin (2026-07-28)" }]);
  });

  it("negotiates an older legacy revision when asked, and refuses an unknown session", async () => {
    const init = (version: string) =>
      fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: version,
            capabilities: {},
            clientInfo: { name: "c", version: "1" },
          },
        }),
      });
    const old = await init("2025-03-26");
    expect(old.headers.get("mcp-session-id")).toMatch(/^[\x21-\x7e]+$/);
    expect((await old.json()).result.protocolVersion).toBe("2025-03-26");
    const future = await init("2099-01-01");
    expect((await future.json()).result.protocolVersion).toBe("2025-11-25");
    const unknown = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-session-id": "nope" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(unknown.status).toBe(404);
  });

  it("answers a session-less legacy request 400, initialize first; a modern one keeps its header checks", async () => {
    const post = async (headers: Record<string, string>, message: object) => {
      const response = await fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", ...message }),
      });
      return { status: response.status, error: (await response.json()).error };
    };
    const list = { id: 1, method: "tools/list" };
    const legacy = {
      status: 400,
      error: {
        code: -32600,
        message: expect.stringMatching(/no Mcp-Session-Id; POST initialize first/),
      },
    };
    // 2025-11-25 basic/transports, "Session Management": 400 without Mcp-Session-Id.
    expect(await post({ "mcp-protocol-version": "2025-11-25" }, list)).toMatchObject(legacy);
    expect(await post({}, list)).toMatchObject(legacy);
    expect(await post({}, { method: "notifications/initialized" })).toMatchObject(legacy);
    // Any modern sign (the version header, the body's _meta) keeps the 2026-07-28 checks.
    const missingMethod = {
      status: 400,
      error: { code: -32020, message: "Header mismatch: missing Mcp-Method header" },
    };
    expect(await post({ "mcp-protocol-version": "2026-07-28" }, list)).toMatchObject(missingMethod);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    expect(await post({}, { ...list, params: { _meta: meta } })).toMatchObject(missingMethod);
    expect(
      await post({ "mcp-protocol-version": "2025-11-25" }, { ...list, params: { _meta: meta } }),
    ).toMatchObject(missingMethod);
  });

  it("sends resource updates to subscribed sessions on their standalone GET stream", async () => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const post = (body: object, extra: Record<string, string> = {}) =>
      fetch(server.url, {
        method: "POST",
        headers: { ...headers, ...extra },
        body: JSON.stringify(body),
      });
    const opened = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    });
    const session = { "mcp-session-id": opened.headers.get("mcp-session-id")! };
    expect((await opened.json()).result.capabilities.logging).toEqual({});
    expect(
      (
        await post(
          { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "memo://a" } },
          session,
        )
      ).status,
    ).toBe(200);
    const stream = await fetch(server.url, {
      headers: { accept: "text/event-stream", ...session },
    });
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect(eraDispatcher.resourceUpdated("memo://other")).toBe(0);
    expect(eraDispatcher.resourceUpdated("memo://a")).toBe(1);
    let text = "";
    while (!text.includes("resources/updated")) text += (await reader.read()).value ?? "";
    expect(text).toContain('"params":{"uri":"memo://a"}');
    await reader.cancel();
  });

  it("serves an initialize carrying modern _meta as a modern request: 404, method not found", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const body = { jsonrpc: "2.0", id: 9, method: "initialize", params: { _meta: meta } };
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-method": "initialize",
      "mcp-protocol-version": "2026-07-28",
    };
    const response = await fetch(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toMatchObject({ id: 9, error: { code: -32601 } });
  });

  it("merges declared capabilities into initialize's too, keeping what the session serves (subscribe, logging)", async () => {
    const d = generated.dispatcher.createServerDispatcher(
      {
        "resources/list": () => ({ resources: [], ttlMs: 0, cacheScope: "public" }),
        "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
      },
      { capabilities: { resources: { listChanged: true }, experimental: { x: {} } } },
    );
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    };
    const reply = await d.handle(initialize, { channel: {} });
    expect(reply.result.capabilities).toEqual({
      experimental: { x: {} },
      logging: {},
      resources: { listChanged: true, subscribe: true },
      tools: {},
    });
  });

  it("ends a session on DELETE", async () => {
    const opened = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        },
      }),
    });
    const id = opened.headers.get("mcp-session-id")!;
    expect(
      (await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": id } })).status,
    ).toBe(200);
    const after = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-session-id": id },
      body: "{}",
    });
    expect(after.status).toBe(404);
  });
});

// What the spec asks beyond the schema, as the SDK servers answer it, seen by real clients in
// every era: a tool's own failure is a tool execution error (server/tools, "Error Handling"),
// an unknown tool a protocol error; a completion sends at most 100 values
// (server/utilities/completion, "Completion Results").
describe("tool execution errors and capped completions, in every era", () => {
  const failed = { content: [{ type: "text", text: "the backend is down" }], isError: true };
  const capped = { values: WORDS.slice(0, 100), hasMore: true, total: 150 };
  const ref = {
    ref: { type: "ref/prompt", name: "hi" },
    argument: { name: "a", value: "w" },
  } as const;

  it("the v1 SDK client 1.32.2 (2025-11-25)", async () => {
    const client = new V1Client({ name: "v1", version: "1.0.0" });
    await client.connect(new V1HttpTransport(new URL(server.url)));
    expect(await client.callTool({ name: "fail", arguments: {} })).toEqual(failed);
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    expect((await client.complete(ref)).completion).toEqual(capped);
    // greet asks for an elicitation this client did not declare: a tool execution error, as
    // the v2 SDK's legacy shim answers (2025-11-25 has no missing-capability error code).
    expect(await client.callTool({ name: "greet", arguments: {} })).toEqual({
      content: [{ type: "text", text: "this request needs the client capability elicitation" }],
      isError: true,
    });
    await client.close();
  });

  it("the v2 SDK client 2.4.0, default (legacy) and auto (2026-07-28) modes", async () => {
    for (const mode of ["default", "auto"]) {
      const client = new V2Client(
        { name: "v2", version: "1.0.0" },
        mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {},
      );
      await client.connect(new V2HttpTransport(new URL(server.url)));
      expect(await client.callTool({ name: "fail", arguments: {} }), mode).toMatchObject(failed);
      await expect(client.callTool({ name: "nope", arguments: {} }), mode).rejects.toMatchObject({
        code: -32602,
      });
      expect((await client.complete(ref)).completion, mode).toEqual(capped);
      await client.close();
    }
  });

  it("the older legacy revisions, each validated at its own revision", async () => {
    for (const version of LEGACY) {
      const channel = {};
      const at = (id: number, method: string, params: object) =>
        eraDispatcher.handle({ jsonrpc: "2.0", id, method, params }, { channel });
      const opened = await at(1, "initialize", {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      });
      expect(opened.result.protocolVersion).toBe(version);
      expect(await at(2, "tools/call", { name: "fail" })).toEqual({
        jsonrpc: "2.0",
        id: 2,
        result: failed,
      });
      expect((await at(3, "completion/complete", ref)).result.completion, version).toEqual(capped);
    }
  });
});

describe("a modern-only server", () => {
  it("answers initialize, on stdio and HTTP, with an error naming the versions it speaks", async () => {
    const files = await generatedFiles("2026-07-28");
    const dir = writeGenerated(files);
    const [dispatcher, http] = await Promise.all(
      ["dispatcher.js", "http-server.js"].map((m) => import(join(dir, m))),
    );
    const d = dispatcher.createServerDispatcher({});
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
    };
    // stdio: the dispatcher answers the line.
    const reply = await d.handleText(JSON.stringify(initialize), { channel: {} });
    expect(reply).toMatchObject({
      id: 1,
      error: { code: -32022, data: { supported: ["2026-07-28"], requested: "2025-06-18" } },
    });
    expect(reply.error.message).toContain("2026-07-28");
    // HTTP: the same error with 400, although the legacy client sent none of the modern headers.
    const served = await http.serveHttp(d);
    try {
      const response = await fetch(served.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(400);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      expect(await response.json()).toMatchObject({
        error: { code: -32022, data: { supported: ["2026-07-28"] } },
      });
    } finally {
      await served.close();
    }
  });
});
