import {
  McpError,
  createClientDispatcher,
  createServerDispatcher,
  type ClientHandlers,
  type ServerHandlers,
} from "./dispatcher.js";

// Your handlers. mcp-gen wrote this skeleton once, for MCP schema 2099-01-01, and never
// overwrites it: fill in the methods you serve and delete the others (a method without a
// handler is answered "method not found").

function notImplemented(method: string): never {
  throw new McpError(-32601, `${method} is not implemented yet`);
}

export const serverHandlers: ServerHandlers = {
  // ping: answered by the dispatcher; add a handler to answer it yourself.
  "tools/call": async (_params, _ctx) => {
    // TODO: implement tools/call.
    return notImplemented("tools/call");
  },
};

export const serverDispatcher = createServerDispatcher(serverHandlers);

export const clientHandlers: ClientHandlers = {
  // ping: answered by the dispatcher; add a handler to answer it yourself.
};

export const clientDispatcher = createClientDispatcher(clientHandlers);
