// A generated dual-era server (2026-07-28 handlers, 2025-11-25 through `initialize`) and the
// end of a request, as the SDK clients see it over stdio and Streamable HTTP:
// - progress a handler sends after answering never reaches the client (basic/utilities/progress:
//   tokens of active requests only). Both SDK clients report a progress notification for a token
//   they no longer track as an error (Protocol._onprogress, "unknown token");
// - an elicitation the server asked for a request the client then cancels (or the server's HTTP
//   request timeout ends) is cancelled by the server too (basic/utilities/cancellation): both
//   SDK clients, and the generated client, abort the handler answering it;
// - a stdio server whose client closes its input while an elicitation is outstanding exits at
//   once instead of waiting for the request to time out.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";
import { whenSeen, within } from "./support/wait.js";

type Any = any;
let script: string;
/** The generated client and its transports (the same output as the server). */
let generated: { client: Any; stdio: Any; httpClient: Any };
let http: { url: string; close(): Promise<void> };
/** Its HTTP requests time out after 300 ms (of fake time: the tests let them pass once asked). */
let impatient: { url: string; close(): Promise<void> };

/** The server's handlers, a module beside the generated files (the stdio script imports it too). */
const HANDLERS = `import { inputRequired } from "./dispatcher.js";
let progressHandled = () => undefined;
export const handlers = {
  "tools/call": async (params, ctx) => {
    if (params.name === "handled") return (progressHandled(), { content: [] });
    if (params.name === "late") {
      const handled = new Promise((resolve) => (progressHandled = resolve));
      await ctx.sendProgress(1);
      // The SDK clients handle a notification a tick after reading it, and drop the token once
      // the response is read: a progress in the same read as the answer would be "unknown". So
      // the answer waits for the client to say it handled progress 1 (it calls "handled").
      await handled;
      // Fires after the answer: must not reach the client. Then the server says on stderr that
      // it tried, so the client knows when anything it sent has been sent.
      setTimeout(
        () =>
          void Promise.resolve(ctx.sendProgress(2))
            .catch(() => undefined)
            .finally(() => process.stderr.write("late progress tried\\n")),
        20,
      );
      return { content: [{ type: "text", text: "answered" }] };
    }
    if (ctx.inputResponse("who", "elicitation/create")) return { content: [{ type: "text", text: "thanks" }] };
    const ask = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
    return inputRequired(ctx, { inputRequests: { who: { method: "elicitation/create", params: ask } } });
  },
};
`;

beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const dir = writeGenerated(files);
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  script = join(dir, "server-stdio.mjs");
  writeFileSync(
    script,
    `import { createServerDispatcher } from "./dispatcher.js";
import { handlers } from "./handlers.mjs";
import { serveStdio } from "./stdio.js";
serveStdio(createServerDispatcher(handlers, { serverInfo: { name: "lifetime", version: "1.0.0" } }));
`,
  );
  const [dispatcher, httpServer, { handlers }, client, stdio, httpClient] = await Promise.all(
    [
      "dispatcher.js",
      "http-server.js",
      "handlers.mjs",
      "client.js",
      "stdio.js",
      "http-client.js",
    ].map((m) => import(join(dir, m))),
  );
  generated = { client, stdio, httpClient };
  const serverInfo = { name: "lifetime", version: "1.0.0" };
  http = await httpServer.serveHttp(dispatcher.createServerDispatcher(handlers, { serverInfo }));
  impatient = await httpServer.serveHttp(
    dispatcher.createServerDispatcher(handlers, { serverInfo }),
    { requestTimeoutMs: 300 },
  );
});
afterEach(() => void vi.useRealTimers());
afterAll(async () => {
  await http?.close();
  await impatient?.close();
});

/**
 * Calls "late" on an SDK client over stdio (its transport's stderr piped): the progress it saw,
 * once the server has tried its late progress and a ping after it has come back (anything the
 * server sent before that has been read and handled by then).
 */
