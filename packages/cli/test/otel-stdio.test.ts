// OpenTelemetry over stdio: the generated client, traced in this process, calls a generated
// server in another (fixtures/traced-stdio-server.mjs, its SDK writing spans to stderr). The
// only thing the two processes share is the request's `_meta`: the server's span is a child
// of the client's in both eras (a modern request; a 2025-11-25 session after initialize).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { clientTracing } from "@mcp-gen/runtime/otel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedDualEra } from "./support/dual-era-server.js";
import { whenSeen } from "./support/wait.js";

type Any = any;

const SERVER = fileURLToPath(new URL("fixtures/traced-stdio-server.mjs", import.meta.url));
const exporter = new InMemorySpanExporter();
let dir: string;
let generated: { client: Any; stdio: Any };

beforeAll(async () => {
  dir = await generatedDualEra("ts");
  const [client, stdio] = await Promise.all(
    ["client.js", "stdio.js"].map((m) => import(join(dir, m))),
  );
  generated = { client, stdio };
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

describe("OpenTelemetry over stdio", () => {
  for (const era of ["modern", "legacy"] as const) {
    it(`makes the server process's span a child of the client's (${era})`, async () => {
      exporter.reset();
      const transport = generated.stdio.createStdioTransport({
        command: process.execPath,
        args: [SERVER, dir],
        stderr: "pipe",
      });
      let stderr = "";
      transport.process.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
      const spans = () =>
        stderr
          .split("\n")
          .filter((line) => line.startsWith("SPAN "))
          .map((line) => JSON.parse(line.slice(5)));
      const client = generated.client.createClient({ transport, era, ...clientTracing() });
      try {
        const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
        expect(result.content).toEqual([{ type: "text", text: "hi" }]);
        await whenSeen(
          [transport.process.stderr],
          // The request's span is the server's last: it ends once the handler's has.
          () => spans().some((s) => s.name === "tools/call echo"),
          "the server's spans on its stderr",
        );
      } finally {
        await client.close();
      }
      const [call] = exporter.getFinishedSpans().filter((s) => s.name === "tools/call echo");
      const sent = call!.spanContext();
      const request = spans().find(
        (s) => s.name === "tools/call echo" && s.kind === SpanKind.SERVER,
      );
      expect(request).toMatchObject({
        traceId: sent.traceId,
        parentSpanId: sent.spanId,
        attributes: {
          "mcp.method.name": "tools/call",
          "gen_ai.tool.name": "echo",
          "mcp.protocol.version": era === "modern" ? "2026-07-28" : "2025-11-25",
          "jsonrpc.request.id": call!.attributes["jsonrpc.request.id"],
        },
      });
      expect(call!.kind).toBe(SpanKind.CLIENT);
      const work = spans().find((s) => s.name === "echo work");
      expect(work.parentSpanId).toBe(request.spanId);
    });
  }
});
