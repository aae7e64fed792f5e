// @mcp-gen/runtime/tasks: the Tasks extension (io.modelcontextprotocol/tasks) on the server.
export * from "./server.js";
