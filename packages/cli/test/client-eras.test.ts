// The dual-era client: ONE generated client (2026-07-28, with 2025-11-25 .. 2025-03-26 reached
// through initialize) and ONE set of input handlers against servers of both eras: the v1 SDK
// 1.32.2 (legacy; Streamable HTTP and stdio), the v2 SDK 2.4.0 in its modern mode and in its
// legacy (sessionful) wiring, and mcp-gen's own dual-era server. It finds each server's era
// once per transport (server/discover), and never sends initialize to a modern server.
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import { join } from "node:path";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  McpServer as V2Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { v1Server } from "./fixtures/v1-server.mjs";
import { fixture, tempDir } from "./helpers.js";
import { whenSeen } from "./support/wait.js";
import {
  importDualEraClient,
  LEGACY,
  listen,
  stop,
  v1SessionfulHandler,
  type Seen,
} from "./support/dual-era-client.js";

type Any = any;

let client: Any;
let httpClient: Any;
let stdio: Any;

beforeAll(async () => {
  [client, httpClient, stdio] = await importDualEraClient([
    "client.js",
    "http-client.js",
    "stdio.js",
  ]);
});

/** The input handlers every test uses, whatever the server's era. */
function inputHandlers() {
  return {
    "elicitation/create": vi.fn(async (_params: Any) => ({
      action: "accept",
      content: { name: "Ada" },
    })),
    "sampling/createMessage": vi.fn(async (_params: Any) => ({
      role: "assistant",
      content: { type: "text", text: "the sea" },
      model: "stub",
    })),
    "roots/list": vi.fn(async () => ({ roots: [{ uri: "file:///work", name: "work" }] })),
  };
}

describe("against the v1 SDK 1.32.2 over Streamable HTTP (legacy, sessions)", () => {
  const seen: Seen = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let url: string;
  let server: HttpServer;

  beforeAll(async () => {
    ({ url, server } = await listen(v1SessionfulHandler(v1Server, sessions), seen));
  });
  afterAll(() => stop(server));

  it("falls back to initialize after one modern probe, and answers the server's requests with the input handlers", async () => {
    seen.length = 0;
    const handlers = inputHandlers();
    const transport = httpClient.createHttpTransport({ url });
    const unrelated: string[] = [];
    const c = client.createClient({
      transport,
      clientInfo: { name: "eras-test", version: "1.0.0" },
      inputHandlers: handlers,
      onNotification: (n: Any) => unrelated.push(n.method),
    });
    expect(await c.era()).toBe("legacy");
    const { tools } = await c.listTools();
    // The newest revision's shape: complete, not to be reused.
    expect(tools.map((t: Any) => t.name)).toEqual(["ask", "draft", "echo", "grow"]);
    const asked = await c.callTool({ name: "ask", arguments: {} });
    // The handler's answer, with the form default it left out (2025-11-25 client/elicitation).
    expect(asked).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "accept: Ada (calm)" }],
    });
    expect(handlers["elicitation/create"]).toHaveBeenCalledOnce();
    expect(await c.callTool({ name: "draft", arguments: {} })).toMatchObject({
      content: [{ text: "draft: the sea" }],
    });
    expect(handlers["sampling/createMessage"]).toHaveBeenCalledOnce();
    const progress: number[] = [];
    const logs: unknown[] = [];
    const echo = await c.callTool(
      { name: "echo", arguments: { text: "hi" } },
      {
        onProgress: (p: Any) => progress.push(p.progress),
        onLog: (l: Any) => logs.push(l.data),
        logLevel: "info",
      },
    );
    expect(echo.content).toEqual([{ type: "text", text: "hi" }]);
    expect(progress).toEqual([1]);
    expect(logs).toEqual(["echo hi"]);
    // A notification no call receives reaches the client's listener (here on the GET stream).
    expect((await c.callTool({ name: "grow", arguments: {} })).content).toEqual([
      { type: "text", text: "grew" },
    ]);
    await vi.waitFor(() => expect(unrelated).toContain("notifications/tools/list_changed"));
    // server/discover is answered from what initialize said.
    const discovered = await c.discover();
    expect(discovered).toMatchObject({
      supportedVersions: ["2025-11-25"],
      capabilities: { tools: expect.anything() },
    });
    expect(discovered._meta["io.modelcontextprotocol/serverInfo"]).toEqual({
      name: "v1-server",
      version: "1.32.2",
    });
    await c.close();
    expect(seen.filter((s) => s === "POST server/discover")).toHaveLength(1);
    expect(seen.slice(0, 3)).toEqual([
      "POST server/discover",
      "POST initialize",
      "POST notifications/initialized",
    ]);
    expect(seen).toContain("POST logging/setLevel");
    expect(seen.at(-1)).toBe("DELETE");
  });

  it("probes once per transport: a second client on the same transport uses the cached era", async () => {
    seen.length = 0;
    const transport = httpClient.createHttpTransport({ url });
    const first = client.createClient({ transport });
    await first.listTools();
    const second = client.createClient({ transport });
    await second.listTools();
    expect(seen.filter((s) => s === "POST server/discover")).toHaveLength(1);
    await second.close();
    // A new transport is a new server as far as the client knows: one more probe.
    const other = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    await other.listTools();
    await other.close();
    expect(seen.filter((s) => s === "POST server/discover")).toHaveLength(2);
  });

  it("initializes again, once, when the server forgets the session (404)", async () => {
    seen.length = 0;
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    await c.listTools();
    sessions.clear();
    expect((await c.listTools()).tools).toHaveLength(4);
    expect(seen.filter((s) => s === "POST initialize")).toHaveLength(2);
    await c.close();
  });

  it("refuses methods the legacy revision lacks with a typed error", async () => {
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    await expect(c.request("subscriptions/listen", {})).rejects.toBeInstanceOf(
      client.EraUnsupportedError,
    );
    await c.close();
  });
});

