// Fastify 5: the reply is hijacked, since the MCP handler writes the response (JSON or an SSE
// stream). In its own plugin, the route's body is left unparsed for the handler to read:
// Fastify's JSON parser would answer malformed JSON and bodies over its bodyLimit with its own
// errors, before the Host/Origin check; the handler answers them with JSON-RPC errors after
// it, as on node:http. (It takes request.body when a parser ran, as its third argument.)
import Fastify from "fastify";
import { createHttpHandler } from "./mcp/http-server.js";
import { dispatcher } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);
// #region recipe
const app = Fastify();
const handler = createHttpHandler(dispatcher);
await app.register(async (mcp) => {
  mcp.removeAllContentTypeParsers();
  mcp.addContentTypeParser("*", (_request, _body, done) => done(null));
  mcp.all("/mcp", async (request, reply) => {
    reply.hijack();
    await handler(request.raw, reply.raw);
  });
});
const address = await app.listen({ port, host: "127.0.0.1" });
console.log(`MCP server listening on ${address}/mcp`);
// #endregion recipe
