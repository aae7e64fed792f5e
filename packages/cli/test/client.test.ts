import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, generatedFiles, writeGenerated } from "./helpers.js";
import { within } from "./support/wait.js";

type Any = any;

let dir: string;
let client: Any;
let stdio: Any;
let httpClient: Any;
let httpServer: Any;
let createServer: (dir: string) => Promise<Any>;

beforeAll(async () => {
  dir = writeGenerated(await generatedFiles("2026-07-28"));
  client = await import(join(dir, "client.js"));
  stdio = await import(join(dir, "stdio.js"));
  httpClient = await import(join(dir, "http-client.js"));
  httpServer = await import(join(dir, "http-server.js"));
  ({ createServer } = await import(fixture("mrtr-server.mjs")));
});

const elicitHandler = (calls: Any[]) => async (params: Any, ctx: Any) => {
  calls.push({ params, key: ctx.key });
  return { action: "accept", content: { name: "Ada" } };
};
const sampleHandler = (calls: Any[]) => async (params: Any, ctx: Any) => {
  calls.push({ params, key: ctx.key });
  return {
    role: "assistant",
    content: { type: "text", text: "Roses are red" },
    model: "test-model",
  };
};

/** The same MRTR scenarios over any transport; `wire` is what the server saw, when visible. */
function mrtrScenarios(
  name: string,
  connect: () => Promise<{ transport: Any; log?: Any; STATE: string; close?: () => Promise<void> }>,
) {
  describe(`multi round-trip over ${name}`, () => {
    it("an elicitation, then a sampling, then the result: new ids, exact requestState, answers at their keys", async () => {
      const { transport, log, STATE, close } = await connect();
      const elicitCalls: Any[] = [];
      const sampleCalls: Any[] = [];
      const c = client.createClient({
        transport,
        clientInfo: { name: "test-client", version: "0.0.1" },
        inputHandlers: {
          "elicitation/create": elicitHandler(elicitCalls),
          "sampling/createMessage": sampleHandler(sampleCalls),
        },
      });
      const result = await c.callTool({ name: "wizard", arguments: {} });
      const final = JSON.parse(result.content[0].text);
      expect(final.name).toBe("Ada");
      expect(final.poem).toBe("Roses are red");
      // requestState came back byte for byte each round; the server saw three different ids.
      const [firstId, secondId] = final.state.split("|").slice(-2).map(Number);
      expect(final.state).toBe(`${STATE}|${firstId}|${secondId}`);
      expect(new Set([firstId, secondId, final.id]).size).toBe(3);
      expect(elicitCalls).toEqual([
        { key: "who", params: expect.objectContaining({ message: "Your name?" }) },
      ]);
      expect(sampleCalls).toEqual([
        { key: "poem", params: expect.objectContaining({ maxTokens: 50 }) },
      ]);
      expect(result.resultType).toBe("complete");
      if (log) {
        const calls = log.requests.filter((m: Any) => m.method === "tools/call");
        expect(calls).toHaveLength(3);
        const [r1, r2, r3] = calls;
        expect(r1.params.requestState).toBeUndefined();
        expect(r1.params.inputResponses).toBeUndefined();
        expect(r2.params.inputResponses).toEqual({
          who: { action: "accept", content: { name: "Ada" } },
        });
        expect(r2.params.requestState).toBe(`${STATE}|${r1.id}`);
        expect(Object.keys(r3.params.inputResponses)).toEqual(["poem"]);
        expect(r3.params.requestState).toBe(`${STATE}|${r1.id}|${r2.id}|Ada`);
        for (const r of calls) {
          expect(r.params.name).toBe("wizard");
          expect(r.params._meta).toMatchObject({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "0.0.1" },
            "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {} },
          });
        }
      }
      await close?.();
    });

    it("no requestState in the retry when the server sent none", async () => {
      const { transport, close } = await connect();
      const c = client.createClient({
        transport,
        inputHandlers: { "elicitation/create": elicitHandler([]) },
      });
      const final = JSON.parse((await c.callTool({ name: "stateless" })).content[0].text);
      expect(final).toEqual({ hasState: false, name: "Ada" });
      await close?.();
    });

    it("a declined input ends the call without a retry", async () => {
      const { transport, log, close } = await connect();
      const c = client.createClient({
        transport,
        inputHandlers: { "elicitation/create": () => client.DECLINE },
      });
      // tools/call requests only: over HTTP the server also lists its tools (Mcp-Param-* checks).
      const calls = () => log?.requests.filter((m: Any) => m.method === "tools/call").length ?? 0;
      const before = calls();
      await expect(c.callTool({ name: "wizard" })).rejects.toMatchObject({
        name: "InputDeclinedError",
        method: "elicitation/create",
        key: "who",
      });
      if (log) expect(calls() - before).toBe(1);
      await close?.();
    });

    it("the bound on rounds holds", async () => {
      const { transport, log, close } = await connect();
      const c = client.createClient({ transport, maxRounds: 3 });
      const calls = () => log?.requests.filter((m: Any) => m.method === "tools/call").length ?? 0;
      const before = calls();
      await expect(c.callTool({ name: "forever" })).rejects.toMatchObject({
        name: "RoundLimitError",
        rounds: 3,
      });
      if (log) expect(calls() - before).toBe(3);
      await close?.();
    });

    it("aborting cancels the request in flight: notifications/cancelled, or over HTTP the stream's close", async () => {
      const { transport, log, close } = await connect();
      const notices = () =>
        log?.requests.filter((m: Any) => m.method === "notifications/cancelled").length ?? 0;
      const before = notices();
      const c = client.createClient({ transport });
      const controller = new AbortController();
      // Abort once the server has the call: its handler says so (a log message) when it runs.
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const pending = c.callTool(
        { name: "slow", arguments: { announce: true } },
        { signal: controller.signal, logLevel: "info", onLog: () => started() },
      );
      await within(running, "the server starting the call");
      controller.abort(new Error("user gave up"));
      await expect(pending).rejects.toThrow("user gave up");
      // The server's handler saw its signal fire for that request (asked once it has).
      const seen: Any = await within(
        c.callTool({ name: "cancelled", arguments: { wait: true } }),
        "the server's handler seeing the cancellation",
      );
      const cancelled = JSON.parse(seen.content[0].text);
      expect(cancelled).toHaveLength(1);
      // 2026-07-28 basic/patterns/cancellation: on Streamable HTTP no notifications/cancelled is expected.
      if (log) expect(notices() - before).toBe(transport.closesStreamOnAbort ? 0 : 1);
      await close?.();
    });

    it("progress and log messages reach the call's callbacks; pages are followed", async () => {
      const { transport, close } = await connect();
      const c = client.createClient({ transport });
      const progress: Any[] = [];
      await c.callTool({ name: "progress" }, { onProgress: (p: Any) => progress.push(p) });
      expect(progress.map((p) => [p.progress, p.total, p.message])).toEqual([
        [1, 2, "half"],
        [2, 2, "done"],
      ]);
      const logs: Any[] = [];
      await c.callTool({ name: "chatty" }, { logLevel: "info", onLog: (p: Any) => logs.push(p) });
      expect(logs).toEqual([
        { level: "warning", data: { disk: "almost full" }, logger: "storage" },
      ]);
      const names: string[] = [];
      for await (const page of c.listToolsPages())
        names.push(...page.tools.map((t: Any) => t.name));
      expect(names).toEqual(["t0", "t1", "t2"]);
      await close?.();
    });
  });
}