async function lateProgress(
  client: Any,
  stderr: Readable,
  call: (onprogress: (p: { progress: number }) => void) => Promise<Any>,
): Promise<{ result: Any; progress: number[] }> {
  let said = "";
  stderr.on("data", (chunk: Buffer) => (said += chunk));
  const tried = whenSeen([stderr], () => said.includes("late progress tried"), "the late progress");
  const progress: number[] = [];
  const result = await within(
    call((p) => {
      progress.push(p.progress);
      void client.callTool({ name: "handled", arguments: {} });
    }),
    "the call of late",
  );
  await tried;
  await client.ping();
  return { result, progress };
}

/** An elicitation handler that never answers, and records the abort of its request. */
function waitingElicitation() {
  const aborted: unknown[] = [];
  let asked!: () => void;
  const askedOnce = new Promise<void>((r) => (asked = r));
  let abortSeen!: () => void;
  const abortedOnce = new Promise<void>((r) => (abortSeen = r));
  // The v1 SDK hands the handler `extra.signal`, the v2 SDK `ctx.mcpReq.signal`.
  const handler = (
    _request: unknown,
    extra: { signal?: AbortSignal; mcpReq?: { signal: AbortSignal } },
  ) =>
    new Promise<never>(() => {
      asked();
      // Without a signal (a client that passes none) nothing is recorded: the test fails.
      const signal = extra.signal ?? extra.mcpReq?.signal;
      signal?.addEventListener("abort", () => (aborted.push(signal.reason), abortSeen()));
    });
  /** Resolves once the handler's signal aborted. */
  const abortedSoon = () => within(abortedOnce, "the elicitation handler's abort");
  return { aborted, askedOnce, abortedSoon, handler };
}

/** Calls the tool that asks, cancels the call once the elicitation arrived, waits for the server's cancellation. */
async function cancelWhileAsked(
  client: Any,
  elicitation: ReturnType<typeof waitingElicitation>,
  v1: boolean,
) {
  const controller = new AbortController();
  const call = v1
    ? client.callTool({ name: "ask", arguments: {} }, undefined, { signal: controller.signal })
    : client.callTool({ name: "ask", arguments: {} }, { signal: controller.signal });
  await elicitation.askedOnce;
  controller.abort("the user gave up");
  await expect(call).rejects.toThrow();
  await elicitation.abortedSoon();
}

