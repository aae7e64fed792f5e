import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import { createRouter } from "../src/server/router.js";
import type { AdaptedEra } from "../src/core/era.js";
import { createTaskStore, TASKS_EXTENSION } from "../src/extensions/tasks/server.js";
import { within } from "../../cli/test/support/wait.js";
import { LEGACY_PROTOCOL, PROTOCOL, request, VALIDATORS } from "./fixture.js";

// What a request's handler can still do once the request is over. Its notifications stop
// (basic/utilities/progress: tokens of active requests only, "MUST stop after completion"),
// and on a legacy session what it asked the client is given up, and the client told
// (basic/utilities/cancellation: either side may cancel its own request).

type Json = Record<string, any>;
const MODERN = { protocol: PROTOCOL, validators: VALIDATORS };
const LEGACY: AdaptedEra = { protocol: LEGACY_PROTOCOL, validators: VALIDATORS, adapters: {} };
// Handlers' timers and the session's request timeout run on fake timers: a test lets time
// pass (and the promises it wakes settle) with `tick`, instead of sleeping.
beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
afterEach(() => void vi.useRealTimers());
const tick = (ms = 15) => vi.advanceTimersByTimeAsync(ms);
/** A handler's own wait (on the fake clock). */
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
const withToken = (token: string | number, extra: Json = {}) => ({
  name: "x",
  _meta: { v: "2099-01-01", caps: {}, progressToken: token },
  ...extra,
});

/** A handler that sends progress 1 while serving, then 2 from a timer after it returned. */
function lateProgress(ctx: any) {
  void ctx.sendProgress(1);
  setTimeout(() => void ctx.sendProgress(2), 5);
  return { content: [] };
}

const progressOf = (sent: Json[]) =>
  sent.filter((m) => m["method"] === "notifications/progress").map((m) => m["params"]["progress"]);

describe("a handler's notifications end with its request", () => {
  it("drops progress sent after the answer (a timer firing after the handler returned)", async () => {
    const sent: Json[] = [];
    const router = createRouter(PROTOCOL, VALIDATORS, "client->server", {
      "tools/call": (_p: unknown, ctx: any) => lateProgress(ctx),
    });
    const reply = await router.handle(request("tools/call", 1, withToken("t1")), {
      notify: (n) => void sent.push(n),
    });
    expect(reply).toMatchObject({ id: 1, result: { content: [] } });
    await tick();
    expect(vi.getTimerCount()).toBe(0); // the late notification was sent, and dropped
    expect(progressOf(sent)).toEqual([1]);
  });

  it("drops them after an error answer and after a cancellation too", async () => {
    const sent: Json[] = [];
    let release!: () => void;
    const router = createRouter(PROTOCOL, VALIDATORS, "client->server", {
      "tools/list": (_p: unknown, ctx: any) => {
        setTimeout(
          () =>
            void ctx.notify({
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: "l", progress: 9 },
            }),
          5,
        );
        throw new Error("failed");
      },
      "tools/call": async (_p: unknown, ctx: any) => {
        await ctx.sendProgress(1);
        await new Promise<void>((r) => (release = r));
        // Still running after the client cancelled: nothing more reaches it.
        await ctx.sendProgress(2);
        return { content: [] };
      },
    });
    const channel = {};
    const notify = (n: object) => void sent.push(n);
    expect(await router.handle(request("tools/list", 2), { notify, channel })).toMatchObject({
      error: { code: -32603 },
    });
    const pending = router.handle(request("tools/call", 3, withToken("c")), { notify, channel });
    await tick(1);
    await router.handle(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } },
      { notify, channel },
    );
    release();
    expect(await pending).toBeUndefined();
    await tick();
    expect(vi.getTimerCount()).toBe(0); // the late notification was sent, and dropped
    expect(progressOf(sent)).toEqual([1]);
  });

  it("holds on a legacy session, where the handler gets a modern context", async () => {
    const sent: Json[] = [];
    const dispatcher = createEraDispatcher(
      { modern: MODERN, legacy: [LEGACY] },
      { "tools/call": (_p: unknown, ctx: any) => lateProgress(ctx) },
    );
    const channel = {};
    const notify = (n: object) => void sent.push(n);
    await dispatcher.handle(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2098-01-01", capabilities: {} },
      },
      { channel, notify },
    );
    const call = {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "x", _meta: { progressToken: 7 } },
    };
    expect(await dispatcher.handle(call, { channel, notify })).toMatchObject({
      id: 5,
      result: { content: [] },
    });
    await tick();
    expect(vi.getTimerCount()).toBe(0);
    expect(sent.filter((m) => m["method"] === "notifications/progress")).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 7, progress: 1 },
      },
    ]);
  });

  it("holds for a task's work after its CreateTaskResult (the Tasks extension has no progress on tasks), not for work run in the request", async () => {
    const store = createTaskStore();
    let finished!: () => void;
    const nextRun = () => new Promise<void>((r) => (finished = r));
    const router = createRouter(
      PROTOCOL,
      VALIDATORS,
      "client->server",
      {
        "tools/call": (_p: unknown, ctx: any) =>
          store.run(ctx, async () => {
            await later(1);
            await ctx.sendProgress(1);
            await later(1);
            await ctx.sendProgress(2);
            finished();
            return { content: [] };
          }),
      },
      { extensions: [store] },
    );
    const sent: Json[] = [];
    const notify = (n: object) => void sent.push(n);
    // Without the extension the work runs inside the request: its progress goes out.
    let done = nextRun();
    const handled = router.handle(request("tools/call", 1, withToken("sync")), { notify });
    await tick(2);
    await handled;
    await done;
    expect(progressOf(sent)).toEqual([1, 2]);
    sent.length = 0;
    done = nextRun();
    const asTask = {
      name: "x",
      _meta: {
        v: "2099-01-01",
        caps: { extensions: { [TASKS_EXTENSION]: {} } },
        progressToken: "task",
      },
    };
    expect(await router.handle(request("tools/call", 2, asTask), { notify })).toMatchObject({
      result: { resultType: "task" },
    });
    await tick(2);
    await done;
    expect(sent).toEqual([]);
  });
});

