// Tasks on the client, modern era: the generated dual-era client against mcp-gen's own server
// with createTaskStore (the Tasks extension, io.modelcontextprotocol/tasks), in process, on
// fake timers: callTool awaiting a task's result, callToolTask's handle (statuses, result,
// cancel), mid-task input through tasks/update, the polling bounds, the timeout and abort.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { importDualEraClient } from "./support/dual-era-client.js";

type Any = any;
const EXT = "io.modelcontextprotocol/tasks";

let client: Any;
let dispatcher: Any;

beforeAll(async () => {
  [client, dispatcher] = await importDualEraClient(["client.js", "dispatcher.js"]);
});

/** A promise and its resolver: the test decides when a task's work goes on. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

const text = (t: string) => ({ type: "text", text: t });

/** mcp-gen's server: `work` runs tools/call through the task store; every message recorded. */
function setup(
  work: (task: Any, args: Any) => unknown,
  storeOptions: Any = {},
  clientOptions: Any = {},
) {
  const store = dispatcher.createTaskStore({ pollIntervalMs: 200, ...storeOptions });
  const tasks: Any[] = [];
  const d = dispatcher.createServerDispatcher(
    {
      "tools/call": (params: Any, ctx: Any) =>
        store.run(
          ctx,
          (task: Any) => (tasks.push(task), work(task, params.arguments ?? {})),
          params.name === "needs-task" ? { required: true } : {},
        ),
    },
    { extensions: [store] },
  );
  const sent: Any[] = [];
  const inner = client.createDirectTransport(d.handle);
  const transport = {
    request: (message: Any, options: Any) => (sent.push(message), inner.request(message, options)),
    notify: (message: Any) => inner.notify(message),
  };
  const c = client.createClient({
    transport,
    clientInfo: { name: "tasks-test", version: "1.0.0" },
    ...clientOptions,
  });
  const methods = () => sent.map((m) => m.method);
  return { c, sent, methods, tasks, store };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the Tasks extension (2026-07-28) against createTaskStore", () => {
  it("declares the extension, and callTool polls a task to the tool's result", async () => {
    const go = gate();
    const { c, sent, methods } = setup(async () => {
      await go.opened;
      return { content: [text("done")] };
    });
    const pending = c.callTool({ name: "slow", arguments: {} });
    await vi.advanceTimersByTimeAsync(0);
    const call = sent.find((m) => m.method === "tools/call");
    expect(call.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions).toEqual({
      [EXT]: {},
    });
    // The server's pollIntervalMs (200): two polls in 400 ms, none before.
    await vi.advanceTimersByTimeAsync(199);
    expect(methods().filter((m) => m === "tasks/get")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(201);
    expect(methods().filter((m) => m === "tasks/get")).toHaveLength(2);
    go.open();
    await vi.advanceTimersByTimeAsync(200);
    const result = await pending;
    expect(result).toEqual({ resultType: "complete", content: [text("done")] });
    // Each task request declares the extension too (servers answer -32021 otherwise).
    const get = sent.find((m) => m.method === "tasks/get");
    expect(get.params.taskId).toEqual(expect.any(String));
    expect(get.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions).toEqual({
      [EXT]: {},
    });
  });

  it("gives a handle: statuses from creation to completion, input answered with tasks/update", async () => {
    const asked = vi.fn(async (params: Any) => ({
      action: "accept",
      content: { ok: params.message === "Go on?" },
    }));
    const { c, sent } = setup(
      async (task: Any) => {
        task.setStatusMessage("asking");
        const { ok } = await task.input({
          ok: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Go on?",
              requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
            },
          },
        });
        return { content: [text(`ok: ${JSON.stringify(ok.content)}`)] };
      },
      {},
      { inputHandlers: { "elicitation/create": asked } },
    );
    const handle = await c.callToolTask({ name: "ask", arguments: {} });
    expect(handle.taskId).toEqual(expect.any(String));
    expect(handle.latest).toMatchObject({ status: "working", ttlMs: 3_600_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    const result = await handle.result();
    expect(result.content).toEqual([text('ok: {"ok":true}')]);
    // Asked once, though polls may show the same key again before the answer is taken.
    expect(asked).toHaveBeenCalledOnce();
    const update = sent.find((m) => m.method === "tasks/update");
    expect(update.params).toMatchObject({
      taskId: handle.taskId,
      inputResponses: { ok: { action: "accept", content: { ok: true } } },
    });
    const statuses: Any[] = [];
    for await (const s of handle) statuses.push([s.status, s.statusMessage]);
    expect(statuses.map(([s]) => s)).toEqual(["working", "input_required", "completed"]);
    expect(statuses[1][1]).toBe("asking");
    // Each iteration replays from the first status.
    const again: string[] = [];
    for await (const s of handle) again.push(s.status);
    expect(again).toEqual(["working", "input_required", "completed"]);
  });

  it("keeps the server's interval within the client's bounds", async () => {
    const go = gate();
    const fast = setup(() => go.opened.then(() => ({ content: [] })), { pollIntervalMs: 1 });
    const slow = setup(() => go.opened.then(() => ({ content: [] })), {
      pollIntervalMs: 3_600_000,
    });
    const custom = setup(
      () => go.opened.then(() => ({ content: [] })),
      { pollIntervalMs: 1 },
      { tasks: { minPollIntervalMs: 500, maxPollIntervalMs: 600 } },
    );
    const pending = [fast, slow, custom].map((s) => s.c.callTool({ name: "t", arguments: {} }));
    await vi.advanceTimersByTimeAsync(1_000);
    const polls = (s: Any) => s.methods().filter((m: string) => m === "tasks/get").length;
    expect(polls(fast)).toBe(10); // the floor, 100 ms, not the server's 1 ms
    expect(polls(custom)).toBe(2);
    expect(polls(slow)).toBe(0);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(polls(slow)).toBe(1); // the ceiling, 30 s, not the server's hour
    go.open();
    await vi.advanceTimersByTimeAsync(30_000);
    await Promise.all(pending);
  });

  it("cancels the task when the call times out or is aborted", async () => {
    const { c, tasks, methods } = setup((task: Any) => new Promise(() => task));
    const timedOut = c.callTool({ name: "t", arguments: {} }, { taskTimeoutMs: 1_000 });
    const caught = timedOut.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await caught;
    expect(error).toBeInstanceOf(client.TaskTimeoutError);
    expect(error.timeoutMs).toBe(1_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(methods()).toContain("tasks/cancel");
    expect(tasks[0].signal.aborted).toBe(true);

    const controller = new AbortController();
    const aborted = c.callTool({ name: "t", arguments: {} }, { signal: controller.signal });
    const abortCaught = aborted.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(300);
    controller.abort(new Error("the user left"));
    expect(await abortCaught).toMatchObject({ message: "the user left" });
    await vi.advanceTimersByTimeAsync(0);
    expect(tasks[1].signal.aborted).toBe(true);
    // Nothing polls after the end.
    const count = methods().length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(methods()).toHaveLength(count);
  });

  it("cancel() ends the handle: TaskCancelledError, no more polls", async () => {
    const { c, tasks, methods } = setup((task: Any) => new Promise(() => task));
    const handle = await c.callToolTask({ name: "t", arguments: {} });
    await vi.advanceTimersByTimeAsync(200);
    await handle.cancel();
    expect(tasks[0].signal.aborted).toBe(true);
    await expect(handle.result()).rejects.toBeInstanceOf(client.TaskCancelledError);
    const seen: string[] = [];
    for await (const s of handle) seen.push(s.status);
    expect(seen).toEqual(["working"]);
    const count = methods().length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(methods()).toHaveLength(count);
  });

  it("a failed task rejects with its JSON-RPC error; an answer given at once is a handle without a task", async () => {
    const failing = setup(() => {
      throw new dispatcher.McpError(-32603, "the job crashed");
    });
    const pending = failing.c.callTool({ name: "t", arguments: {} }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(200);
    expect(await pending).toMatchObject({ code: -32603, message: "the job crashed" });

    // Without the extension declared the store runs the work as the request's handler...
    const plain = setup(() => ({ content: [text("at once")] }), {}, { tasks: false });
    const handle = await plain.c.callToolTask({ name: "t", arguments: {} });
    expect(handle.taskId).toBeUndefined();
    expect((await handle.result()).content).toEqual([text("at once")]);
    const none: unknown[] = [];
    for await (const s of handle) none.push(s);
    expect(none).toEqual([]);
    const call = plain.sent.find((m: Any) => m.method === "tools/call");
    expect(call.params._meta["io.modelcontextprotocol/clientCapabilities"]).not.toHaveProperty(
      "extensions",
    );
    // ...and one that needs a task is refused with -32021 naming the extension.
    await expect(plain.c.callTool({ name: "needs-task", arguments: {} })).rejects.toMatchObject({
      code: -32021,
    });
  });

  it("refuses bad task options before sending anything", async () => {
    const { c, sent } = setup(() => ({ content: [] }));
    await expect(c.callTool({ name: "t" }, { taskTimeoutMs: 0 })).rejects.toThrow(/taskTimeoutMs/);
    expect(sent).toEqual([]);
    expect(() =>
      client.createClient({
        transport: client.createDirectTransport(async () => ({})),
        tasks: { minPollIntervalMs: 500, maxPollIntervalMs: 100 },
      }),
    ).toThrow(/maxPollIntervalMs/);
  });
});
