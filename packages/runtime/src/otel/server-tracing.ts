import {
  context as contextApi,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Context,
  type Link,
} from "@opentelemetry/api";
import { isObject } from "../core/protocol.js";
import type { RequestTracer, TracedRequest } from "../core/tracing.js";
import {
  endWithResponse,
  instruments,
  requestAttributes,
  type Instruments,
  type TracingOptions,
} from "./conventions.js";

/** What a dispatcher takes to trace its requests: spread into its options. */
export interface ServerTracing {
  readonly traceRequest: RequestTracer;
}

/**
 * A SERVER span per request the dispatcher answers (refusals included), named and attributed
 * as the MCP semantic conventions say (conventions.ts). Its parent is the context the client
 * sent in `params._meta`, else the HTTP request's `traceparent`, else the active context;
 * the HTTP context is linked when `_meta` gave the parent. The handler runs inside the span,
 * so spans it starts are its children.
 *
 * `createServerDispatcher(handlers, { ...serverTracing() })`
 */
export function serverTracing(options: TracingOptions = {}): ServerTracing {
  const tools = instruments(options);
  return {
    traceRequest: (request, answer) => {
      const { name, attributes } = requestAttributes(request.method, request.params);
      attributes["jsonrpc.request.id"] = String(request.id);
      if (request.sessionId !== undefined) attributes["mcp.session.id"] = request.sessionId;
      if (request.protocolVersion !== undefined)
        attributes["mcp.protocol.version"] = request.protocolVersion;
      const { parent, links } = parentOf(tools, request);
      const span = tools.tracer.startSpan(
        name,
        { kind: SpanKind.SERVER, attributes, ...(links.length > 0 ? { links } : {}) },
        parent,
      );
      // No provider and no context received (the API's no-op): nothing to record or pass on.
      if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return answer();
      const active = trace.setSpan(parent, span);
      // The dispatcher's answer never rejects (router.ts): a reply is always there to read.
      return contextApi.with(active, answer).then((response) => {
        endWithResponse(span, response);
        return response;
      });
    },
  };
}

/** The span's parent and links, as the conventions' "Context propagation" says. */
function parentOf(tools: Instruments, request: TracedRequest): { parent: Context; links: Link[] } {
  const ambient = contextApi.active();
  const meta = request.params["_meta"];
  const fromMeta = isObject(meta) ? tools.extract(ROOT_CONTEXT, meta) : ROOT_CONTEXT;
  const headers = request.traceHeaders;
  const fromHeaders = headers ? tools.extract(ROOT_CONTEXT, { ...headers }) : ROOT_CONTEXT;
  const metaSpan = trace.getSpanContext(fromMeta);
  const headerSpan = trace.getSpanContext(fromHeaders);
  if (!metaSpan) return { parent: headerSpan ? fromHeaders : ambient, links: [] };
  // MCP and transport contexts are independent: the transport's and the ambient one (an
  // HTTP framework's span, say) are recorded as links, unless they are the parent itself.
  const links: Link[] = [];
  for (const other of [headerSpan, trace.getSpanContext(ambient)]) {
    if (other && other.spanId !== metaSpan.spanId && !links.some((l) => l.context === other))
      links.push({ context: other });
  }
  return { parent: fromMeta, links };
}
