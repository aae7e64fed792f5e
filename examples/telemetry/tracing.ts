// The application's part of OpenTelemetry: the SDK, registered once at start-up. mcp-gen's
// runtime only uses the API (@mcp-gen/runtime/otel); which spans are kept and where they go
// is decided here. A real service would export them (OTLP, say); the test hands in an
// in-memory exporter.
// #region sdk
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";

export function registerTracing(exporter: SpanExporter): void {
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  // traceparent and tracestate: what the client writes into `_meta`, the server reads back.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // Keeps the active span across `await`, so a handler's spans nest under its request's.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}
// #endregion sdk
