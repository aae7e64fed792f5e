// The seam a tracer wraps on the server: each request it answers (the dispatcher's
// `traceRequest` option; the client's, `traceCall`, is in transport.ts with its options).
// Dependency-free shapes: `@mcp-gen/runtime/otel` fills them with OpenTelemetry spans, and a
// tracer of any other kind can too. Without the option the runtime does no tracing work.

type Json = Record<string, unknown>;

/** The W3C Trace Context headers of the transport's message (HTTP `traceparent`, `tracestate`). */
export interface TraceHeaders {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** A request the server received, as a tracer sees it before any check. */
export interface TracedRequest {
  readonly id: string | number;
  readonly method: string;
  /** The params as received (`_meta` included); {} when there are none. */
  readonly params: Json;
  /** The protocol version: the request's `_meta` names it, else the session's revision. */
  readonly protocolVersion: string | undefined;
  /** The transport's session (Streamable HTTP `Mcp-Session-Id`), if any. */
  readonly sessionId: string | undefined;
  /** Trace context the transport carried beside the message (HTTP headers), if any. */
  readonly traceHeaders: TraceHeaders | undefined;
}

/**
 * Wraps the answering of one request: call `answer` once and resolve to what it resolves to
 * (a JSON-RPC response, or undefined for a cancelled request). It never rejects.
 */
export type RequestTracer = (
  request: TracedRequest,
  answer: () => Promise<Json | undefined>,
) => Promise<Json | undefined>;