mrtrScenarios("memory", async () => {
  const server = await createServer(dir);
  return {
    transport: client.createDirectTransport(server.dispatcher.handle),
    log: server.log,
    STATE: server.STATE,
  };
});

mrtrScenarios("stdio (a real child process)", async () => {
  const script = join(dir, "server-stdio.mjs");
  writeFileSync(
    script,
    `import { createServer } from ${JSON.stringify(fixture("mrtr-server.mjs"))};
import { serveStdio } from "./stdio.js";
const server = await createServer(${JSON.stringify(dir)});
serveStdio(server.dispatcher);
`,
  );
  const transport = stdio.createStdioTransport({ command: process.execPath, args: [script] });
  const { STATE } = await createServer(dir);
  return { transport, STATE, close: () => transport.close() };
});

describe("HTTP", () => {
  const servers: Any[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  mrtrScenarios("Streamable HTTP on 127.0.0.1", async () => {
    const server = await createServer(dir);
    const http = await httpServer.serveHttp(server.dispatcher);
    servers.push(http);
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    return {
      transport: httpClient.createHttpTransport({ url: http.url }),
      log: server.log,
      STATE: server.STATE,
    };
  });

  it("sends the routing headers, and the server checks them (400 and -32020 on a mismatch)", async () => {
    const server = await createServer(dir);
    const http = await httpServer.serveHttp(server.dispatcher);
    servers.push(http);
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "progress",
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          progressToken: "tok",
        },
      },
    };
    expect(httpClient.routingHeaders(body)).toEqual({
      "Mcp-Method": "tools/call",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Name": "progress",
    });
    const post = (headers: Record<string, string>) =>
      fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const wrong = await post({ ...httpClient.routingHeaders(body), "Mcp-Name": "other" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ id: 1, error: { code: -32020 } });
    const missing = await post({ "Mcp-Method": "tools/call" });
    expect(missing.status).toBe(400);
    // Progress before the answer turns the reply into an event stream.
    const ok = await post(httpClient.routingHeaders(body));
    expect(ok.headers.get("content-type")).toBe("text/event-stream");
    expect((await ok.text()).match(/^data: /gm)).toHaveLength(3);
  });
});

