import {
  context as contextApi,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from "@opentelemetry/api";
import type { CallTracer } from "../core/transport.js";
import { McpError } from "../core/errors.js";
import {
  endWithErrorCode,
  endWithResult,
  instruments,
  requestAttributes,
  type TracingOptions,
} from "./conventions.js";

/** What a client takes to trace its calls: spread into its options. */
export interface ClientTracing {
  readonly traceCall: CallTracer;
}

/**
 * A CLIENT span per call, named and attributed as the MCP semantic conventions say
 * (conventions.ts), its context injected into the request's `_meta` (traceparent, tracestate:
 * every round of input_required carries it, in either era). `jsonrpc.request.id` is the last
 * request the call sent. An error is recorded on the span: a JSON-RPC error by its code,
 * anything else (a timeout, a transport failure) by its name.
 *
 * `createClient({ transport, ...clientTracing() })`
 */
export function clientTracing(options: TracingOptions = {}): ClientTracing {
  const tools = instruments(options);
  return {
    traceCall: async (call, send) => {
      const { name, attributes } = requestAttributes(call.method, call.params);
      const span = tools.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
      // No provider and no context to pass on (the API's no-op): the call goes as it came.
      if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return send(call.options);
      const active = trace.setSpan(contextApi.active(), span);
      const carrier: Record<string, unknown> = {};
      tools.inject(active, carrier);
      const given = call.options;
      const sent = {
        ...given,
        // The caller's own `_meta` entries win over the injected ones.
        meta: { ...carrier, ...given.meta },
        onRequestId: (id: number) => {
          span.setAttribute("jsonrpc.request.id", String(id));
          given.onRequestId?.(id);
        },
      };
      let result: Record<string, unknown>;
      try {
        result = await contextApi.with(active, () => send(sent));
      } catch (error) {
        endWithError(span, error);
        throw error;
      }
      endWithResult(span, result);
      return result;
    },
  };
}

function endWithError(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  if (error instanceof McpError) return endWithErrorCode(span, error.code, error.message);
  // The conventions' own value for a timeout; otherwise the error's class, low-cardinality.
  const type =
    error instanceof Error
      ? error.name === "RequestTimeoutError"
        ? "timeout"
        : error.name
      : "_OTHER";
  span.setAttribute("error.type", type);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    ...(error instanceof Error ? { message: error.message } : {}),
  });
  span.end();
}
