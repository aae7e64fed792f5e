// examples/telemetry (docs/guide/telemetry.md): the SDK registered as tracing.ts does, the
// server of server.ts on loopback HTTP, the client of client.ts calling it; the
// spans, read from the SDK's in-memory exporter, form one trace: the application's span, the
// client's call, the server's request, the tool's own work.
import { join } from "node:path";
import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typecheck } from "./helpers.js";
import { itCompiles } from "./support/compile.js";
import { prepareExample, transpiledExample } from "./support/example-project.js";

type Any = any;

const exporter = new InMemorySpanExporter();
let example: { dir: string; sources: string[] };
let served: { url: string; close(): Promise<void> } | undefined;
let connect: (url: string) => Any;

beforeAll(async () => {
  example = await prepareExample("telemetry");
  const js = transpiledExample(example.dir);
  const [tracing, server, client, http] = await Promise.all(
    ["tracing.js", "server.js", "client.js", "mcp/http-server.js"].map((m) => import(join(js, m))),
  );
  tracing.registerTracing(exporter);
  served = await http.serveHttp(server.dispatcher, { port: 0 });
  connect = client.connect;
});
afterAll(async () => {
  await served?.close();
  trace.disable();
  propagation.disable();
  context.disable();
});

const byName = (name: string, kind: SpanKind): ReadableSpan => {
  const found = exporter.getFinishedSpans().filter((s) => s.name === name && s.kind === kind);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("examples/telemetry", () => {
  it("traces a call from the application's span to the tool's work, in one trace", async () => {
    const client = connect(served!.url);
    const text = await trace.getTracer("app").startActiveSpan("plan trip", async (root) => {
      const result = await client.callTool({ name: "lookup", arguments: { city: "Oslo" } });
      root.end();
      return result.content[0].text;
    });
    expect(text).toBe("sunny in Oslo");
    const root = byName("plan trip", SpanKind.INTERNAL);
    const call = byName("tools/call lookup", SpanKind.CLIENT);
    const request = byName("tools/call lookup", SpanKind.SERVER);
    const work = byName("forecast query", SpanKind.INTERNAL);
    expect(parentOf(call)).toBe(root.spanContext().spanId);
    expect(parentOf(request)).toBe(call.spanContext().spanId);
    expect(parentOf(work)).toBe(request.spanContext().spanId);
    const traceIds = new Set([root, call, request, work].map((s) => s.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    expect(request.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "lookup",
      "mcp.protocol.version": "2026-07-28",
    });
    await client.close();
  });

  itCompiles("type-checks with its generated code under the strict flags", () => {
    expect(example.sources).toEqual(["client.ts", "server.ts", "tracing.ts"]);
    expect(typecheck(example.sources.map((f) => join(example.dir, f)))).toEqual([]);
  });
});
