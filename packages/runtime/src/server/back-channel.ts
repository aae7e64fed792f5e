import { JSONRPC_ERRORS, McpError } from "../core/errors.js";

// The error of an input request the transport cannot carry during the request that asks
// (HandleContext.backChannelRefusal: a Streamable HTTP serving mode): -32603 with the
// transport's reason, which names the mode, so that the client and onError read why, for
// tools/call too (a server setting, not the tool's failure).

export function backChannelError(method: string, reason: string): McpError {
  return new McpError(
    JSONRPC_ERRORS.INTERNAL_ERROR,
    `Cannot send ${method} to the client during this request: ${reason}`,
  );
}
