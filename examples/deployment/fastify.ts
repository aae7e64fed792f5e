// Fastify 5: its JSON parser reads the body first, so the route hands over request.body; the
// reply is hijacked, since the MCP handler writes the response (JSON or an SSE stream).
import Fastify from "fastify";
import { createHttpHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);
// #region recipe
const app = Fastify();
const handler = createHttpHandler(dispatcher);
app.all("/mcp", async (request, reply) => {
  reply.hijack();
  await handler(request.raw, reply.raw, request.body);
});
const address = await app.listen({ port, host: "127.0.0.1" });
console.log(`MCP server listening on ${address}/mcp`);
// #endregion recipe
