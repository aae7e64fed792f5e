// @mcp-gen/runtime/testing: a server's dispatcher and a generated client joined in one
// process, for the tests of a server (connectInMemory), and the transport under it.
export * from "./connect.js";
export * from "./memory.js";
