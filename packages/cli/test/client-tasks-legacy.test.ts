// Tasks on the client, legacy era (2025-11-25 basic/utilities/tasks): the generated dual-era
// client against the reference server @modelcontextprotocol/server-everything 2026.8.31 over
// stdio, whose simulate-research-query tool has taskSupport "required" (four stages of about a
// second each, its own timers: these tests wait for a real server, bounded by vitest's timeout),
// and against mcp-gen's own dual-era server, whose legacy sessions never opt into a task.
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ROOT } from "./helpers.js";
import { importDualEraClient } from "./support/dual-era-client.js";

type Any = any;

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const TOOL = "simulate-research-query";
// Four stages of one second, and the process's start: far below this.
const SLOW = 30_000;

let client: Any;
let stdio: Any;
let dispatcher: Any;
let httpServer: Any;
let httpClient: Any;

beforeAll(async () => {
  [client, stdio, dispatcher, httpServer, httpClient] = await importDualEraClient([
    "client.js",
    "stdio.js",
    "dispatcher.js",
    "http-server.js",
    "http-client.js",
  ]);
});

/** A client of server-everything over stdio, recording what it sends. */
function everything(options: Any = {}) {
  const inner = stdio.createStdioTransport({
    command: process.execPath,
    args: [EVERYTHING, "stdio"],
    stderr: "ignore",
  });
  const sent: Any[] = [];
  const transport = {
    ...inner,
    legacy: inner.legacy,
    request: (message: Any, opts: Any) => (sent.push(message), inner.request(message, opts)),
    notify: (message: Any) => inner.notify(message),
    close: () => inner.close(),
  };
  const c = client.createClient({
    transport,
    clientInfo: { name: "tasks-legacy-test", version: "1.0.0" },
    probeTimeoutMs: 5_000,
    // The server suggests 1 s; polling faster sees each stage.
    tasks: { minPollIntervalMs: 50, maxPollIntervalMs: 250 },
    ...options,
  });
  return { c, sent, methods: () => sent.map((m) => m.method) };
}

