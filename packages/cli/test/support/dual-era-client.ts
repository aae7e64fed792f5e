import { randomUUID } from "node:crypto";
import { once } from "node:events";
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpHandler, McpServer as V2Server } from "@modelcontextprotocol/server";
import * as z from "zod";
import { generate, type OutputFile } from "../../src/generators/emit/index.js";
import { loadRevision } from "../../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "../helpers.js";

// What the tests of the dual-era client share: its generation (2026-07-28, reaching the
// initialize-based revisions through initialize) and a bare HTTP server that records what it
// was sent.

/** The initialize-based revisions the dual-era client also speaks. */
export const LEGACY = ["2025-11-25", "2025-06-18", "2025-03-26"];

let files: Promise<OutputFile[]> | undefined;

/**
 * The dual-era client's modules (`client.js`, `http-client.js`, ...), imported from a folder
 * of their own: the generation is made once per worker, but every caller gets its own copy of
 * the modules, so no module state is shared between test files.
 */
export async function importDualEraClient(modules: readonly string[]): Promise<any[]> {
  files ??= generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: LEGACY.map((r) => loadRevision(SPEC_DIR, r)),
  });
  const dir = writeGenerated(await files);
  return Promise.all(modules.map((m) => import(join(dir, m))));
}

/** What an HTTP server saw: verb and JSON-RPC method (or "response") of each message. */
export type Seen = string[];

/** An HTTP server on a free port answering with `handler`, recording each message in `seen`. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse, body: any) => Promise<void>,
  seen: Seen,
): Promise<{ url: string; server: HttpServer }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    seen.push(req.method === "POST" ? `POST ${body?.method ?? "response"}` : req.method!);
    await handler(req, res, body).catch((e) => res.writeHead(500).end(String(e)));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

export const stop = (server: HttpServer | undefined) =>
  new Promise((r) => (server?.closeAllConnections(), server?.close(r)));

/**
 * A v1 SDK server over Streamable HTTP with sessions, as an app wires it: one transport (and
 * one server from `makeServer`) per session, a 404 for a session it does not know.
 */
export function v1SessionfulHandler(
  makeServer: () => { connect(transport: StreamableHTTPServerTransport): Promise<void> },
  sessions = new Map<string, StreamableHTTPServerTransport>(),
) {
  return async (req: IncomingMessage, res: ServerResponse, body: any): Promise<void> => {
    const id = req.headers["mcp-session-id"] as string | undefined;
    let transport = id === undefined ? undefined : sessions.get(id);
    if (id !== undefined && !transport) return void res.writeHead(404).end("unknown session");
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      });
      await makeServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  };
}

/**
 * A v2 SDK 2.4.0 server in its modern mode, legacy clients refused, with one tool ("plain"),
 * as a `listen` handler (node:http in front of its fetch handler). `before` runs first on
 * each request (a stall, say). `close` ends the SDK's handler.
 */
export function v2ModernHandler(before?: () => Promise<void>): {
  handle: (req: IncomingMessage, res: ServerResponse, body: any) => Promise<void>;
  close: () => Promise<void>;
} {
  const handler = createMcpHandler(
    () => {
      const v2 = new V2Server({ name: "v2-server", version: "2.4.0" });
      v2.registerTool("plain", { description: "Answers", inputSchema: z.object({}) }, async () => ({
        content: [{ type: "text", text: "plain" }],
      }));
      return v2;
    },
    { legacy: "reject" },
  );
  return {
    async handle(req, res, body) {
      await before?.();
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const init: RequestInit = {
        method: req.method!,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      };
      const response = await handler.fetch(
        new Request(`http://${req.headers.host}${req.url}`, init),
      );
      // The client may have given up on a stalled request.
      if (res.destroyed) return;
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    },
    close: () => handler.close(),
  };
}
