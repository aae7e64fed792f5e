// The official SDK clients against the dual-era server (support/dual-era-server.ts) generated
// in each target: the `ts` output, and the `js+dts` output's JavaScript run as emitted (what an
// `init` project runs). The v1 SDK client 1.32.2 and the v2 SDK client 2.4.0 (default, legacy,
// and auto, modern) over Streamable HTTP; both over stdio too, the server a child process.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TARGETS } from "../src/generators/output/target.js";
import { type DualEraServer, startDualEraServer } from "./support/dual-era-server.js";

/** The stdio server: the generated dispatcher on the generated stdio host, one asking tool. */
const STDIO_SERVER = `import { createServerDispatcher, inputRequired } from "./dispatcher.js";
import { serveStdio } from "./stdio.js";
const handlers = {
  "tools/list": () => ({ tools: [{ name: "greet", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "public" }),
  "tools/call": async (params, ctx) => {
    const answer = ctx.inputResponse("who", "elicitation/create");
    if (answer) return { content: [{ type: "text", text: \`Hello, \${answer.content?.name} (\${ctx.protocolVersion})\` }] };
    const ask = { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
    return inputRequired(ctx, { inputRequests: { who: { method: "elicitation/create", params: ask } } });
  },
};
serveStdio(createServerDispatcher(handlers, { serverInfo: { name: "dual-stdio", version: "1.0.0" } }));
`;

describe.each(TARGETS)("the %s output serves the SDK clients", (target) => {
  let server: DualEraServer;
  let stdioScript: string;
  beforeAll(async () => {
    server = await startDualEraServer(target);
    stdioScript = join(server.dir, "server-stdio.mjs");
    writeFileSync(stdioScript, STDIO_SERVER);
  });
  afterAll(() => server?.close());

  it("the v1 SDK client 1.32.2 over HTTP: initialize, list, call, elicitation through the legacy shim, logs", async () => {
    const client = new V1Client(
      { name: "v1", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Ada" },
    }));
    const logs: unknown[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void logs.push(n.params.data),
    );
    await client.connect(new V1HttpTransport(new URL(server.url)));
    expect(client.getServerVersion()).toEqual({ name: "dual", version: "1.0.0" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "greet"]);
    await client.setLoggingLevel("info");
    const progress: unknown[] = [];
    const echo = await client.callTool({ name: "echo", arguments: { text: "x" } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    expect(echo.content).toEqual([{ type: "text", text: "x" }]);
    expect(progress).toEqual([1]);
    expect(logs).toEqual(["echo x"]);
    const greet = await client.callTool({ name: "greet", arguments: {} });
    expect(greet.content).toEqual([{ type: "text", text: "Hello, Ada (2025-11-25)" }]);
    expect((await client.getPrompt({ name: "hi" })).messages).toHaveLength(1);
    await client.close();
  });

  it("the v2 SDK client 2.4.0 over HTTP, in its default mode (legacy) and auto mode (modern, statelessly)", async () => {
    for (const [mode, name, era] of [
      ["default", "Grace", "2025-11-25"],
      ["auto", "Hedy", "2026-07-28"],
    ] as const) {
      const client = new V2Client(
        { name: "v2", version: "1.0.0" },
        {
          capabilities: { elicitation: {} },
          ...(mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {}),
        },
      );
      client.setRequestHandler("elicitation/create", async () => ({
        action: "accept",
        content: { name },
      }));
      await client.connect(new V2HttpTransport(new URL(server.url)));
      const greet = await client.callTool({ name: "greet", arguments: {} });
      // In auto mode the handler saw the modern protocol version: no legacy session was opened.
      expect(greet.content, mode).toEqual([{ type: "text", text: `Hello, ${name} (${era})` }]);
      await client.close();
    }
  });

  it("the v1 and v2 SDK clients over stdio: list, call, elicitation through the legacy shim", async () => {
    const v1 = new V1Client(
      { name: "v1", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    v1.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Ada" },
    }));
    const v2 = new V2Client(
      { name: "v2", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    v2.setRequestHandler("elicitation/create", async () => ({
      action: "accept",
      content: { name: "Grace" },
    }));
    const spawn = { command: process.execPath, args: [stdioScript], stderr: "pipe" as const };
    await Promise.all([
      v1.connect(new V1StdioTransport(spawn)),
      v2.connect(new V2StdioTransport(spawn)),
    ]);
    try {
      for (const [client, name] of [
        [v1, "Ada"],
        [v2, "Grace"],
      ] as const) {
        expect(client.getServerVersion()).toEqual({ name: "dual-stdio", version: "1.0.0" });
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet"]);
        const greet = await client.callTool({ name: "greet", arguments: {} });
        expect(greet.content).toEqual([{ type: "text", text: `Hello, ${name} (2025-11-25)` }]);
      }
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });
});
