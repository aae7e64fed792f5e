// One mistake written with both APIs: a structuredContent that does not match the tool's
// outputSchema (`total` a string, where the schema says number). With mcp-gen it does not
// compile: this file compiles only because `@ts-expect-error` marks the error (TypeScript
// fails it when the error goes away). With the SDK it compiles. At run time both servers
// refuse to send it, and answer a tool execution error (packages/cli/test/side-by-side.test.ts).
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { defineTool } from "./mcp/dispatcher.js";

const inputSchema = z.object({ query: z.string() });
const outputSchema = z.object({ titles: z.array(z.string()), total: z.number() });

// #region mcp-gen
export const wrongSearch = defineTool({
  tool: { name: "search_books", inputSchema, outputSchema },
  call: ({ query }) => ({
    content: [{ type: "text", text: query }],
    // @ts-expect-error Type 'string' is not assignable to type 'number' (total).
    structuredContent: { titles: [query], total: "one" },
  }),
});
// #endregion mcp-gen

// #region sdk
export function registerWrongSearch(server: McpServer): void {
  server.registerTool("search_books", { inputSchema, outputSchema }, ({ query }) => ({
    content: [{ type: "text", text: query }],
    structuredContent: { titles: [query], total: "one" },
  }));
}
// #endregion sdk
