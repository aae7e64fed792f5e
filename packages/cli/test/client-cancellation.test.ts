// The generated client on a legacy session, when the server cancels what it asked
// (2025-11-25 basic/utilities/cancellation: the receiver SHOULD stop processing and send no
// response). A v1 SDK 1.32.2 server aborts or times out its elicitation/create, which makes
// the SDK send notifications/cancelled; the client's input handler sees its signal abort, and
// the server never receives a response for that id. Over Streamable HTTP (the question on
// the standalone GET stream, and on the call's own stream) and over stdio.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { impatientServer } from "./fixtures/v1-impatient-server.mjs";
import { fixture } from "./helpers.js";
import { importDualEraClient } from "./support/dual-era-client.js";

type Any = any;
/** How long the handler would wait for its signal before answering anyway. */
const PATIENCE_MS = 1500;

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

/**
 * An elicitation handler that waits for its signal (or PATIENCE_MS) and then answers anyway:
 * an answer the client must not send once the server cancelled the request.
 */
function patientHandler() {
  const calls: { key: string; signal: AbortSignal | undefined; settled: Promise<void> }[] = [];
  const handler = (_params: unknown, context: { key: string; signal: AbortSignal | undefined }) => {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    calls.push({ key: context.key, signal: context.signal, settled });
    return new Promise((resolve) => {
      const answer = () => (
        clearTimeout(timer),
        resolve({ action: "accept", content: { name: "late" } }),
        settle()
      );
      const timer = setTimeout(answer, PATIENCE_MS);
      context.signal?.addEventListener("abort", answer, { once: true });
    });
  };
  return { handler, calls };
}

function connect(transport: Any, handlers: Record<string, unknown>) {
  return client.createClient({ transport, era: "legacy", inputHandlers: handlers });
}

describe("the server cancels its elicitation: v1 SDK 1.32.2 over Streamable HTTP", () => {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let server: HttpServer;
  let url: string;

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body =
        chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      const id = req.headers["mcp-session-id"] as string | undefined;
      let transport = id === undefined ? undefined : sessions.get(id);
      if (id !== undefined && !transport) return void res.writeHead(404).end("unknown session");
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => void sessions.set(sid, created),
        });
        const { server: mcp, spy } = impatientServer();
        await mcp.connect(created);
        spy(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));

  it("aborted with a signal, asked on the standalone GET stream: the handler's signal aborts with the reason, no response is sent", async () => {
    const { handler, calls } = patientHandler();
    const c = connect(httpClient.createHttpTransport({ url }), { "elicitation/create": handler });
    try {
      const result = await c.callTool({ name: "abandon", arguments: {} });
      expect(result.content[0].text).toMatch(/^gave up: /);
      await checkCancelled(c, calls, /changed my mind/);
    } finally {
      await c.close();
    }
  });

  it("timed out, asked on the call's own stream: the handler's signal aborts, no response is sent", async () => {
    const { handler, calls } = patientHandler();
    const c = connect(httpClient.createHttpTransport({ url }), { "elicitation/create": handler });
    try {
      const result = await c.callTool({ name: "hurry", arguments: {} });
      expect(result.content[0].text).toMatch(/^gave up: .*timed out/i);
      await checkCancelled(c, calls, /timed out/i);
    } finally {
      await c.close();
    }
  });
});

describe("the server cancels its elicitation: v1 SDK 1.32.2 over stdio", () => {
  it("aborted and timed out: each handler's signal aborts, and the server receives no response for either", async () => {
    const { handler, calls } = patientHandler();
    const transport = stdio.createStdioTransport({
      command: process.execPath,
      args: [fixture("v1-impatient-server.mjs")],
      stderr: "ignore",
    });
    const c = connect(transport, { "elicitation/create": handler });
    try {
      expect((await c.callTool({ name: "abandon", arguments: {} })).content[0].text).toMatch(
        /^gave up: /,
      );
      expect((await c.callTool({ name: "hurry", arguments: {} })).content[0].text).toMatch(
        /^gave up: /,
      );
      expect(calls).toHaveLength(2);
      await checkCancelled(c, calls.slice(0, 1), /changed my mind/);
      await checkCancelled(c, calls.slice(1), /timed out/i);
    } finally {
      await c.close();
    }
  });
});

/** The handler saw its signal abort for `reason`, and no response for its request reached the server. */
async function checkCancelled(
  c: Any,
  calls: ReturnType<typeof patientHandler>["calls"],
  reason: RegExp,
): Promise<void> {
  expect(calls).toHaveLength(1);
  const [call] = calls;
  await call!.settled;
  expect(call!.signal?.aborted).toBe(true);
  expect(String(call!.signal?.reason?.message)).toMatch(reason);
  // Room for a (wrong) late response to arrive before the server is asked what it received.
  await new Promise((r) => setTimeout(r, 200));
  const received = JSON.parse(
    (await c.callTool({ name: "responses", arguments: {} })).content[0].text,
  );
  expect(received.map(String)).not.toContain(call!.key);
}