describe("against @modelcontextprotocol/server-everything 2026.8.31 over stdio (2025-11-25)", () => {
  it(
    `callTool runs ${TOOL} (taskSupport "required") as a task, and resolves to its result`,
    async () => {
      const { c, sent, methods } = everything();
      try {
        expect(await c.era()).toBe("legacy");
        const result = await c.callTool({ name: TOOL, arguments: { topic: "tides" } });
        expect(result.resultType).toBe("complete");
        expect(result.content[0].text).toContain("# Research Report: tides");
        // Not listed before: the tools were listed once to learn the tool's taskSupport.
        const call = sent.find((m) => m.method === "tools/call");
        expect(call.params).toMatchObject({ name: TOOL, task: {} });
        expect(methods().filter((m) => m === "tools/list")).toHaveLength(1);
        expect(methods()).toContain("tasks/get");
        expect(methods().at(-1)).toBe("tasks/result");
        // A tool that needs no task is called as before.
        const echo = await c.callTool({ name: "echo", arguments: { message: "hi" } });
        expect(echo.content[0].text).toContain("hi");
        expect(sent.at(-1).params).not.toHaveProperty("task");
      } finally {
        await c.close();
      }
    },
    SLOW,
  );

  it(
    "callToolTask's handle goes created -> working -> completed, and lists in tasks/list",
    async () => {
      const { c } = everything();
      try {
        const handle = await c.callToolTask(
          { name: TOOL, arguments: { topic: "tides" } },
          { ttlMs: 120_000 },
        );
        expect(handle.taskId).toEqual(expect.any(String));
        // Created: 2025-11-25's ttl and pollInterval, in the Tasks extension's names.
        expect(handle.latest).toMatchObject({ status: "working", pollIntervalMs: 1000 });
        expect(handle.latest.ttlMs).toEqual(expect.any(Number));
        const statuses: Any[] = [];
        for await (const s of handle) statuses.push(s);
        const kinds = statuses.map((s) => s.status);
        expect(kinds[0]).toBe("working");
        expect(kinds.at(-1)).toBe("completed");
        expect(new Set(kinds)).toEqual(new Set(["working", "completed"]));
        // The stages show in statusMessage as the task goes.
        const messages = statuses.map((s) => s.statusMessage).filter(Boolean);
        expect(messages).toContain("Gathering sources...");
        expect(messages).toContain("Generating report...");
        const result = await handle.result();
        expect(result.content[0].text).toContain("Research Report: tides");
        // The legacy-only tasks/list (the Tasks extension has none) finds it.
        const { tasks } = await c.listTasks();
        expect(tasks.map((t: Any) => t.taskId)).toContain(handle.taskId);
      } finally {
        await c.close();
      }
    },
    SLOW,
  );

  it(
    "input_required: tasks/result is called early, the elicitation answered by the input handler",
    async () => {
      const elicit = vi.fn(async (params: Any) => {
        const options = params.requestedSchema.properties.interpretation.oneOf;
        return { action: "accept", content: { interpretation: options[1].const } };
      });
      const { c, methods } = everything({ inputHandlers: { "elicitation/create": elicit } });
      try {
        const handle = await c.callToolTask({
          name: TOOL,
          arguments: { topic: "python", ambiguous: true },
        });
        const result = await handle.result();
        expect(elicit).toHaveBeenCalledOnce();
        expect(result.content[0].text).toContain("Research Report: python (snake)");
        const kinds: string[] = [];
        for await (const s of handle) kinds.push(s.status);
        expect(kinds).toContain("input_required");
        expect(kinds.at(-1)).toBe("completed");
        // One tasks/result, sent at input_required, carried both the request and the result.
        expect(methods().filter((m) => m === "tasks/result")).toHaveLength(1);
      } finally {
        await c.close();
      }
    },
    SLOW,
  );

  it(
    "cancel() sends tasks/cancel; the handle ends cancelled",
    async () => {
      const { c } = everything();
      try {
        const handle = await c.callToolTask({ name: TOOL, arguments: { topic: "tides" } });
        await handle.cancel();
        await expect(handle.result()).rejects.toBeInstanceOf(client.TaskCancelledError);
        const kinds: string[] = [];
        for await (const s of handle) kinds.push(s.status);
        expect(kinds).toEqual(["working", "cancelled"]);
      } finally {
        await c.close();
      }
    },
    SLOW,
  );

  it(
    "gets what the v1 SDK 1.32.2 client gets from the same server (callToolStream)",
    async () => {
      const v1 = new V1Client({ name: "v1", version: "1.0.0" });
      await v1.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [EVERYTHING, "stdio"],
          stderr: "ignore",
        }),
      );
      const { c } = everything();
      try {
        // As ours, the v1 client learns the tool's taskSupport from tools/list.
        await v1.listTools();
        const stream = v1.experimental.tasks.callToolStream(
          { name: TOOL, arguments: { topic: "tides" } },
          CallToolResultSchema,
        );
        let theirs: Any;
        for await (const message of stream) if (message.type === "result") theirs = message.result;
        const ours = await c.callTool({ name: TOOL, arguments: { topic: "tides" } });
        // The same content; ours in the newest revision's shape.
        expect(ours.content).toEqual(theirs.content);
        expect(ours.resultType).toBe("complete");
      } finally {
        await Promise.all([v1.close(), c.close()]);
      }
    },
    SLOW,
  );
});

describe("against mcp-gen's own dual-era server on a legacy session", () => {
  let served: Any;
  afterAll(() => served?.close());

  it("a task-store tool is answered at once: legacy sessions never opt into the extension", async () => {
    const store = dispatcher.createTaskStore();
    const d = dispatcher.createServerDispatcher(
      {
        "tools/call": (_params: Any, ctx: Any) =>
          store.run(ctx, () => ({ content: [{ type: "text", text: "ran inline" }] })),
      },
      { extensions: [store] },
    );
    served = await httpServer.serveHttp(d);
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url: served.url }),
      era: "legacy",
    });
    try {
      expect((await c.callTool({ name: "t", arguments: {} })).content).toEqual([
        { type: "text", text: "ran inline" },
      ]);
      const handle = await c.callToolTask({ name: "t", arguments: {} });
      expect(handle.taskId).toBeUndefined();
      expect((await handle.result()).content[0].text).toBe("ran inline");
      expect(store.size).toBe(0);
    } finally {
      await c.close();
    }
  });
});