describe("against the v1 SDK 1.32.2 over stdio (legacy)", () => {
  it("probes with server/discover, falls back to initialize, and serves elicitation, sampling, progress and logs", async () => {
    const handlers = inputHandlers();
    const transport = stdio.createStdioTransport({
      command: process.execPath,
      args: [fixture("v1-server.mjs")],
      stderr: "ignore",
    });
    const unrelated: string[] = [];
    const c = client.createClient({
      transport,
      inputHandlers: handlers,
      probeTimeoutMs: 5000,
      onNotification: (n: Any) => unrelated.push(n.method),
    });
    try {
      expect(await c.era()).toBe("legacy");
      expect(await c.callTool({ name: "ask", arguments: {} })).toMatchObject({
        content: [{ text: "accept: Ada (calm)" }],
      });
      expect(await c.callTool({ name: "draft", arguments: {} })).toMatchObject({
        content: [{ text: "draft: the sea" }],
      });
      const progress: number[] = [];
      const logs: unknown[] = [];
      await c.callTool(
        { name: "echo", arguments: { text: "x" } },
        { onProgress: (p: Any) => progress.push(p.progress), onLog: (l: Any) => logs.push(l.data) },
      );
      expect(progress).toEqual([1]);
      expect(logs).toEqual(["echo x"]);
      expect(handlers["elicitation/create"]).toHaveBeenCalledOnce();
      expect(handlers["sampling/createMessage"]).toHaveBeenCalledOnce();
      await c.callTool({ name: "grow", arguments: {} });
      await vi.waitFor(() => expect(unrelated).toContain("notifications/tools/list_changed"));
    } finally {
      await c.close();
    }
  });
});

/** A v2 SDK server: its tool asks for input the v2 way (input_required), whatever the era it serves. */
function v2Server(): V2Server {
  const server = new V2Server({ name: "v2-server", version: "2.4.0" });
  const nameSchema = z.object({ name: z.string() });
  server.registerTool(
    "greet",
    { description: "Greets whoever answers", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "who", nameSchema);
      if (!answer)
        return inputRequired({
          inputRequests: {
            who: inputRequired.elicit({ message: "Your name?", requestedSchema: nameSchema }),
          },
        });
      return { content: [{ type: "text", text: `Hello, ${answer.name}!` }] };
    },
  );
  server.registerTool("plain", { description: "Answers", inputSchema: z.object({}) }, async () => ({
    content: [{ type: "text", text: "plain" }],
  }));
  return server;
}

/** Hands a node request to a web-standard handler and streams its response back (server requests ride mid-stream). */
async function toWeb(
  req: IncomingMessage,
  res: ServerResponse,
  body: Any,
  fetchLike: (request: Request) => Promise<Response>,
): Promise<void> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const init: RequestInit = {
    method: req.method!,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  };
  const response = await fetchLike(new Request(`http://${req.headers.host}${req.url}`, init));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders(); // a stream may stay quiet for a while: its headers go now
  if (response.body) for await (const chunk of response.body as Any) res.write(chunk);
  res.end();
}