describe("the HTTP server's guards", () => {
  it("refuses foreign origins and hosts, non-POST, wrong content types, big bodies; times out slow requests", async () => {
    const server = await createServer(dir);
    const http = await httpServer.serveHttp(server.dispatcher, {
      maxBodyBytes: 1000,
      requestTimeoutMs: 200,
    });
    const headers = {
      "content-type": "application/json",
      "Mcp-Method": "tools/call",
      "MCP-Protocol-Version": "2026-07-28",
    };
    const call = (name: string, extra: Record<string, string> = {}, body?: string) =>
      fetch(http.url, {
        method: "POST",
        headers: { ...headers, "Mcp-Name": name, ...extra },
        body:
          body ??
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: {
              name,
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
              },
            },
          }),
      });
    try {
      expect(http.url.startsWith("http://127.0.0.1:")).toBe(true);
      expect((await call("progress", { origin: "https://evil.example" })).status).toBe(403);
      expect((await call("progress", { origin: `http://localhost:1234` })).status).toBe(200);
      expect((await fetch(http.url, { method: "GET" })).status).toBe(405);
      expect((await call("progress", { "content-type": "text/plain" })).status).toBe(415);
      expect((await call("progress", {}, JSON.stringify({ pad: "x".repeat(2000) }))).status).toBe(
        413,
      );
      expect((await call("progress", {}, "{oops")).status).toBe(400);
      const slow = await call("slow");
      expect(slow.status).toBe(504);
      expect(await slow.json()).toMatchObject({
        id: 1,
        error: { code: -32603, message: "Request timed out" },
      });
      const { request } = await import("node:http");
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          http.url,
          { method: "POST", headers: { ...headers, host: "evil.example.com" } },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on("error", reject);
        req.end("{}");
      });
      expect(status).toBe(403);
    } finally {
      await http.close();
    }
  });
});

