import { afterEach, describe, expect, it, vi } from "vitest";
import { createRouter, notImplemented, servedHandlers } from "../src/server/router.js";
import { PROTOCOL, request, VALIDATORS } from "./fixture.js";

afterEach(() => void vi.useRealTimers());

const server = (handlers: Record<string, (params: any, ctx: any) => unknown>) =>
  createRouter(PROTOCOL, VALIDATORS, "client->server", handlers);

describe("runtime router", () => {
  it("answers -32601 for methods named like Object.prototype members, without calling anything", async () => {
    const errors: unknown[] = [];
    const router = createRouter(
      PROTOCOL,
      VALIDATORS,
      "client->server",
      {},
      { onError: (e) => errors.push(e) },
    );
    for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      expect(await router.handle(request(method))).toMatchObject({
        id: 1,
        error: { code: -32601 },
      });
    }
    expect(errors).toEqual([]);
  });

  it("serves a skeleton's placeholders as absent, whichever copy of the runtime made them", async () => {
    const otherCopy = Object.assign(() => undefined, {
      [Symbol.for("mcp-gen.notImplemented")]: true,
    });
    const real = () => ({ content: [] });
    const handlers = JSON.parse('{"__proto__": 1}') as Record<string, unknown>;
    Object.assign(handlers, { "tools/call": real, "tools/list": notImplemented, ping: otherCopy });
    const served = servedHandlers(handlers as never);
    expect(Object.keys(served).sort()).toEqual(["__proto__", "tools/call"]);
    expect(Object.getPrototypeOf(served)).toBe(Object.prototype);
    const plain = { "tools/call": real };
    expect(servedHandlers(plain)).toBe(plain);
    const router = server({ "tools/list": notImplemented, "tools/call": real });
    expect(await router.handle(request("tools/list"))).toMatchObject({ error: { code: -32601 } });
    expect(await router.handle(request("tools/call", 1, { name: "x" }))).toMatchObject({
      result: { content: [] },
    });
  });

  it("answers ping by itself and lets a handler override it", async () => {
    expect(await server({}).handle(request("ping"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "complete" },
    });
    expect(
      await server({ ping: () => ({ _meta: { x: 1 } }) }).handle(request("ping")),
    ).toMatchObject({ result: { _meta: { x: 1 } } });
  });

  it("refuses an unsupported protocol version with the supported list", async () => {
    const reply = await server({}).handle({
      ...request("ping"),
      params: { _meta: { v: "1999-01-01" } },
    });
    expect(reply).toMatchObject({
      error: { code: -32022, data: { supported: ["2099-01-01"], requested: "1999-01-01" } },
    });
  });

  it("refuses an unsupported protocol version with invalid params where the revision has no code for it", async () => {
    const draft = {
      ...PROTOCOL,
      errorCodes: { ...PROTOCOL.errorCodes, unsupportedProtocolVersion: null },
      features: { ...PROTOCOL.features, perRequestVersion: false, toolHeaders: false },
    };
    const router = createRouter(draft, VALIDATORS, "client->server", {});
    const reply = await router.handle({
      ...request("ping"),
      params: { _meta: { v: "1999-01-01" } },
    });
    expect(reply).toMatchObject({
      error: { code: -32602, data: { supported: ["2099-01-01"], requested: "1999-01-01" } },
    });
    expect(await router.handle(request("ping"))).toMatchObject({ result: {} });
  });

  it("cancels a request only from the channel that sent it", async () => {
    // The handler finishes on its own after 300 ms of fake time, unless cancelled first.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let started!: () => void;
    let running = new Promise<void>((resolve) => (started = resolve));
    const router = server({
      "tools/call": (_p, ctx) =>
        new Promise((resolve) => {
          started();
          ctx.signal.addEventListener("abort", () => resolve({ content: [] }));
          setTimeout(() => resolve({ content: [{ type: "text", text: "finished" }] }), 300);
        }),
    });
    const mine = {};
    const reply = router.handle(request("tools/call", 1, { name: "slow" }), { channel: mine });
    await running;
    // Another channel (another HTTP POST) names the same id: nothing happens.
    await router.handle(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      { channel: {} },
    );
    await vi.advanceTimersByTimeAsync(300);
    expect(await reply).toMatchObject({ result: { content: [{ text: "finished" }] } });

    running = new Promise<void>((resolve) => (started = resolve));
    const again = router.handle(request("tools/call", 2, { name: "slow" }), { channel: mine });
    await running;
    await router.handle(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } },
      { channel: mine },
    );
    // A cancelled request gets no response, then or when its handler would have finished.
    await vi.advanceTimersByTimeAsync(300);
    expect(await again).toBeUndefined();
  });

  it("never answers notifications and answers batches as invalid where the revision has none", async () => {
    expect(
      await server({}).handle({ jsonrpc: "2.0", method: "notifications/progress", params: {} }),
    ).toBeUndefined();
    expect(await server({}).handle([request("ping")])).toMatchObject({ error: { code: -32600 } });
  });

  it("refuses input_required from a method that may not ask, and fills resultType", async () => {
    const errors: unknown[] = [];
    const router = createRouter(
      PROTOCOL,
      VALIDATORS,
      "client->server",
      { "tools/list": () => ({ resultType: "input_required", inputRequests: {} }) },
      { onError: (e) => errors.push(e) },
    );
    expect(await router.handle(request("tools/list"))).toMatchObject({
      error: { code: -32603, message: "Internal error" },
    });
    expect(String(errors[0])).toMatch(/may not answer input_required/);
  });

  it("gives handlers the request's meta: version, capabilities, progress", async () => {
    const sent: unknown[] = [];
    const router = server({
      "tools/call": async (_p, ctx) => {
        await ctx.sendProgress(1, 2, "half");
        return {
          content: [],
          seen: [ctx.protocolVersion, ctx.clientCapabilities, ctx.progressToken],
        };
      },
    });
    const message = request("tools/call", 7, {
      name: "t",
      _meta: { v: "2099-01-01", caps: { elicitation: {} }, progressToken: "p" },
    });
    const reply = await router.handle(message, { notify: (n) => void sent.push(n) });
    expect(reply).toMatchObject({ result: { seen: ["2099-01-01", { elicitation: {} }, "p"] } });
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p", progress: 1, total: 2, message: "half" },
      },
    ]);
  });
});
