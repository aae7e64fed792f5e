// Express 5: body parsers may run first (the handler takes req.body), and the handler may be
// mounted under its path (the full path, req.originalUrl, is what it matches).
import express from "express";
import { createHttpHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);
// #region recipe
const app = express();
app.use(express.json());
app.use("/mcp", createHttpHandler(dispatcher));
const server = app.listen(port, "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  console.log(`MCP server listening on http://127.0.0.1:${port}/mcp`);
});
// #endregion recipe