/** A legacy session whose tool asks the client for a name (elicitation/create). */
function askingSession(options: { clientRequestTimeoutMs?: number } = {}) {
  const errors: unknown[] = [];
  const dispatcher = createEraDispatcher(
    { modern: MODERN, legacy: [LEGACY] },
    {
      "tools/call": (_p: unknown, ctx: any) =>
        ctx.inputResponse("who", "elicitation/create")
          ? { content: [{ type: "text", text: "thanks" }] }
          : inputRequired(PROTOCOL, ctx, {
              inputRequests: {
                who: { method: "elicitation/create", params: { message: "Name?" } },
              },
            }),
    },
    { ...options, onError: (e) => errors.push(e) },
  );
  const channel = {};
  const sent: Json[] = [];
  let onAsk!: (request: Json) => void;
  const askedOnce = new Promise<Json>((resolve) => (onAsk = resolve));
  const notify = (n: Json) => {
    sent.push(n);
    if (n["method"] === "elicitation/create") onAsk(n);
  };
  const context = { channel, notify };
  const ready = dispatcher.handle(
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2098-01-01", capabilities: { elicitation: {} } },
    },
    context,
  );
  const asked = () => within(askedOnce, "the server asking the client");
  const cancellations = () =>
    sent.filter((m) => m["method"] === "notifications/cancelled").map((m) => m["params"]);
  return { dispatcher, channel, sent, errors, context, ready, asked, cancellations };
}

describe("a legacy session gives up what it asked the client when the request that asked ends", () => {
  it("on the client's notifications/cancelled: the server's request is failed and cancelled too, a late answer ignored", async () => {
    const s = askingSession();
    await s.ready;
    const call = s.dispatcher.handle(
      { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "x" } },
      s.context,
    );
    const asked = await s.asked();
    await s.dispatcher.handle(
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 9, reason: "user" },
      },
      s.context,
    );
    expect(await call).toBeUndefined();
    expect(s.cancellations()).toEqual([
      { requestId: asked["id"], reason: "the request that asked was cancelled" },
    ]);
    // An answer that crossed the cancellation is ignored (basic/utilities/cancellation), not
    // reported as an answer to an unknown request.
    await s.dispatcher.handle(
      { jsonrpc: "2.0", id: asked["id"], result: { action: "decline" } },
      s.context,
    );
    await s.dispatcher.handle({ jsonrpc: "2.0", id: "never-asked", result: {} }, s.context);
    expect(s.errors.map(String)).toEqual(['Error: a response with unknown id "never-asked"']);
  });

  it("when the session ends (DELETE, eviction, stdio input closed): failed at once and cancelled", async () => {
    const s = askingSession();
    await s.ready;
    const call = s.dispatcher.handle(
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "x" } },
      s.context,
    );
    const asked = await s.asked();
    const started = Date.now();
    s.dispatcher.endSession(s.channel);
    expect(await call).toMatchObject({
      id: 4,
      error: { code: -32603, message: "the session ended" },
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(s.cancellations()).toEqual([{ requestId: asked["id"], reason: "the session ended" }]);
  });

  it("when the client does not answer in time: the server's request is cancelled", async () => {
    const s = askingSession({ clientRequestTimeoutMs: 30 });
    await s.ready;
    let settled = false;
    const call = s.dispatcher.handle(
      { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "x" } },
      s.context,
    );
    void call.finally(() => (settled = true));
    await s.asked();
    await tick(29);
    expect(settled).toBe(false);
    await tick(1);
    expect(settled).toBe(true);
    expect(await call).toMatchObject({
      id: 6,
      error: { code: -32603, message: "the client did not answer elicitation/create in time" },
    });
    const asked = s.sent.find((m) => m["method"] === "elicitation/create")!;
    expect(s.cancellations()).toEqual([{ requestId: asked["id"], reason: "timed out" }]);
  });

  it("asks nothing for a request cancelled before it asked", async () => {
    const s = askingSession();
    await s.ready;
    const session = s.dispatcher.session(s.channel)!;
    const controller = new AbortController();
    controller.abort("gone");
    await expect(
      session.request(
        "elicitation/create",
        {},
        (m) => void s.sent.push(m as Json),
        controller.signal,
      ),
    ).rejects.toBe("gone");
    expect(s.sent.filter((m) => m["method"] === "elicitation/create")).toEqual([]);
  });

  it("asks nothing once the session ended (a request still running when stdio input closed)", async () => {
    const s = askingSession();
    await s.ready;
    const session = s.dispatcher.session(s.channel)!;
    s.dispatcher.endSession(s.channel);
    await expect(
      session.request("elicitation/create", {}, (m) => void s.sent.push(m as Json)),
    ).rejects.toThrow("the session ended");
    expect(s.sent.filter((m) => m["method"] === "elicitation/create")).toEqual([]);
  });

  it("answers as before when the client answers", async () => {
    const s = askingSession();
    await s.ready;
    const call = s.dispatcher.handle(
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "x" } },
      s.context,
    );
    const asked = await s.asked();
    await s.dispatcher.handle(
      { jsonrpc: "2.0", id: asked["id"], result: { action: "accept", content: {} } },
      s.context,
    );
    expect(await call).toMatchObject({ id: 8, result: { content: [{ text: "thanks" }] } });
    expect(s.cancellations()).toEqual([]);
  });
});
