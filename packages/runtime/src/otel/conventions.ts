import {
  propagation,
  trace,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import { isObject } from "../core/protocol.js";

// OpenTelemetry's semantic conventions for MCP, as this module follows them: version 0.1.0
// of open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md (status: Development).
// Span names, attribute keys and error rules below are that document's; the context rides in
// `params._meta` under the unprefixed W3C keys (traceparent, tracestate, baggage) it names.

type Json = Record<string, unknown>;

/** The conventions' version this module follows (docs/guide/telemetry.md cites it too). */
export const MCP_SEMCONV_VERSION = "semantic-conventions-genai 0.1.0";

/** The instrumentation scope of every span. */
export const TRACER_NAME = "@mcp-gen/runtime";

/** Options of serverTracing() and clientTracing(). */
export interface TracingOptions {
  /** The provider of the spans (default: the global one, `trace.setGlobalTracerProvider`). */
  tracerProvider?: TracerProvider;
  /** Injects and extracts the context in `_meta` (default: the global propagator). */
  propagator?: TextMapPropagator;
}

/** The tracer and propagation the options name, or the global API's. */
export interface Instruments {
  readonly tracer: Tracer;
  inject(context: Context, carrier: Json): void;
  extract(context: Context, carrier: Json): Context;
}

/** `_meta` (or headers) read as a carrier: string values only. */
const metaGetter: TextMapGetter<Json> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

export function instruments({ tracerProvider, propagator }: TracingOptions): Instruments {
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
  if (propagator)
    return {
      tracer,
      inject: (context, carrier) => propagator.inject(context, carrier, defaultSetter),
      extract: (context, carrier) => propagator.extract(context, carrier, metaGetter),
    };
  return {
    tracer,
    inject: (context, carrier) => propagation.inject(context, carrier),
    extract: (context, carrier) => propagation.extract(context, carrier, metaGetter),
  };
}

const defaultSetter = {
  set: (carrier: Json, key: string, value: string) => void (carrier[key] = value),
};

/** The span's name and attributes for a request of `method` with `params` (both sides). */
export function requestAttributes(
  method: string,
  params: unknown,
): { name: string; attributes: Attributes } {
  const attributes: Attributes = { "mcp.method.name": method };
  const p = isObject(params) ? params : {};
  let target: string | undefined;
  if (method === "tools/call" && typeof p["name"] === "string") {
    target = p["name"];
    attributes["gen_ai.tool.name"] = target;
    attributes["gen_ai.operation.name"] = "execute_tool";
  } else if (method === "prompts/get" && typeof p["name"] === "string") {
    target = p["name"];
    attributes["gen_ai.prompt.name"] = target;
  } else if (RESOURCE_METHODS.has(method) && typeof p["uri"] === "string") {
    // A URI is high-cardinality: an attribute, never part of the name.
    attributes["mcp.resource.uri"] = p["uri"];
  }
  return { name: target === undefined ? method : `${method} ${target}`, attributes };
}

const RESOURCE_METHODS = new Set([
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/**
 * Ends `span` with what the response says: a JSON-RPC error sets error.type and
 * rpc.response.status_code to its code and the status to ERROR with its message; a tool
 * result with `isError: true` sets error.type `tool_error`.
 */
export function endWithResponse(span: Span, response: Json | undefined): void {
  const error = response?.["error"];
  if (isObject(error)) {
    endWithErrorCode(span, error["code"], error["message"]);
    return;
  }
  const result = response?.["result"];
  endWithResult(span, isObject(result) ? result : undefined);
}

/** Ends `span` after a result (`tool_error` when it is a tool's error result). */
export function endWithResult(span: Span, result: Json | undefined): void {
  if (result?.["isError"] === true) {
    span.setAttribute("error.type", "tool_error");
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** Ends `span` after a JSON-RPC error of `code`. */
export function endWithErrorCode(span: Span, code: unknown, message: unknown): void {
  const status = String(code);
  span.setAttributes({ "error.type": status, "rpc.response.status_code": status });
  span.setStatus({
    code: SpanStatusCode.ERROR,
    ...(typeof message === "string" ? { message } : {}),
  });
  span.end();
}
