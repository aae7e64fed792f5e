// The server every deployment recipe here serves: one generated dual-era dispatcher (see
// mcp-gen.config.json) with an echo tool that reports progress before it answers (so the
// answer streams as SSE) and says which protocol version served it.
import { createServerDispatcher } from "./mcp/dispatcher.js";

export const dispatcher = createServerDispatcher(
  {
    "tools/list": () => ({
      tools: [
        {
          name: "echo",
          inputSchema: { type: "object", properties: { text: { type: "string" } } },
        },
      ],
      ttlMs: 0,
      cacheScope: "public",
    }),
    "tools/call": async (params, ctx) => {
      await ctx.sendProgress(1, 1, "echoing");
      const text = `${String(params.arguments?.["text"] ?? "")} via ${ctx.protocolVersion}`;
      return { content: [{ type: "text", text }] };
    },
  },
  { serverInfo: { name: "deployment", version: "1.0.0" } },
);
