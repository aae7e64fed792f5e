// Deno: Deno.serve takes the fetch handler as it is (here Hono's app, or createFetchHandler's).
import { app } from "./hono.js";

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
  env: { get(name: string): string | undefined };
};

const port = Number(Deno.env.get("PORT") ?? 3000);
// #region recipe
Deno.serve(
  {
    port,
    hostname: "127.0.0.1",
    onListen: ({ port }) => console.log(`MCP server listening on http://127.0.0.1:${port}/mcp`),
  },
  app.fetch,
);
// #endregion recipe
