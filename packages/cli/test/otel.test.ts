// OpenTelemetry (`@mcp-gen/runtime/otel`) across the generated client and server, with the
// real SDK's in-memory exporter: a CLIENT span per call and a SERVER span per request, named
// and attributed after the MCP semantic conventions, the client's context carried in `_meta`
// (modern requests and 2025-11-25 sessions), the HTTP `traceparent` header accepted, errors
// recorded, and nothing recorded while the API has no provider.
import { join } from "node:path";
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { clientTracing, serverTracing } from "@mcp-gen/runtime/otel";
import { createDirectTransport } from "@mcp-gen/runtime/transport";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dualEraHandlers, generatedDualEra } from "./support/dual-era-server.js";

type Any = any;

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let generated: { client: Any; http: Any; dispatcher: Any; httpClient: Any };
let served: { url: string; close(): Promise<void> };
let dispatcher: Any;
/** The `_meta` of each tools/call the server's handler saw. */
const seenMeta: Any[] = [];

/** The dual-era handlers, plus a tool whose handler starts a span of its own. */
function handlers(module: Any): Any {
  const base = dualEraHandlers(module);
  return {
    ...base,
    "tools/call": async (params: Any, ctx: Any) => {
      seenMeta.push(params._meta);
      if (params.name !== "inner") return base["tools/call"](params, ctx);
      trace.getTracer("handler").startSpan("inner work").end();
      return { content: [{ type: "text", text: "done" }] };
    },
  };
}

beforeAll(async () => {
  const dir = await generatedDualEra("ts");
  const [d, http, client, httpClient] = await Promise.all(
    ["dispatcher.js", "http-server.js", "client.js", "http-client.js"].map(
      (m) => import(join(dir, m)),
    ),
  );
  generated = { dispatcher: d, http, client, httpClient };
  dispatcher = d.createServerDispatcher(handlers(d), {
    serverInfo: { name: "traced", version: "1.0.0" },
    ...serverTracing(),
  });
  served = await http.serveHttp(dispatcher);
});
afterAll(async () => {
  await served?.close();
  trace.disable();
  propagation.disable();
  context.disable();
});
afterEach(() => {
  exporter.reset();
  seenMeta.length = 0;
});

/** A client of `transport` (HTTP to the server by default), its calls traced. */
function tracedClient(options: Any = {}): Any {
  return generated.client.createClient({
    transport: generated.httpClient.createHttpTransport({ url: served.url }),
    era: "modern",
    inputHandlers: {
      "elicitation/create": async () => ({ action: "accept", content: { name: "Lin" } }),
    },
    ...clientTracing(),
    ...options,
  });
}

const spansNamed = (name: string, kind: SpanKind) =>
  exporter.getFinishedSpans().filter((s) => s.name === name && s.kind === kind);

function only(name: string, kind: SpanKind): ReadableSpan {
  const found = spansNamed(name, kind);
  expect(found, `${SpanKind[kind]} spans named ${name}`).toHaveLength(1);
  return found[0]!;
}

const isChild = (child: ReadableSpan, parent: ReadableSpan) =>
  child.parentSpanContext?.spanId === parent.spanContext().spanId &&
  child.spanContext().traceId === parent.spanContext().traceId;

describe("without a tracer provider", () => {
  it("records nothing and sends no trace context, until a provider is registered", async () => {
    const client = tracedClient();
    await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(seenMeta[0]).not.toHaveProperty("traceparent");
    // The same hooks, once the application registers the SDK: spans and propagation.
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(seenMeta[1]).toHaveProperty("traceparent");
    expect(spansNamed("tools/call echo", SpanKind.SERVER)).toHaveLength(1);
    expect(spansNamed("tools/call echo", SpanKind.CLIENT)).toHaveLength(1);
  });
});

