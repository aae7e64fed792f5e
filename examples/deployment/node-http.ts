// node:http: the handler is a request listener.
import { createServer } from "node:http";
import { createHttpHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);
// #region recipe
const handler = createHttpHandler(dispatcher);
const server = createServer((req, res) => void handler(req, res));
server.listen(port, "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  console.log(`MCP server listening on http://127.0.0.1:${port}/mcp`);
});
// #endregion recipe
