// The era probe's verdict is kept per transport, but not against the evidence: a modern
// server that is still starting (its first request stalls past probeTimeoutMs) is taken for
// legacy, and the initialize that follows fails (a modern server refuses it). The next call
// then probes again and finds it modern, instead of keeping "legacy" for the transport's life.
import type { Server as HttpServer } from "node:http";
import { createMcpHandler, McpServer as V2Server } from "@modelcontextprotocol/server";
import * as z from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDualEraClient, listen, stop, type Seen } from "./support/dual-era-client.js";

type Any = any;
let client: Any;
let httpClient: Any;

beforeAll(async () => {
  [client, httpClient] = await importDualEraClient(["client.js", "http-client.js"]);
});

describe("a modern server slow to start (v2 SDK 2.4.0, legacy refused)", () => {
  const seen: Seen = [];
  let url: string;
  let server: HttpServer;
  let handler: ReturnType<typeof createMcpHandler>;
  /** Whether the next request stalls (the server is still starting). */
  let starting = true;

  beforeAll(async () => {
    handler = createMcpHandler(() => {
      const v2 = new V2Server({ name: "v2-server", version: "2.4.0" });
      v2.registerTool("plain", { description: "Answers", inputSchema: z.object({}) }, async () => ({ content: [{ type: "text", text: "plain" }] }));
      return v2;
    }, { legacy: "reject" });
    ({ url, server } = await listen(async (req, res, body) => {
      if (starting) {
        starting = false;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const init: RequestInit = { method: req.method!, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
      const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, init));
      if (res.destroyed) return;
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    }, seen));
  });
  afterAll(async () => {
    await handler.close();
    await stop(server);
  });

  it("the first call fails on initialize; the next probes again and is served as modern", async () => {
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }), probeTimeoutMs: 100 });
    // The v2 server refuses initialize (HTTP 400 with a JSON-RPC error).
    await expect(c.listTools()).rejects.toThrow(/the server refused initialize/);
    expect(seen).toEqual(["POST server/discover", "POST initialize"]);
    seen.length = 0;
    const listed = await c.listTools();
    expect(listed.tools.map((t: Any) => t.name)).toEqual(["plain"]);
    expect(await c.era()).toBe("modern");
    expect(seen).toEqual(["POST server/discover", "POST tools/list"]);
    await c.close();
  });
});