describe("with the SDK registered", () => {
  it("makes the server's span a child of the client's over HTTP, attributed as the conventions say", async () => {
    const app = trace.getTracer("app");
    await app.startActiveSpan("app", async (root) => {
      await tracedClient().callTool({ name: "inner" });
      root.end();
    });
    const root = only("app", SpanKind.INTERNAL);
    const call = only("tools/call inner", SpanKind.CLIENT);
    const request = only("tools/call inner", SpanKind.SERVER);
    const work = only("inner work", SpanKind.INTERNAL);
    expect(isChild(call, root)).toBe(true);
    expect(isChild(request, call)).toBe(true);
    expect(isChild(work, request)).toBe(true);
    for (const span of [call, request]) {
      expect(span.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "inner",
        "gen_ai.operation.name": "execute_tool",
      });
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
    }
    expect(request.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(request.attributes["jsonrpc.request.id"]).toBe(call.attributes["jsonrpc.request.id"]);
    expect(request.attributes).not.toHaveProperty("mcp.session.id");
  });

  it("carries the context on every round of input_required", async () => {
    const result = await tracedClient().callTool({ name: "greet" });
    expect(result.content[0].text).toBe("Hello, Lin (2026-07-28)");
    const call = only("tools/call greet", SpanKind.CLIENT);
    const rounds = spansNamed("tools/call greet", SpanKind.SERVER);
    expect(rounds).toHaveLength(2);
    for (const round of rounds) expect(isChild(round, call)).toBe(true);
    const ids = rounds.map((r) => r.attributes["jsonrpc.request.id"]);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toContain(call.attributes["jsonrpc.request.id"]);
  });

  it("records a JSON-RPC error by its code and a tool's error result as tool_error", async () => {
    const client = tracedClient();
    await expect(client.callTool({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const span = only("tools/call nope", kind);
      expect(span.attributes).toMatchObject({
        "error.type": "-32602",
        "rpc.response.status_code": "-32602",
      });
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "Unknown tool: nope" });
    }
    expect(only("tools/call nope", SpanKind.CLIENT).events.map((e) => e.name)).toEqual([
      "exception",
    ]);
    const failed = await client.callTool({ name: "fail" });
    expect(failed.isError).toBe(true);
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const span = only("tools/call fail", kind);
      expect(span.attributes["error.type"]).toBe("tool_error");
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    }
  });

  it("propagates into a 2025-11-25 session, with its session id", async () => {
    const client = tracedClient({ era: "legacy" });
    await client.callTool({ name: "echo", arguments: { text: "hi" } });
    const call = only("tools/call echo", SpanKind.CLIENT);
    const request = only("tools/call echo", SpanKind.SERVER);
    expect(isChild(request, call)).toBe(true);
    expect(request.attributes["mcp.protocol.version"]).toBe("2025-11-25");
    expect(request.attributes["mcp.session.id"]).toMatch(/^\S+$/);
    expect(request.attributes["jsonrpc.request.id"]).toBe(call.attributes["jsonrpc.request.id"]);
    await client.close();
  });

  it("takes the HTTP traceparent as parent when _meta has none, and links it when _meta has one", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const spanId = "00f067aa0ba902b7";
    const withHeader = (url: Any, init: Any) => {
      const headers = new Headers(init?.headers);
      headers.set("traceparent", `00-${traceId}-${spanId}-01`);
      return fetch(url, { ...init, headers });
    };
    const transport = generated.httpClient.createHttpTransport({
      url: served.url,
      fetch: withHeader,
    });
    const plain = generated.client.createClient({ transport, era: "modern" });
    await plain.listTools();
    const listed = only("tools/list", SpanKind.SERVER);
    expect(listed.parentSpanContext).toMatchObject({ traceId, spanId, isRemote: true });
    await tracedClient({ transport }).listPrompts();
    const call = only("prompts/list", SpanKind.CLIENT);
    const request = only("prompts/list", SpanKind.SERVER);
    expect(isChild(request, call)).toBe(true);
    expect(request.links.map((l) => l.context)).toContainEqual(
      expect.objectContaining({ traceId, spanId }),
    );
  });

  it("traces in process too (the direct transport), where only _meta carries the context", async () => {
    // The server runs outside the client's context, as it would in another process.
    const transport = createDirectTransport((message, ctx) =>
      context.with(ROOT_CONTEXT, () => dispatcher.handle(message, ctx)),
    );
    const client = tracedClient({ transport });
    const result = await client.getPrompt({ name: "hi" });
    expect(result.messages).toHaveLength(1);
    const call = only("prompts/get hi", SpanKind.CLIENT);
    const request = only("prompts/get hi", SpanKind.SERVER);
    expect(isChild(request, call)).toBe(true);
    expect(request.links).toEqual([]);
    expect(request.attributes).toMatchObject({
      "mcp.method.name": "prompts/get",
      "gen_ai.prompt.name": "hi",
    });
    await client.callTool({ name: "inner" });
    const sent = only("tools/call inner", SpanKind.CLIENT).spanContext();
    expect(seenMeta[0].traceparent).toBe(`00-${sent.traceId}-${sent.spanId}-01`);
  });
});
