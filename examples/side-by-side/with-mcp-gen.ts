// The bookshop server written with mcp-gen: three typed tools (defineTool) in one table
// (defineTools), served by the generated dispatcher over Streamable HTTP to modern clients
// (2026-07-28) and to clients that open with initialize (2025-03-26 .. 2025-11-25).
// with-sdk.ts is the same server written with the official TypeScript SDK v2.
import { z } from "zod";
import { defineServer, defineTool, defineTools } from "./mcp/dispatcher.js";
import { serveHttp } from "./mcp/http-server.js";
import { describeOrder, findBooks } from "./shop.js";

// #region search
// Object input and an outputSchema: `limit` is a number in `call` (the default applied), and
// structuredContent must be `{ titles: string[]; total: number }`, or it does not compile.
const searchBooks = defineTool({
  tool: {
    name: "search_books",
    description: "Finds books whose title contains the query",
    inputSchema: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(10).default(3),
    }),
    outputSchema: z.object({ titles: z.array(z.string()), total: z.number().int() }),
  },
  call: ({ query, limit }) => {
    const found = findBooks(query, limit);
    return {
      content: [{ type: "text", text: found.titles.join(", ") }],
      structuredContent: found,
    };
  },
});
// #endregion search

// #region order
// An enum, optional arguments and a nested object; a text result, no outputSchema.
const orderPizza = defineTool({
  tool: {
    name: "order_pizza",
    description: "Orders a pizza, to pick up or delivered",
    inputSchema: z.object({
      size: z.enum(["small", "medium", "large"]),
      toppings: z.array(z.string()).max(5).optional(),
      delivery: z
        .object({ street: z.string().min(1), floor: z.number().int().min(0).optional() })
        .optional(),
    }),
  },
  call: (order) => ({ content: [{ type: "text", text: describeOrder(order) }] }),
});
// #endregion order

// #region divide
// A tool execution error: `isError: true` needs no structuredContent, a success does.
const divide = defineTool({
  tool: {
    name: "divide",
    description: "Divides one number by another",
    inputSchema: z.object({ dividend: z.number(), divisor: z.number() }),
    outputSchema: z.object({ quotient: z.number() }),
  },
  call: ({ dividend, divisor }) => {
    if (divisor === 0)
      return { content: [{ type: "text", text: "Cannot divide by zero" }], isError: true };
    const quotient = dividend / divisor;
    return { content: [{ type: "text", text: String(quotient) }], structuredContent: { quotient } };
  },
});
// #endregion divide

// #region serve
export const server = defineServer(
  {
    tools: defineTools([searchBooks, orderPizza, divide], {
      list: { ttlMs: 0, cacheScope: "private" },
    }),
  },
  { serverInfo: { name: "bookshop", version: "1.0.0" } },
);

/** Serves the bookshop on 127.0.0.1:`port` (0: a free one); its URL, and how to stop it. */
export const serve = (port: number) => serveHttp(server.dispatcher, { port });
// #endregion serve
