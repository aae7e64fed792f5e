import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { EXTENSION_RESULT } from "../src/server/extensions.js";
import { routingHeaders } from "../src/transport/http/headers.js";
import { serveHttp } from "../src/transport/http/server/server.js";
import { McpError } from "../src/core/errors.js";
import type { MessageValidators, ProtocolDescriptor } from "../src/core/protocol.js";
import { createRouter } from "../src/server/router.js";
import {
  createTaskStore,
  TASKS_EXTENSION,
  type TaskControl,
  type TaskStoreOptions,
} from "../src/extensions/tasks/server.js";
import { LEGACY_PROTOCOL, PROTOCOL, request, VALIDATORS } from "./fixture.js";

// The tasks extension (ext-tasks specification/draft/tasks.md) through the router, as a
// client sees it: tools/call answered with a task handle, tasks/get, tasks/update, tasks/cancel.

// A task's work runs on after its request, on promises. The tests poll tasks/get as a client
// would, with fake time passing between polls (and the work's promises settling), not sleeps.
beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
afterEach(() => void vi.useRealTimers());
const pause = (ms: number) => vi.advanceTimersByTimeAsync(ms);

const WITH_TASKS = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
const meta = (caps: object) => ({ _meta: { v: "2099-01-01", caps } });
const DISCOVER: ProtocolDescriptor = {
  ...PROTOCOL,
  methods: {
    ...PROTOCOL.methods,
    "server/discover": {
      kind: "request",
      directions: ["client->server"],
      inputRequired: false,
      capabilities: {},
    },
  },
  wellKnown: { ...PROTOCOL.wellKnown, discover: "server/discover" },
};
// An elicitation answer must say accept, decline or cancel (the input result check).
const STRICT: MessageValidators = {
  ...VALIDATORS,
  validateInputResult: (_method, value) =>
    typeof value === "object" &&
    value !== null &&
    ["accept", "decline", "cancel"].includes((value as { action?: unknown }).action as string)
      ? { ok: true, value }
      : { ok: false, errors: [{ path: "/action", message: "expected accept, decline or cancel" }] },
};

type Work = (task: TaskControl, args: Record<string, unknown>) => unknown;

/** A server whose tool `name` runs `tools[name]` through the task store. */
function setup(
  tools: Record<string, Work>,
  options: TaskStoreOptions & { required?: boolean } = {},
) {
  const store = createTaskStore(options);
  const errors: unknown[] = [];
  const router = createRouter(
    DISCOVER,
    STRICT,
    "client->server",
    {
      "tools/call": (params: any, ctx: any) =>
        store.run(
          ctx,
          (task) => tools[params.name]!(task, params.arguments ?? {}) as object,
          options.required ? { required: true } : {},
        ),
    },
    { extensions: [store], onError: (e) => errors.push(e) },
  );
  let id = 0;
  const call = async (
    method: string,
    params: Record<string, unknown>,
    opts: { caps?: object; principal?: string } = {},
  ) =>
    (await router.handle(
      { ...request(method, ++id, { ...meta(opts.caps ?? WITH_TASKS), ...params }) },
      opts.principal ? { principal: opts.principal } : {},
    )) as any;
  const get = async (taskId: string, principal?: string) =>
    (await call("tasks/get", { taskId }, principal ? { principal } : {})).result;
  const settled = async (taskId: string, status?: string) => {
    for (let i = 0; i < 200; i++) {
      const task = await get(taskId);
      if (task.status === status || ["completed", "failed", "cancelled"].includes(task.status))
        return task;
      await pause(5);
    }
    throw new Error(`task ${taskId} did not settle`);
  };
  return { store, router, errors, call, get, settled };
}

const text = (t: string) => ({ content: [{ type: "text", text: t }] });

