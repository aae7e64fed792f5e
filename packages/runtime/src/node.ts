// @mcp-gen/runtime/node: the Node.js-only transports: stdio (both sides) and the Streamable
// HTTP server on node:http.
export * from "./transport/stdio.js";
export * from "./transport/http/server.js";
export * from "./transport/http/sessions.js";