describe("statelessness", () => {
  it("the rounds of one call may land on different server instances (a plain load balancer)", async () => {
    const a = await httpServer.serveHttp((await createServer(dir)).dispatcher);
    const b = await httpServer.serveHttp((await createServer(dir)).dispatcher);
    try {
      const transports = [
        httpClient.createHttpTransport({ url: a.url }),
        httpClient.createHttpTransport({ url: b.url }),
      ];
      let turn = 0;
      const roundRobin = {
        request: (m: Any, o: Any) => transports[turn++ % 2].request(m, o),
        notify: (m: Any) => transports[0].notify(m),
      };
      const c = client.createClient({
        transport: roundRobin,
        inputHandlers: {
          "elicitation/create": elicitHandler([]),
          "sampling/createMessage": sampleHandler([]),
        },
      });
      const final = JSON.parse((await c.callTool({ name: "wizard" })).content[0].text);
      expect(final.name).toBe("Ada");
      expect(turn).toBe(3);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("older revisions: a server calling the client", () => {
  it("2025-11-25: createServerRequester sends sampling/createMessage and ping to a client dispatcher", async () => {
    const old = writeGenerated(await generatedFiles("2025-11-25"));
    const { createServerRequester, createDirectTransport } = await import(join(old, "client.js"));
    const { createClientDispatcher } = await import(join(old, "dispatcher.js"));
    const clientSide = createClientDispatcher({
      "sampling/createMessage": (params: Any) => ({
        role: "assistant",
        content: { type: "text", text: `${params.messages.length} messages` },
        model: "m",
      }),
    });
    const server = createServerRequester({
      transport: createDirectTransport((m: Any, c: Any) => clientSide.handle(m, c)),
    });
    const sampled = await server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 10,
    });
    expect(sampled.content.text).toBe("1 messages");
    expect(await server.ping()).toEqual({});
    await expect(server.listRoots()).rejects.toMatchObject({ name: "McpError", code: -32601 });
  });
});

describe("client protocol checks", () => {
  const respond = (result: unknown) =>
    client.createDirectTransport(async (m: Any) =>
      m.id === undefined ? undefined : { jsonrpc: "2.0", id: m.id, result },
    );

  it("input_required from a method that may not ask is a protocol error", async () => {
    const c = client.createClient({
      transport: respond({ resultType: "input_required", requestState: "x" }),
    });
    await expect(c.listTools()).rejects.toMatchObject({
      name: "McpProtocolError",
      message: "tools/list may not answer input_required",
    });
  });

  it("an input request for a capability the request did not declare is a protocol error", async () => {
    const ask = {
      resultType: "input_required",
      inputRequests: {
        s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } },
      },
    };
    const c = client.createClient({
      transport: respond(ask),
      inputHandlers: { "elicitation/create": elicitHandler([]) },
    });
    await expect(c.callTool({ name: "x" })).rejects.toThrow(
      /did not declare the sampling capability/,
    );
  });

  it("a result without resultType is complete (older servers); invalid results are refused", async () => {
    const c = client.createClient({
      transport: respond({ content: [{ type: "text", text: "old" }] }),
    });
    expect(await c.callTool({ name: "x" })).toEqual({
      content: [{ type: "text", text: "old" }],
      resultType: "complete",
    });
    const bad = client.createClient({
      transport: respond({ resultType: "complete", content: "no" }),
    });
    await expect(bad.callTool({ name: "x" })).rejects.toMatchObject({
      name: "McpProtocolError",
      errors: [{ path: "/content" }],
    });
  });

  it("manual mode hands the interim result to the caller", async () => {
    const interim = { resultType: "input_required", requestState: "s1" };
    const c = client.createClient({ transport: respond(interim) });
    expect(await c.callTool({ name: "x" }, { manual: true })).toEqual(interim);
  });

  it("merges the caller's _meta and capabilities, never dropping them", async () => {
    const seen: Any[] = [];
    const transport = client.createDirectTransport(async (m: Any) => {
      seen.push(m);
      return { jsonrpc: "2.0", id: m.id, result: { resultType: "complete", content: [] } };
    });
    const c = client.createClient({
      transport,
      capabilities: { experimental: { x: {} }, elicitation: { url: {} } },
      inputHandlers: { "elicitation/create": elicitHandler([]) },
    });
    await c.callTool(
      { name: "x", _meta: { "com.example/trace": "t1" } },
      { meta: { "com.example/span": 2 }, logLevel: "info" },
    );
    expect(seen[0].params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {
        elicitation: { url: {} },
        experimental: { x: {} },
        // Tasks are on unless `tasks: false`: the Tasks extension is declared.
        extensions: { "io.modelcontextprotocol/tasks": {} },
      },
      "io.modelcontextprotocol/logLevel": "info",
      "com.example/trace": "t1",
      "com.example/span": 2,
    });
  });

  it("server errors become McpError with code, message and data", async () => {
    const transport = client.createDirectTransport(async (m: Any) => ({
      jsonrpc: "2.0",
      id: m.id,
      error: { code: -32602, message: "Unknown tool", data: { tool: "x" } },
    }));
    await expect(client.createClient({ transport }).callTool({ name: "x" })).rejects.toMatchObject({
      name: "McpError",
      code: -32602,
      data: { tool: "x" },
    });
  });
});