describe("the v1 SDK client 1.32.2 over stdio (2025-11-25 session)", () => {
  it("gets no progress for a request it has its answer to", async () => {
    const client = new V1Client({ name: "v1", version: "1.0.0" });
    const errors: Error[] = [];
    client.onerror = (e) => void errors.push(e);
    const transport = new V1StdioTransport({
      command: process.execPath,
      args: [script],
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      const { result, progress } = await lateProgress(
        client,
        transport.stderr as Readable,
        (onprogress) => client.callTool({ name: "late", arguments: {} }, undefined, { onprogress }),
      );
      expect(result.content).toEqual([{ type: "text", text: "answered" }]);
      expect(progress).toEqual([1]);
      expect(errors.map((e) => e.message)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("has its elicitation handler aborted when it cancels the call that asked", async () => {
    const client = new V1Client(
      { name: "v1", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    const elicitation = waitingElicitation();
    client.setRequestHandler(ElicitRequestSchema, elicitation.handler as Any);
    await client.connect(
      new V1StdioTransport({ command: process.execPath, args: [script], stderr: "ignore" }),
    );
    try {
      await cancelWhileAsked(client, elicitation, true);
      expect(elicitation.aborted).toEqual(["the request that asked was cancelled"]);
    } finally {
      await client.close();
    }
  });
});

describe("the v1 SDK client 1.32.2 over Streamable HTTP (2025-11-25 session)", () => {
  it("has its elicitation handler aborted when the server's request timeout ends the call that asked (on the GET stream, the call's own being closed)", async () => {
    const client = new V1Client(
      { name: "v1", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    const elicitation = waitingElicitation();
    client.setRequestHandler(ElicitRequestSchema, elicitation.handler as Any);
    await client.connect(new V1HttpTransport(new URL(impatient.url)));
    try {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const call = client.callTool({ name: "ask", arguments: {} });
      await elicitation.askedOnce;
      const timedOut = expect(call).rejects.toThrow("Request timed out");
      await vi.advanceTimersByTimeAsync(300);
      await timedOut;
      await elicitation.abortedSoon();
      expect(elicitation.aborted).toEqual(["the request that asked was cancelled"]);
    } finally {
      await client.close();
    }
  });
});

describe("the v2 SDK client 2.4.0 (2025-11-25 session)", () => {
  it("stdio: gets no progress for a request it has its answer to", async () => {
    const client = new V2Client({ name: "v2", version: "1.0.0" });
    const errors: Error[] = [];
    client.onerror = (e: Error) => void errors.push(e);
    const transport = new V2StdioTransport({
      command: process.execPath,
      args: [script],
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      const { progress } = await lateProgress(client, transport.stderr as Readable, (onprogress) =>
        client.callTool({ name: "late", arguments: {} }, { onprogress }),
      );
      expect(progress).toEqual([1]);
      expect(errors.map((e) => e.message)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("Streamable HTTP: has its elicitation handler aborted when it cancels the call that asked", async () => {
    const client = new V2Client(
      { name: "v2", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    const elicitation = waitingElicitation();
    client.setRequestHandler("elicitation/create", elicitation.handler as Any);
    await client.connect(new V2HttpTransport(new URL(http.url)));
    try {
      await cancelWhileAsked(client, elicitation, false);
      expect(elicitation.aborted).toEqual(["the request that asked was cancelled"]);
    } finally {
      await client.close();
    }
  });
});

describe("the generated client (2025-11-25 session)", () => {
  /** A generated client on a legacy session, with the never-answering elicitation handler. */
  const connect = (transport: Any, elicitation: ReturnType<typeof waitingElicitation>) =>
    generated.client.createClient({
      transport,
      era: "legacy",
      inputHandlers: { "elicitation/create": elicitation.handler },
    });

  it("stdio: has its input handler's signal aborted when it cancels the call that asked", async () => {
    const elicitation = waitingElicitation();
    const client = connect(
      generated.stdio.createStdioTransport({
        command: process.execPath,
        args: [script],
        stderr: "ignore",
      }),
      elicitation,
    );
    try {
      await cancelWhileAsked(client, elicitation, false);
      expect(elicitation.aborted.map((r) => (r as Error).message)).toEqual([
        "the request that asked was cancelled",
      ]);
    } finally {
      await client.close();
    }
  });

  it("Streamable HTTP: has its input handler's signal aborted when the server's request timeout ends the call that asked", async () => {
    const elicitation = waitingElicitation();
    const client = connect(
      generated.httpClient.createHttpTransport({ url: impatient.url }),
      elicitation,
    );
    try {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const call = client.callTool({ name: "ask", arguments: {} });
      await elicitation.askedOnce;
      const timedOut = expect(call).rejects.toThrow();
      await vi.advanceTimersByTimeAsync(300);
      await timedOut;
      await elicitation.abortedSoon();
      expect(elicitation.aborted.map((r) => (r as Error).message)).toEqual([
        "the request that asked was cancelled",
      ]);
    } finally {
      await client.close();
    }
  });
});

describe("a stdio server whose client closes its input while the server awaits an answer", () => {
  it("fails the request that asked, cancels what it asked, and exits at once", async () => {
    const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "ignore"] });
    const lines: Any[] = [];
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const parts = buffered.split("\n");
      buffered = parts.pop()!;
      lines.push(...parts.filter((l) => l !== "").map((l) => JSON.parse(l)));
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "raw", version: "0" },
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } });
    await whenSeen(
      [child.stdout],
      () => lines.some((m) => m.method === "elicitation/create"),
      "the server asking",
    );
    const asked = lines.find((m) => m.method === "elicitation/create");
    expect(asked).toBeDefined();
    const closedAt = Date.now();
    child.stdin.end();
    expect(await exited).toBe(0);
    // Without ending the session it waited for the 5-minute client request timeout.
    expect(Date.now() - closedAt).toBeLessThan(3000);
    expect(lines).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: asked.id, reason: "the session ended" },
    });
    expect(lines).toContainEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32603, message: "the session ended" },
    });
  });
});