describe("against the v2 SDK 2.4.0", () => {
  it("modern mode: the client stays modern, never initializes, and fulfils input_required with the same handlers", async () => {
    const seen: Seen = [];
    const handler = createMcpHandler(() => v2Server(), { legacy: "reject" });
    const { url, server } = await listen(
      (req, res, body) => toWeb(req, res, body, (r) => handler.fetch(r)),
      seen,
    );
    const handlers = inputHandlers();
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url }),
      inputHandlers: handlers,
    });
    try {
      expect(await c.era()).toBe("modern");
      expect(await c.callTool({ name: "greet", arguments: {} })).toMatchObject({
        content: [{ type: "text", text: "Hello, Ada!" }],
      });
      expect(handlers["elicitation/create"]).toHaveBeenCalledOnce();
      expect(seen).not.toContain("POST initialize");
      expect(seen.filter((s) => s === "POST server/discover")).toHaveLength(1);
    } finally {
      await c.close();
      await handler.close();
      await stop(server);
    }
  });

  it("legacy (sessionful) wiring: the client initializes, and the same handlers answer the SDK's server-initiated elicitation", async () => {
    const seen: Seen = [];
    const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
    const { url, server } = await listen(async (req, res, body) => {
      const id = req.headers["mcp-session-id"] as string | undefined;
      let transport = id === undefined ? undefined : sessions.get(id);
      if (id !== undefined && !transport) return void res.writeHead(404).end("unknown session");
      if (!transport) {
        const created = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => void sessions.set(sid, created),
        });
        await v2Server().connect(created);
        transport = created;
      }
      await toWeb(req, res, body, (r) => transport!.handleRequest(r));
    }, seen);
    const handlers = inputHandlers();
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url }),
      inputHandlers: handlers,
    });
    try {
      expect(await c.era()).toBe("legacy");
      expect(await c.callTool({ name: "plain", arguments: {} })).toMatchObject({
        resultType: "complete",
        content: [{ text: "plain" }],
      });
      expect(await c.callTool({ name: "greet", arguments: {} })).toMatchObject({
        content: [{ type: "text", text: "Hello, Ada!" }],
      });
      expect(handlers["elicitation/create"]).toHaveBeenCalledOnce();
      expect(seen.filter((s) => s === "POST initialize")).toHaveLength(1);
    } finally {
      await c.close();
      await stop(server);
    }
  });
});

