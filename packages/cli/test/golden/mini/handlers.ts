import {
  createClientDispatcher,
  createServerDispatcher,
  notImplemented,
  type ClientHandlers,
  type ServerHandlers,
} from "./dispatcher.js";

// Your handlers. mcp-gen wrote this skeleton once, for MCP schema 2099-01-01, and never
// overwrites it: replace `notImplemented` with `async (params, ctx) => ...` (the TODO above
// each names the types) for each method you serve. A method left as notImplemented (or
// deleted) is answered "method not found", and its capability is not advertised.

export const serverHandlers: ServerHandlers = {
  // ping: answered by the dispatcher; add a handler to answer it yourself.
  // TODO: tools/call: (params: CallToolRequestParams, ctx) => CallToolResult
  "tools/call": notImplemented,
};

export const serverDispatcher = createServerDispatcher(serverHandlers);

export const clientHandlers: ClientHandlers = {
  // ping: answered by the dispatcher; add a handler to answer it yourself.
};

export const clientDispatcher = createClientDispatcher(clientHandlers);