describe("runtime tasks extension", () => {
  it("advertises the extension beside the given capabilities", async () => {
    const store = createTaskStore();
    const router = createRouter(
      DISCOVER,
      VALIDATORS,
      "client->server",
      {},
      { extensions: [store], capabilities: { tools: {}, extensions: { "x/y": { a: 1 } } } },
    );
    const reply = (await router.handle(request("server/discover"))) as any;
    expect(reply.result.capabilities).toEqual({
      tools: {},
      logging: {},
      extensions: { "x/y": { a: 1 }, [TASKS_EXTENSION]: {} },
    });
  });

  it("answers a declaring request with a flat CreateTaskResult that tasks/get finds at once, then the inlined result", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = setup({ slow: async () => (await gate, text("done")) });
    const created = (await s.call("tools/call", { name: "slow" })).result;
    expect(created).toMatchObject({
      resultType: "task",
      status: "working",
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
    });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(created).sort()).toEqual([
      "createdAt",
      "lastUpdatedAt",
      "pollIntervalMs",
      "resultType",
      "status",
      "taskId",
      "ttlMs",
    ]);
    expect(await s.get(created.taskId)).toMatchObject({
      resultType: "complete",
      taskId: created.taskId,
      status: "working",
    });
    release();
    const done = await s.settled(created.taskId);
    expect(done).toMatchObject({
      status: "completed",
      resultType: "complete",
      result: { resultType: "complete", content: [{ text: "done" }] },
    });
    expect(done).not.toHaveProperty("error");
    expect(Object.getOwnPropertySymbols(created)).toEqual([]); // the extension's mark is not sent
  });

  it("runs synchronously for a request without the extension, or refuses with -32021 when the work needs a task", async () => {
    const s = setup({ quick: () => text("sync") });
    expect((await s.call("tools/call", { name: "quick" }, { caps: {} })).result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "sync" }],
    });
    expect(s.store.size).toBe(0);
    const required = setup({ quick: () => text("sync") }, { required: true });
    const refused = await required.call("tools/call", { name: "quick" }, { caps: {} });
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });

  it("refuses tasks/get, tasks/update and tasks/cancel from a request without the extension", async () => {
    const s = setup({});
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const reply = await s.call(method, { taskId: "x", inputResponses: {} }, { caps: {} });
      expect(reply.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      });
    }
    expect((await s.call("tasks/list", {})).error.code).toBe(-32601);
    expect((await s.call("tasks/get", { taskId: "nope" })).error).toMatchObject({
      code: -32602,
      message: "Failed to retrieve task: Task not found",
    });
    expect((await s.call("tasks/get", {})).error.code).toBe(-32602);
  });

  it("keeps tool errors as completed, JSON-RPC errors as failed (with statusMessage), and reports other throws generically", async () => {
    const s = setup({
      toolError: () => ({ isError: true, ...text("bad input") }),
      rpcError: () => {
        throw new McpError(-32000, "rate limited", { retryAfter: 5 });
      },
      crash: () => {
        throw new Error("secret detail");
      },
      invalid: () => ({ content: "not an array" }),
    });
    const start = async (name: string) => (await s.call("tools/call", { name })).result.taskId;
    expect(await s.settled(await start("toolError"))).toMatchObject({
      status: "completed",
      result: { isError: true },
    });
    const failed = await s.settled(await start("rpcError"));
    expect(failed).toMatchObject({
      status: "failed",
      statusMessage: "rate limited",
      error: { code: -32000, message: "rate limited", data: { retryAfter: 5 } },
    });
    expect(failed).not.toHaveProperty("result");
    expect(await s.settled(await start("crash"))).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "Internal error" },
    });
    expect(s.errors).toHaveLength(1);
    expect(String(s.errors[0])).toContain("secret detail");
  });

  it("fails a task whose thrown value or result cannot be read, leaving no rejection unhandled", async () => {
    const revoked = Proxy.revocable(new McpError(-32000, "gone"), {});
    revoked.revoke();
    const unreadable = { content: [] as unknown[] };
    Object.defineProperty(unreadable, "resultType", {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    });
    const s = setup({ proxy: () => Promise.reject(revoked.proxy), getter: () => unreadable });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      for (const name of ["proxy", "getter"]) {
        const { taskId } = (await s.call("tools/call", { name })).result;
        expect(await s.settled(taskId)).toMatchObject({
          status: "failed",
          error: { code: -32603, message: "Internal error" },
        });
      }
      await pause(10);
      expect(unhandled).toEqual([]);
      expect(s.errors).toHaveLength(2);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("checks a finished task's result as the method's result before anyone sees it", async () => {
    const store = createTaskStore();
    const errors: unknown[] = [];
    const strictResults: MessageValidators = {
      ...VALIDATORS,
      validateMethodResult: (_m, v: any) =>
        Array.isArray(v.content)
          ? { ok: true, value: v }
          : { ok: false, errors: [{ path: "/content", message: "expected array" }] },
    };
    const router = createRouter(
      PROTOCOL,
      strictResults,
      "client->server",
      { "tools/call": (_p: any, ctx: any) => store.run(ctx, () => ({ content: "nope" })) },
      { extensions: [store], onError: (e) => errors.push(e) },
    );
    const created = ((await router.handle(request("tools/call", 1, meta(WITH_TASKS)))) as any)
      .result;
    await pause(10);
    const task = (
      (await router.handle(
        request("tasks/get", 2, { ...meta(WITH_TASKS), taskId: created.taskId }),
      )) as any
    ).result;
    expect(task).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect(errors).toHaveLength(1);
  });

  it("surfaces mid-task input, accepts partial answers, ignores unknown keys and refuses invalid answers", async () => {
    const s = setup({
      ask: async (task) => {
        const answers = await task.input({
          a: { method: "elicitation/create", params: { message: "A?" } },
          b: { method: "elicitation/create", params: { message: "B?" } },
        });
        return text(`${(answers.a as any).content.v}+${(answers.b as any).content.v}`);
      },
    });
    const { taskId } = (await s.call("tools/call", { name: "ask" })).result;
    const waiting = await s.settled(taskId, "input_required");
    expect(Object.keys(waiting.inputRequests).sort()).toEqual(["a", "b"]);
    expect(waiting.inputRequests.a).toEqual({
      method: "elicitation/create",
      params: { message: "A?" },
    });
    const update = (inputResponses: object) => s.call("tasks/update", { taskId, inputResponses });
    expect((await update({ b: { nonsense: true } })).error).toMatchObject({
      code: -32602,
      data: { errors: [{ path: "/params/inputResponses/b/action" }] },
    });
    expect(
      (await update({ a: { action: "accept", content: { v: 1 } }, ghost: { whatever: 1 } })).result,
    ).toEqual({ resultType: "complete" });
    const partial = await s.get(taskId);
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests)).toEqual(["b"]);
    await update({ b: { action: "accept", content: { v: 2 } } });
    expect(await s.settled(taskId)).toMatchObject({
      status: "completed",
      result: { content: [{ text: "1+2" }] },
    });
  });

  it("refuses reused input keys and input the creating request's capabilities do not declare", async () => {
    const s = setup({
      twice: async (task) => {
        const first = task.input({ k: { method: "elicitation/create", params: {} } });
        expect(() => task.input({ k: { method: "elicitation/create", params: {} } })).toThrow(
          /used already/,
        );
        await first;
        return text("ok");
      },
      undeclared: async (task) => (
        await task.input({ k: { method: "elicitation/create", params: {} } }),
        text("never")
      ),
    });
    const { taskId } = (await s.call("tools/call", { name: "twice" })).result;
    await s.settled(taskId, "input_required");
    await s.call("tasks/update", { taskId, inputResponses: { k: { action: "decline" } } });
    expect((await s.settled(taskId)).status).toBe("completed");
    const other = (
      await s.call(
        "tools/call",
        { name: "undeclared" },
        { caps: { extensions: { [TASKS_EXTENSION]: {} } } },
      )
    ).result.taskId;
    expect(await s.settled(other)).toMatchObject({
      status: "failed",
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
  });

  it("cancels at once, aborting the work, and acknowledges cancelling a finished task", async () => {
    let signal: AbortSignal | undefined;
    const s = setup({
      forever: (task) => ((signal = task.signal), new Promise(() => undefined)),
      quick: () => text("done"),
    });
    const { taskId } = (await s.call("tools/call", { name: "forever" })).result;
    expect((await s.call("tasks/cancel", { taskId })).result).toEqual({ resultType: "complete" });
    expect(signal?.aborted).toBe(true);
    expect(await s.get(taskId)).toMatchObject({ status: "cancelled" });
    const quick = (await s.call("tools/call", { name: "quick" })).result.taskId;
    await s.settled(quick);
    expect((await s.call("tasks/cancel", { taskId: quick })).result).toEqual({
      resultType: "complete",
    });
    expect((await s.get(quick)).status).toBe("completed");
    expect((await s.call("tasks/cancel", { taskId: "unknown" })).error.code).toBe(-32602);
  });

  it("keeps each principal's tasks invisible to others", async () => {
    const s = setup({ forever: () => new Promise(() => undefined) });
    const { taskId } = (await s.call("tools/call", { name: "forever" }, { principal: "alice" }))
      .result;
    expect((await s.get(taskId, "alice")).status).toBe("working");
    for (const method of ["tasks/get", "tasks/cancel"]) {
      expect((await s.call(method, { taskId }, { principal: "mallory" })).error).toMatchObject({
        code: -32602,
        message: "Failed to retrieve task: Task not found",
      });
    }
    expect((await s.call("tasks/get", { taskId })).error.code).toBe(-32602); // no principal is not alice either
    expect((await s.get(taskId, "alice")).status).toBe("working");
  });

  it("drops a task after its TTL, aborting its work", async () => {
    let clock = 1_000_000;
    let signal: AbortSignal | undefined;
    const s = setup(
      { forever: (task) => ((signal = task.signal), new Promise(() => undefined)) },
      { ttlMs: 5_000, now: () => clock },
    );
    const { taskId, ttlMs } = (await s.call("tools/call", { name: "forever" })).result;
    expect(ttlMs).toBe(5_000);
    clock += 4_999;
    expect((await s.get(taskId)).status).toBe("working");
    clock += 1;
    expect((await s.call("tasks/get", { taskId })).error.code).toBe(-32602);
    expect(signal?.aborted).toBe(true);
    expect(s.store.size).toBe(0);
  });

  it("bounds the tasks a principal keeps: the oldest finished goes first, unfinished ones are never dropped", async () => {
    const s = setup(
      { forever: () => new Promise(() => undefined), quick: () => text("q") },
      { maxTasksPerPrincipal: 2 },
    );
    const first = (await s.call("tools/call", { name: "quick" })).result.taskId;
    await s.settled(first);
    await s.call("tools/call", { name: "forever" });
    await s.call("tools/call", { name: "forever" });
    expect((await s.call("tasks/get", { taskId: first })).error.code).toBe(-32602);
    expect((await s.call("tools/call", { name: "forever" })).error).toMatchObject({ code: -32603 });
    expect(
      (await s.call("tools/call", { name: "forever" }, { principal: "bob" })).result.resultType,
    ).toBe("task");
    expect(() => createTaskStore({ ttlMs: 0 })).toThrow(/positive integer/);
  });

  it("sends an extension's result only from its methods, to requests that declared it", async () => {
    const store = createTaskStore();
    const errors: unknown[] = [];
    const fake = {
      resultType: "task",
      taskId: "t",
      status: "working",
      createdAt: "x",
      lastUpdatedAt: "x",
      ttlMs: 1,
      [EXTENSION_RESULT]: TASKS_EXTENSION,
    };
    const router = createRouter(
      PROTOCOL,
      VALIDATORS,
      "client->server",
      { "tools/call": () => fake, "tools/list": () => fake },
      { extensions: [store], onError: (e) => errors.push(e) },
    );
    expect(await router.handle(request("tools/call", 1, meta(WITH_TASKS)))).toMatchObject({
      result: { resultType: "task" },
    });
    expect(await router.handle(request("tools/call", 2, meta({})))).toMatchObject({
      error: { code: -32603 },
    });
    expect(await router.handle(request("tools/list", 3, meta(WITH_TASKS)))).toMatchObject({
      error: { code: -32603 },
    });
    const foreign = createRouter(
      PROTOCOL,
      VALIDATORS,
      "client->server",
      { "tools/call": () => fake },
      { onError: (e) => errors.push(e) },
    );
    expect(await foreign.handle(request("tools/call", 4, meta(WITH_TASKS)))).toMatchObject({
      error: { code: -32603 },
    });
    expect(errors).toHaveLength(3);
    expect(() =>
      createRouter(PROTOCOL, VALIDATORS, "client->server", {}, { extensions: [store] }),
    ).toThrow(/one dispatcher/);
  });

  it("never opts a legacy session into the extension, even when it declared it at initialize", async () => {
    const store = createTaskStore();
    const eras = {
      modern: { protocol: PROTOCOL, validators: VALIDATORS },
      legacy: [{ protocol: LEGACY_PROTOCOL, validators: VALIDATORS, adapters: {} }],
    };
    const dispatcher = createEraDispatcher(
      eras,
      { "tools/call": (_p: any, ctx: any) => store.run(ctx, () => text("sync")) },
      { extensions: [store] },
    );
    const channel = {};
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2098-01-01",
        capabilities: WITH_TASKS,
        clientInfo: { name: "c", version: "1" },
      },
    };
    expect(await dispatcher.handle(init, { channel })).toMatchObject({ result: {} });
    const reply = (await dispatcher.handle(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x" } },
      { channel },
    )) as any;
    expect(reply.result).toEqual({ content: [{ type: "text", text: "sync" }] });
    expect(store.size).toBe(0);
    expect(
      (await dispatcher.handle(request("tools/call", 3, meta(WITH_TASKS)))) as any,
    ).toMatchObject({ result: { resultType: "task" } });
  });
});

