// Serves the dispatcher over Streamable HTTP on 127.0.0.1 (PORT, default 3000), to modern
// clients (2026-07-28) and to clients that open with initialize (2025-03-26 .. 2025-11-25).
import { serveHttp } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const server = await serveHttp(dispatcher, { port: Number(process.env["PORT"] ?? 3000) });
console.log(`MCP server listening on ${server.url}`);
process.on("SIGTERM", () => void server.close());
