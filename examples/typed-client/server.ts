// A docs-search server written with the official TypeScript SDK v2 (2.4.0), over Streamable
// HTTP: the server the host application (app.ts) calls through typed functions.
//   node server.js   (PORT changes the port, default 3000)
import { serve } from "@hono/node-server";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

const PAGES = [
  { title: "Typed clients", url: "https://example.com/guide/typed-client" },
  { title: "The client", url: "https://example.com/guide/client" },
  { title: "Serving every era", url: "https://example.com/guide/eras" },
];

// #region server
function docsServer(): McpServer {
  const server = new McpServer({ name: "docs-search", version: "1.0.0" });
  server.registerTool(
    "search",
    {
      description: "Search the docs by title",
      inputSchema: z.object({
        query: z.string().describe("Words to look for"),
        limit: z.number().int().min(1).optional(),
      }),
      outputSchema: z.object({
        hits: z.array(z.object({ title: z.string(), url: z.string() })),
      }),
    },
    async ({ query, limit }) => {
      const words = query.toLowerCase().split(/\s+/);
      const hits = PAGES.filter((page) =>
        words.some((word) => page.title.toLowerCase().includes(word)),
      ).slice(0, limit ?? PAGES.length);
      return {
        content: [{ type: "text", text: JSON.stringify({ hits }) }],
        structuredContent: { hits },
      };
    },
  );
  return server;
}
// #endregion server

// The SDK's web-standard handler, served by Node.js through @hono/node-server.
const handler = createMcpHandler(docsServer);
const port = Number(process.env["PORT"] ?? 3000);
serve({ fetch: (request) => handler.fetch(request), port, hostname: "127.0.0.1" }, (info) =>
  console.log(`MCP server listening on http://127.0.0.1:${info.port}/mcp`),
);
