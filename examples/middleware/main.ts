// Serves the example on 127.0.0.1 (PORT, default 3000) as a resource of the authorization
// server MCP_ISSUER, whose keys are at MCP_JWKS_URL; audit lines go to stdout.
import { createServer } from "node:http";
import { createDispatcher, protectedHandler } from "./server.js";

const port = Number(process.env["PORT"] ?? 3000);
const issuer = process.env["MCP_ISSUER"] ?? "http://127.0.0.1:9000";
const handler = protectedHandler(
  createDispatcher((line) => console.log(line)),
  {
    resource: `http://127.0.0.1:${port}/mcp`,
    issuer,
    jwksUrl: process.env["MCP_JWKS_URL"] ?? `${issuer}/jwks`,
  },
);
createServer((request, response) => void handler(request, response)).listen(port, "127.0.0.1");
console.log(`MCP server listening on http://127.0.0.1:${port}/mcp`);
