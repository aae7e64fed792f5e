// `@mcp-gen/runtime/otel`: OpenTelemetry tracing for a generated server and client, after the
// MCP semantic conventions (conventions.ts names the version). It imports `@opentelemetry/api`
// (an optional peer dependency) and nothing else: the SDK, exporters and propagators are the
// application's. Only this subpath imports the API, so the rest of the runtime stays
// dependency-free; without a registered provider the API's no-op tracer records nothing.
export { serverTracing, type ServerTracing } from "./server-tracing.js";
export { clientTracing, type ClientTracing } from "./client-tracing.js";
export { MCP_SEMCONV_VERSION, TRACER_NAME, type TracingOptions } from "./conventions.js";
export type { RequestTracer, TraceHeaders, TracedRequest } from "../core/tracing.js";
export type { CallTracer, TracedCall } from "../core/transport.js";
