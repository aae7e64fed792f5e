// The bookshop server written with the official TypeScript SDK v2 (2.4.0): the same three
// tools as with-mcp-gen.ts (same names, schemas and answers), each registered with
// registerTool and zod 4, served by the SDK's web-standard handler through
// @hono/node-server.
import { serve as serveNode } from "@hono/node-server";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { describeOrder, findBooks } from "./shop.js";

// The SDK builds a server per request (createMcpHandler's factory), so the tools are
// registered in a function.
function bookshop(): McpServer {
  const server = new McpServer({ name: "bookshop", version: "1.0.0" });

  // #region search
  // `limit` is a number in the callback (zod's output type); structuredContent is typed as
  // any object, and checked against outputSchema at run time only.
  server.registerTool(
    "search_books",
    {
      description: "Finds books whose title contains the query",
      inputSchema: z.object({
        query: z.string().min(1),
        limit: z.number().int().min(1).max(10).default(3),
      }),
      outputSchema: z.object({ titles: z.array(z.string()), total: z.number().int() }),
    },
    ({ query, limit }) => {
      const found = findBooks(query, limit);
      return {
        content: [{ type: "text", text: found.titles.join(", ") }],
        structuredContent: found,
      };
    },
  );
  // #endregion search

  // #region order
  server.registerTool(
    "order_pizza",
    {
      description: "Orders a pizza, to pick up or delivered",
      inputSchema: z.object({
        size: z.enum(["small", "medium", "large"]),
        toppings: z.array(z.string()).max(5).optional(),
        delivery: z
          .object({ street: z.string().min(1), floor: z.number().int().min(0).optional() })
          .optional(),
      }),
    },
    (order) => ({ content: [{ type: "text", text: describeOrder(order) }] }),
  );
  // #endregion order

  // #region divide
  server.registerTool(
    "divide",
    {
      description: "Divides one number by another",
      inputSchema: z.object({ dividend: z.number(), divisor: z.number() }),
      outputSchema: z.object({ quotient: z.number() }),
    },
    ({ dividend, divisor }) => {
      if (divisor === 0)
        return { content: [{ type: "text", text: "Cannot divide by zero" }], isError: true };
      const quotient = dividend / divisor;
      return {
        content: [{ type: "text", text: String(quotient) }],
        structuredContent: { quotient },
      };
    },
  );
  // #endregion divide

  return server;
}

// #region serve
/** Serves the bookshop on 127.0.0.1:`port` (0: a free one); its URL, and how to stop it. */
export function serve(port: number): Promise<{ url: string; close: () => Promise<void> }> {
  const handler = createMcpHandler(bookshop);
  return new Promise((resolve) => {
    const http = serveNode(
      { fetch: (request) => handler.fetch(request), port, hostname: "127.0.0.1" },
      (info) =>
        resolve({
          url: `http://127.0.0.1:${info.port}/mcp`,
          close: () => new Promise((closed) => http.close(() => closed())),
        }),
    );
  });
}
// #endregion serve
