// A docs-search server written with the official TypeScript SDK v2 (2.4.0), over Streamable
// HTTP: the server the host application (app.ts) calls through typed functions. It has one
// tool (search) and one resource template (a page by its slug, with completions).
//   node server.js   (PORT changes the port, default 3000)
import { serve } from "@hono/node-server";
import { createMcpHandler, McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import * as z from "zod";

const PAGES = [
  { title: "Typed clients", url: "https://example.com/guide/typed-client" },
  { title: "The client", url: "https://example.com/guide/client" },
  { title: "Serving every era", url: "https://example.com/guide/eras" },
];
/** A page's slug: the last segment of its URL (`typed-client`). */
const slugOf = (page: { url: string }) => page.url.slice(page.url.lastIndexOf("/") + 1);

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
  server.registerResource(
    "page",
    new ResourceTemplate("docs://pages/{slug}", {
      list: undefined,
      complete: { slug: (value) => PAGES.map(slugOf).filter((slug) => slug.startsWith(value)) },
    }),
    {
      title: "Docs page",
      description: "A page of the docs, as Markdown",
      mimeType: "text/markdown",
    },
    async (uri, { slug }) => {
      const page = PAGES.find((p) => slugOf(p) === String(slug));
      if (page === undefined) throw new Error(`No page ${String(slug)}`);
      const text = `# ${page.title}\n\n${page.url}\n`;
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text }] };
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
