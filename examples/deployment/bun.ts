// Bun: Bun.serve takes the fetch handler.
import { createFetchHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch: (request: Request) => Promise<Response>;
  }): { port: number };
  env: Record<string, string | undefined>;
};

const port = Number(Bun.env["PORT"] ?? 3000);
// #region recipe
const server = Bun.serve({
  port,
  hostname: "127.0.0.1",
  // Bun closes a connection idle for 10 s by default: a legacy session's GET stream with it.
  idleTimeout: 0,
  fetch: createFetchHandler(dispatcher),
});
console.log(`MCP server listening on http://127.0.0.1:${server.port}/mcp`);
// #endregion recipe