describe("era detection", () => {
  afterEach(() => void vi.useRealTimers());

  it("re-probes when the cached era stops holding (a modern server replaced by a legacy one)", async () => {
    const seen: Seen = [];
    const modern = createMcpHandler(() => v2Server(), { legacy: "reject" });
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    let legacy = false;
    const { url, server } = await listen(async (req, res, body) => {
      if (!legacy) return toWeb(req, res, body, (r) => modern.fetch(r));
      const id = req.headers["mcp-session-id"] as string | undefined;
      let transport = id === undefined ? undefined : sessions.get(id);
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => void sessions.set(sid, created),
        });
        await v1Server().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    }, seen);
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    try {
      expect((await c.listTools()).tools.map((t: Any) => t.name)).toEqual(["greet", "plain"]);
      legacy = true;
      // The modern request is refused (400, no JSON-RPC answer to it): probe again, then initialize.
      expect((await c.listTools()).tools.map((t: Any) => t.name)).toEqual([
        "ask",
        "draft",
        "echo",
        "grow",
      ]);
      expect(await c.era()).toBe("legacy");
      expect(seen.filter((s) => s === "POST server/discover")).toHaveLength(2);
    } finally {
      await c.close();
      await modern.close();
      await stop(server);
    }
  });

  it("stdio: a server that never answers the probe is legacy once the probe times out", async () => {
    // A legacy server that ignores requests it does not know before initialize.
    const script = join(tempDir(), "silent.mjs");
    writeFileSync(
      script,
      `import { createInterface } from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "silent", version: "1" } } });
  else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "t", inputSchema: { type: "object" } }] } });
  else if (m.method) process.stderr.write(m.method + "\\n");
}`,
    );
    const transport = stdio.createStdioTransport({
      command: process.execPath,
      args: [script],
      stderr: "pipe",
    });
    let said = "";
    transport.process.stderr.on("data", (chunk: Buffer) => (said += chunk));
    const c = client.createClient({ transport, probeTimeoutMs: 300 });
    try {
      // The probe's timeout is a fake timer: its 300 ms pass once the server has ignored the
      // probe (it names on stderr what it ignores), and not a millisecond sooner.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const ignored = whenSeen(
        [transport.process.stderr],
        () => said.includes("server/discover"),
        "the server ignoring the probe",
      );
      let settled = false;
      const listed = c.listTools().finally(() => (settled = true));
      await ignored;
      await vi.advanceTimersByTimeAsync(299);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await listed).tools).toHaveLength(1);
      expect(await c.era()).toBe("legacy");
      // The version the server chose among those offered (2025-06-18), answered from initialize.
      expect((await c.discover()).supportedVersions).toEqual(["2025-06-18"]);
    } finally {
      await c.close();
    }
  });

  it("initialize refused with the versions the server speaks (2025-11-25 lifecycle, Error Handling): retried once at the best shared one, else an error that says so", async () => {
    // A legacy server that speaks only the versions it is given, and refuses others with the
    // spec's example error (telling the versions offered so far, in its instructions or the
    // error's data); with "refuse-all", it answers every method with "Method not found".
    const script = join(tempDir(), "picky.mjs");
    writeFileSync(
      script,
      `import { createInterface } from "node:readline";
const [supported, other] = process.argv.slice(2);
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const offered = [];
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.id === undefined || !m.method) continue;
  const error = (code, message, data) => send({ jsonrpc: "2.0", id: m.id, error: { code, message, data } });
  if (m.method === "initialize" && other !== "refuse-all") {
    offered.push(m.params.protocolVersion);
    if (!supported.split(",").includes(m.params.protocolVersion)) error(-32602, "Unsupported protocol version", { supported: supported.split(","), requested: m.params.protocolVersion, offered });
    else send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "picky", version: "1" }, instructions: "offered " + offered.join(" ") } });
  } else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [] } });
  else error(-32601, "Method not found");
}`,
    );
    const connect = (...args: string[]) => ({
      c: client.createClient({
        transport: stdio.createStdioTransport({
          command: process.execPath,
          args: [script, ...args],
          stderr: "ignore",
        }),
      }),
    });
    const shared = connect("2024-11-05,2025-03-26");
    try {
      expect((await shared.c.listTools()).tools).toEqual([]);
      const discovered = await shared.c.discover();
      expect(discovered.instructions).toBe("offered 2025-11-25 2025-03-26");
      expect(discovered.supportedVersions).toEqual(["2025-03-26"]);
    } finally {
      await shared.c.close();
    }
    const none = connect("2024-11-05");
    try {
      const error = await none.c.listTools().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(client.McpError);
      // Nothing shared: no second offer.
      expect(error).toMatchObject({
        code: -32602,
        data: { supported: ["2024-11-05"], offered: ["2025-11-25"] },
      });
      expect(error.message).toBe(
        `the server refused initialize: Unsupported protocol version (it speaks 2024-11-05; this client speaks ${LEGACY.join(", ")})`,
      );
    } finally {
      await none.c.close();
    }
    // A JSON-RPC peer that is not an MCP server: the caller of listTools learns that initialize failed.
    const stranger = connect("-", "refuse-all");
    try {
      await expect(stranger.c.listTools()).rejects.toMatchObject({
        code: -32601,
        message: "the server refused initialize: Method not found",
      });
    } finally {
      await stranger.c.close();
    }
  });

  it("a pinned era skips the probe; an unknown legacy version is refused up front", async () => {
    const seen: Seen = [];
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const { url, server } = await listen(async (req, res, body) => {
      const id = req.headers["mcp-session-id"] as string | undefined;
      let transport = id === undefined ? undefined : sessions.get(id);
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => void sessions.set(sid, created),
        });
        await v1Server().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    }, seen);
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url }),
      era: "legacy",
      legacyVersions: ["2025-06-18"],
    });
    try {
      await c.listTools();
      expect(seen.slice(0, 2)).toEqual(["POST initialize", "POST notifications/initialized"]);
      expect((await c.discover()).supportedVersions).toEqual(["2025-06-18"]);
    } finally {
      await c.close();
      await stop(server);
    }
    expect(() =>
      client.createClient({
        transport: httpClient.createHttpTransport({ url }),
        legacyVersions: ["2024-11-05"],
      }),
    ).toThrow(/legacyVersions: 2024-11-05/);
  });
});
