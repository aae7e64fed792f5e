// @mcp-gen/runtime/transport: transports that run anywhere fetch does (Node.js, Deno, Bun,
// Workers, browsers): the transport contract, an in-process transport, the Streamable HTTP
// client, and the SSE reader. Node.js-only transports are in @mcp-gen/runtime/node.
export * from "../core/transport.js";
export * from "../core/transport-error.js";
export * from "./direct.js";
export * from "./sse.js";
export * from "./http/client/client.js";
export * from "./http/headers.js";
