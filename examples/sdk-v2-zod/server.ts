// A server on the official TypeScript SDK v2 (2.4.0), its low-level Server, that validates
// with the zod 4 schemas mcp-gen generates (mcp/zod.ts) rather than with schemas of its own.
// setRequestHandler's three-argument form takes a Standard Schema for the params (zod 4 is
// one) and a result schema that types the handler's return; the SDK does not check results,
// so each handler parses its own answer with mcp-gen's schema before returning it. The SDK
// hands a handler the params without `_meta` (it lifts the protocol's envelope out of it
// first), so the params schemas here leave `_meta` out.
// #region server
import { Server } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  ListToolsResultSchema,
  PaginatedRequestParamsSchema,
} from "./mcp/zod.js";

const ListToolsParamsSchema = PaginatedRequestParamsSchema.omit({ _meta: true });

/** The one tool's call: mcp-gen's tools/call params, its arguments narrowed to this tool's. */
const AddCallSchema = CallToolRequestParamsSchema.omit({ _meta: true }).extend({
  name: z.literal("add"),
  arguments: z.object({ a: z.number(), b: z.number() }),
});

export function createServer(): Server {
  const server = new Server(
    { name: "sdk-v2-zod", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );

  server.setRequestHandler(
    "tools/list",
    { params: ListToolsParamsSchema, result: ListToolsResultSchema },
    () =>
      ListToolsResultSchema.parse({
        resultType: "complete",
        // 2026-07-28's caching hints: the list may be cached by this client, never stale.
        ttlMs: 0,
        cacheScope: "private",
        tools: [
          {
            name: "add",
            description: "Adds two numbers",
            inputSchema: z.toJSONSchema(AddCallSchema.shape.arguments),
          },
        ],
      }),
  );

  server.setRequestHandler(
    "tools/call",
    { params: AddCallSchema, result: CallToolResultSchema },
    ({ arguments: { a, b } }) =>
      CallToolResultSchema.parse({
        resultType: "complete",
        content: [{ type: "text", text: String(a + b) }],
      }),
  );

  return server;
}
// #endregion server