describe("runtime tasks over Streamable HTTP", () => {
  let server: { url: string; close(): Promise<void> } | undefined;
  afterAll(() => server?.close());

  it("checks Mcp-Name against the taskId of tasks/get", async () => {
    const store = createTaskStore();
    const router = createRouter(
      PROTOCOL,
      VALIDATORS,
      "client->server",
      { "tools/call": (_p: any, ctx: any) => store.run(ctx, () => new Promise(() => undefined)) },
      { extensions: [store] },
    );
    server = await serveHttp(PROTOCOL, router);
    const routing = {
      ...PROTOCOL,
      http: { ...PROTOCOL.http, nameParams: { ...PROTOCOL.http.nameParams, ...router.nameParams } },
    };
    const post = (message: any, headers: Record<string, string> = {}) =>
      fetch(server!.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...routingHeaders(routing, message),
          ...headers,
        },
        body: JSON.stringify(message),
      });
    const created = await (
      await post(request("tools/call", 1, { ...meta(WITH_TASKS), name: "t" }))
    ).json();
    const get = request("tasks/get", 2, { ...meta(WITH_TASKS), taskId: created.result.taskId });
    expect(await (await post(get)).json()).toMatchObject({ result: { status: "working" } });
    const wrong = await post(get, { "Mcp-Name": "another-task" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: -32020 } });
  });
});
