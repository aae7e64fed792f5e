// A client whose every call is a span (CLIENT kind), its context sent to the server in the
// request's `_meta` (traceparent, tracestate), to a modern server and in a 2025-11-25 session.
// #region client
import { clientTracing } from "@mcp-gen/runtime/otel";
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

export function connect(url: string) {
  return createClient({ transport: createHttpTransport({ url }), ...clientTracing() });
}
// #endregion client
