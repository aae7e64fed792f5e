// Hono on Node.js through @hono/node-server.
import { serve } from "@hono/node-server";
import { app } from "./hono.js";

const port = Number(process.env["PORT"] ?? 3000);
// #region recipe
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) =>
  console.log(`MCP server listening on http://127.0.0.1:${info.port}/mcp`),
);
// #endregion recipe
