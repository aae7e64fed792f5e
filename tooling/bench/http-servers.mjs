// The servers of the http benchmark (tooling/bench/http.mjs), each run in its own child process so
// the load generator does not share its event loop: `node tooling/bench/http-servers.mjs <kind> [dir]`
// under child_process.fork. Every kind serves the same one tool, `echo`, returning its `text`
// argument as a text result, on a free port; the child sends { url } once it listens, answers
// "stats" with its RSS and CPU time, and exits on "exit" (so --cpu-prof writes its profile).
//
//   mcp-gen      the generated dual-era serveHttp (dir: the transpiled output of mcp-gen
//                generate for 2026-07-28 + 2025-11-25 .. 2025-03-26): one server, both eras;
//                legacy sessions are sessionful (Mcp-Session-Id minted on initialize).
//   baseline     the same, generated and served by mcp-gen at an earlier commit (dir).
//   bare         node:http alone: reads and parses the body, answers a canned tools/call
//                result; what no MCP server on this Node can beat.
//   sdk          the v2 SDK 2.4.0's createMcpHandler(factory) as its docs mount it on node:http
//                (toNodeHandler from @modelcontextprotocol/node): one handler, both eras; its
//                default `legacy: "stateless"` answers every 2025 request with a fresh instance
//                and mints no session (initialize is answered, no Mcp-Session-Id).
//   sdk-sessions the SDK's documented composition for sessionful 2025 serving next to the
//                modern entry: isLegacyRequest routes 2025 traffic to one
//                NodeStreamableHTTPServerTransport (+ McpServer) per session, everything else
//                to createMcpHandler(factory, { legacy: "reject" }). The SDK needs this
//                separate wiring to keep legacy sessions; one createMcpHandler cannot.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";
import { createMcpHandler, isLegacyRequest, McpServer } from "@modelcontextprotocol/server";
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from "@modelcontextprotocol/node";
import * as z from "zod";

const SERVER_INFO = { name: "bench", version: "1.0.0" };

async function mcpGen(dir) {
  const dispatcher = await import(join(dir, "dispatcher.js"));
  const http = await import(join(dir, "http-server.js"));
  const d = dispatcher.createServerDispatcher(
    {
      "tools/call": (params) => ({
        content: [{ type: "text", text: String(params.arguments?.text ?? "") }],
      }),
    },
    { serverInfo: SERVER_INFO },
  );
  const served = await http.serveHttp(d);
  return { url: served.url, close: served.close };
}

function echoServer() {
  const server = new McpServer(SERVER_INFO);
  server.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  return server;
}

const fail = (error) => process.stderr.write(`sdk error: ${error?.stack ?? error}\n`);

async function listen(listener) {
  const server = createServer((req, res) => void listener(req, res));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

function sdk() {
  const handler = createMcpHandler(echoServer, { onerror: fail });
  return listen(toNodeHandler(handler, { onerror: fail }));
}

function sdkSessions() {
  const modern = toNodeHandler(createMcpHandler(echoServer, { legacy: "reject", onerror: fail }), {
    onerror: fail,
  });
  const sessions = new Map();
  const legacy = async (req, res, body) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      if (typeof id === "string" || body?.method !== "initialize") {
        res.writeHead(id ? 404 : 400, { "content-type": "application/json" });
        return void res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32000, message: id ? "Session not found" : "No session" },
          }),
        );
      }
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: true,
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await echoServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  };
  return listen(async (req, res) => {
    try {
      // The body is read once, as express.json() would, and handed to both legs parsed.
      let body;
      if (req.method === "POST") {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      }
      const probe = await toWebRequest(req, body);
      if (await isLegacyRequest(probe, body)) await legacy(req, res, body);
      else await modern(req, res, body);
    } catch (error) {
      fail(error);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
}

const [kind, dir] = process.argv.slice(2);
function bare() {
  const result = { content: [{ type: "text", text: "hi" }] };
  return listen(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  });
}

const starts = {
  "mcp-gen": () => mcpGen(dir),
  baseline: () => mcpGen(dir),
  sdk,
  "sdk-sessions": sdkSessions,
  bare,
};
if (!starts[kind]) {
  console.error(`usage: http-servers.mjs ${Object.keys(starts).join("|")} [dir]`);
  process.exit(2);
}
const served = await starts[kind]();
process.on("message", async (message) => {
  if (message === "stats") {
    const { user, system } = process.cpuUsage();
    process.send({ rss: process.memoryUsage().rss, cpuMicros: user + system });
  } else if (message === "exit") {
    await served.close();
    process.exit(0);
  }
});
process.send({ url: served.url });
