// Hono, web-standard: the fetch handler takes the route's Request (c.req.raw). The app runs
// as it is on Deno, Bun and Workers (see deno.ts), or on Node through @hono/node-server.
import { Hono } from "hono";
import { createFetchHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

// #region recipe
const mcp = createFetchHandler(dispatcher);
export const app = new Hono();
app.all("/mcp", (c) => mcp(c.req.raw));
// #endregion recipe
