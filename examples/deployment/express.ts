// Express 5: the handler is mounted under its path (the full path, req.originalUrl, is what it
// matches) and before any body parser, so it reads the body itself: malformed JSON and bodies
// over its maxBodyBytes (4 MiB) get JSON-RPC errors after the Host/Origin check, as on
// node:http, not Express's HTML error page with a stack trace. (It takes req.body when a
// parser ran first, but that parser then answers such bodies itself.)
import express from "express";
import { createHttpHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);
// #region recipe
const app = express();
app.use("/mcp", createHttpHandler(dispatcher));
// The application's other routes parse JSON as usual.
app.use(express.json());
const server = app.listen(port, "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  console.log(`MCP server listening on http://127.0.0.1:${port}/mcp`);
});
// #endregion recipe
