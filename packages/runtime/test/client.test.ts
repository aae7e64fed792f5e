import { afterEach, describe, expect, it, vi } from "vitest";
import { createSender } from "../src/client/engine.js";
import { RequestTimeoutError } from "../src/client/errors.js";
import type { Transport } from "../src/core/transport.js";
import { PROTOCOL, VALIDATORS } from "./fixture.js";

// The engine's timeouts run on fake timers where a test waits for one: time passes when the
// test says so, not while it sleeps.
afterEach(() => void vi.useRealTimers());
const fakeTimers = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

const shape = {
  functions: { "tools/call": "callTool", "tools/list": "listTools" },
  notifications: {},
  paginated: [],
};

/** A transport that never answers and records what was sent. */
function silentTransport(sent: object[]): Transport {
  return {
    request: (message) => (sent.push(message), new Promise(() => undefined)),
    notify: async (message) => void sent.push(message),
  };
}

describe("runtime client engine", () => {
  it("refuses option values that would disable a bound", () => {
    for (const maxRounds of [NaN, 0, -1, 1.5, Infinity]) {
      expect(() =>
        createSender(PROTOCOL, VALIDATORS, shape, { transport: silentTransport([]), maxRounds }),
      ).toThrow(/maxRounds must be a positive integer/);
    }
    expect(() =>
      createSender(PROTOCOL, VALIDATORS, shape, {
        transport: silentTransport([]),
        requestTimeoutMs: NaN,
      }),
    ).toThrow(/requestTimeoutMs/);
  });

  it("times out a request the server never answers, and cancels it", async () => {
    fakeTimers();
    const sent: object[] = [];
    const client = createSender(PROTOCOL, VALIDATORS, shape, {
      transport: silentTransport(sent),
      requestTimeoutMs: 50,
    }) as any;
    const timedOut = expect(client.callTool({ name: "x" })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    await vi.advanceTimersByTimeAsync(50);
    await timedOut;
    expect(sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 1 } });
  });

  it("a per-call timeout wins, but never beyond the maximum", async () => {
    fakeTimers();
    const client = createSender(PROTOCOL, VALIDATORS, shape, {
      transport: silentTransport([]),
      requestTimeoutMs: 60_000,
      maxRequestTimeoutMs: 80,
    }) as any;
    let settled = false;
    const timedOut = expect(
      client.listTools({}, { timeoutMs: 10_000 }).finally(() => (settled = true)),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
    await vi.advanceTimersByTimeAsync(79);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    await timedOut;
  });

  it("sends the protocol _meta and keeps the caller's", async () => {
    const sent: any[] = [];
    const transport: Transport = {
      request: async (message: any) => (
        sent.push(message),
        { jsonrpc: "2.0", id: message.id, result: { tools: [] } }
      ),
      notify: async () => undefined,
    };
    const client = createSender(PROTOCOL, VALIDATORS, shape, {
      transport,
      capabilities: { roots: {} },
    }) as any;
    await client.listTools({ _meta: { mine: 1 } });
    // With tasks on (the default) the Tasks extension is declared too.
    expect(sent[0].params._meta).toEqual({
      v: "2099-01-01",
      caps: { roots: {}, extensions: { "io.modelcontextprotocol/tasks": {} } },
      mine: 1,
    });
  });

  it("sends the protocol version where the revision has its key but no unsupported-version code", async () => {
    // A draft may declare the (required) _meta key before the error code: leaving it out would get -32602.
    const draft = {
      ...PROTOCOL,
      errorCodes: { ...PROTOCOL.errorCodes, unsupportedProtocolVersion: null },
      features: { ...PROTOCOL.features, perRequestVersion: false, toolHeaders: false },
    };
    const sent: any[] = [];
    const transport: Transport = {
      request: async (message: any) => (
        sent.push(message),
        { jsonrpc: "2.0", id: message.id, result: { tools: [] } }
      ),
      notify: async () => undefined,
    };
    await (createSender(draft, VALIDATORS, shape, { transport }) as any).listTools();
    expect(sent[0].params._meta).toMatchObject({ v: "2099-01-01" });
  });

  it("progress for another request's token is not this call's: it reaches neither onProgress nor onNotification", async () => {
    // stdio has one stream: the transport hands every call the progress of all calls in flight.
    const transport: Transport = {
      request: async (message: any, options) => {
        const token = message.params._meta.progressToken;
        for (const progressToken of ["someone-else", token])
          options?.onNotification?.({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken, progress: 1 },
          });
        options?.onNotification?.({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
        return { jsonrpc: "2.0", id: message.id, result: { tools: [] } };
      },
      notify: async () => undefined,
    };
    const progress: unknown[] = [];
    const other: unknown[] = [];
    const client = createSender(PROTOCOL, VALIDATORS, shape, { transport }) as any;
    await client.listTools(
      {},
      {
        onProgress: (p: any) => progress.push(p.progressToken),
        onNotification: (n: any) => other.push(n.method),
      },
    );
    expect(progress).toHaveLength(1);
    expect(progress[0]).not.toBe("someone-else");
    expect(other).toEqual(["notifications/tools/list_changed"]);
  });

  it("a result without resultType that fails validation says the server may be initialize-based, and what to do", async () => {
    // What a 2026-07-28-only client gets from a v1 SDK server over stdio: a 2025 result, without
    // resultType and the fields only 2026-07-28 has.
    const modern = { ...PROTOCOL, resultTypeRequired: true };
    const needsTtl = {
      ...VALIDATORS,
      validateMethodResult: (_method: string, value: any) =>
        value.ttlMs === undefined
          ? {
              ok: false as const,
              errors: [{ path: "/ttlMs", message: 'required property "ttlMs" is missing' }],
            }
          : { ok: true as const, value },
    };
    const answering = (result: object): Transport => ({
      request: async (message: any) => ({ jsonrpc: "2.0", id: message.id, result }),
      notify: async () => undefined,
    });
    const client = createSender(modern, needsTtl as any, shape, {
      transport: answering({ tools: [] }),
    }) as any;
    await expect(client.listTools()).rejects.toThrow(
      'invalid tools/list result (it has no resultType: the server may speak only initialize-based revisions, which this client was generated without (list them in --revisions)): /ttlMs: required property "ttlMs" is missing',
    );
    // A result that has a resultType is a modern server's mistake: no such guess.
    const other = createSender(modern, needsTtl as any, shape, {
      transport: answering({ tools: [], resultType: "complete" }),
    }) as any;
    await expect(other.listTools()).rejects.toThrow(
      /^invalid tools\/list result: \/ttlMs: required/,
    );
  });
});

describe("runtime client engine: bounds and long-lived requests", () => {
  const listShape = {
    functions: { ...shape.functions, "subscriptions/listen": "listen" },
    notifications: {},
    paginated: ["tools/list"],
  };
  // Answers on a later turn of the event loop, so that a runaway loop still lets a test time out.
  const answering = (sent: any[], result: (message: any) => object): Transport => ({
    request: async (message: any) => {
      sent.push(message);
      await new Promise((r) => setImmediate(r));
      return { jsonrpc: "2.0", id: message.id, result: result(message) };
    },
    notify: async (message) => void sent.push(message),
  });

  it("refuses timeouts setTimeout cannot hold (above 2^31-1 ms) instead of firing them at once", async () => {
    const transport = silentTransport([]);
    for (const option of ["requestTimeoutMs", "maxRequestTimeoutMs", "probeTimeoutMs"]) {
      expect(() =>
        createSender(PROTOCOL, VALIDATORS, shape, { transport, [option]: 3_000_000_000 }),
      ).toThrow(new RegExp(`${option} must be at most 2147483647`));
    }
    const client = createSender(PROTOCOL, VALIDATORS, shape, {
      transport,
      requestTimeoutMs: 2_147_483_647,
      maxRequestTimeoutMs: 2_147_483_647,
    }) as any;
    await expect(client.listTools({}, { timeoutMs: 3_000_000_000 })).rejects.toThrow(
      /timeoutMs must be at most 2147483647/,
    );
    // The largest value holds: the call is still waiting, a moment before it would time out,
    // when the caller gives up. (The fake timers fire a longer delay at once, as Node does.)
    fakeTimers();
    const controller = new AbortController();
    let settled = false;
    const pending = client.listTools({}, { timeoutMs: 2_147_483_647, signal: controller.signal });
    pending.catch(() => undefined).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(2_147_483_646);
    expect(settled).toBe(false);
    controller.abort(new Error("gave up"));
    await expect(pending).rejects.toThrow("gave up");
  });

  it("subscriptions/listen has no timeout unless the call names one; its signal ends it", async () => {
    fakeTimers();
    const sent: object[] = [];
    const client = createSender(PROTOCOL, VALIDATORS, listShape, {
      transport: silentTransport(sent),
      requestTimeoutMs: 20,
      maxRequestTimeoutMs: 30,
    }) as any;
    const controller = new AbortController();
    let settled = false;
    const listen = client.listen(
      { notifications: { toolsListChanged: true } },
      { signal: controller.signal },
    );
    listen.catch(() => undefined).finally(() => (settled = true));
    // An hour, where the client's own timeout (20 ms, at most 30) would have ended any other call.
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(settled).toBe(false);
    controller.abort(new Error("done listening"));
    await expect(listen).rejects.toThrow("done listening");
    // A timeout the call names still bounds it, and other methods keep the client's.
    const named = expect(
      client.listen({ notifications: {} }, { timeoutMs: 20 }),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
    const other = expect(client.listTools()).rejects.toBeInstanceOf(RequestTimeoutError);
    await vi.advanceTimersByTimeAsync(20);
    await named;
    await other;
  });

  it("manual mode sends the caller's inputResponses and requestState; the automatic mode drops them", async () => {
    const sent: any[] = [];
    const client = createSender(PROTOCOL, VALIDATORS, shape, {
      transport: answering(sent, () => ({ resultType: "complete", content: [] })),
    }) as any;
    const answer = {
      inputResponses: { who: { action: "accept", content: { name: "Ada" } } },
      requestState: "s1",
    };
    await client.callTool({ name: "x", ...answer }, { manual: true });
    expect(sent[0].params).toMatchObject({ name: "x", ...answer });
    await client.callTool({ name: "x", ...answer });
    expect(sent[1].params.inputResponses).toBeUndefined();
    expect(sent[1].params.requestState).toBeUndefined();
  });

  it("paging stops on a cursor the server already gave, and after maxPages pages", async () => {
    const repeating = createSender(PROTOCOL, VALIDATORS, listShape, {
      transport: answering([], () => ({ tools: [], nextCursor: "p2" })),
    }) as any;
    const seen: unknown[] = [];
    const drain = async (pages: AsyncIterable<unknown>) => {
      for await (const page of pages) seen.push(page);
    };
    await expect(drain(repeating.listToolsPages())).rejects.toThrow(
      /tools\/list gave nextCursor "p2" again/,
    );
    expect(seen).toHaveLength(2);
    const sent: any[] = [];
    const endless = createSender(PROTOCOL, VALIDATORS, listShape, {
      transport: answering(sent, (m) => ({ tools: [], nextCursor: `c${m.id}` })),
      maxPages: 5,
    }) as any;
    await expect(drain(endless.listToolsPages())).rejects.toMatchObject({
      name: "PageLimitError",
      method: "tools/list",
      pages: 5,
    });
    expect(sent).toHaveLength(5);
    expect(() =>
      createSender(PROTOCOL, VALIDATORS, listShape, {
        transport: silentTransport([]),
        maxPages: 0,
      }),
    ).toThrow(/maxPages/);
  });

  it("a protocol error's message names the first validation error (bounded) and counts the others", async () => {
    const errors = [
      { path: "/content", message: "expected array, found string" },
      { path: "/isError", message: "expected boolean" },
    ];
    const failing = { ...VALIDATORS, validateMethodResult: () => ({ ok: false as const, errors }) };
    const client = createSender(PROTOCOL, failing, shape, {
      transport: answering([], () => ({ content: "no" })),
    }) as any;
    await expect(client.callTool({ name: "x" })).rejects.toMatchObject({
      name: "McpProtocolError",
      message: "invalid tools/call result: /content: expected array, found string (and 1 more)",
      errors,
    });
    const long = {
      ...VALIDATORS,
      validateMethodResult: () => ({
        ok: false as const,
        errors: [{ path: "", message: "x".repeat(5_000) }],
      }),
    };
    const error = await (
      createSender(PROTOCOL, long, shape, { transport: answering([], () => ({})) }) as any
    )
      .listTools()
      .catch((e: Error) => e);
    expect(error.message.startsWith("invalid tools/list result: /: xxx")).toBe(true);
    expect(error.message.length).toBeLessThan(400);
  });

  it("aborting over a transport that closes the stream sends no notifications/cancelled (modern HTTP)", async () => {
    fakeTimers();
    for (const closesStreamOnAbort of [true, false]) {
      const sent: any[] = [];
      let requested!: () => void;
      const inFlight = new Promise<void>((resolve) => (requested = resolve));
      const silent = silentTransport(sent);
      const transport = {
        ...silent,
        request: (...args: Parameters<Transport["request"]>) => (
          requested(),
          silent.request(...args)
        ),
        closesStreamOnAbort,
      };
      const client = createSender(PROTOCOL, VALIDATORS, shape, { transport }) as any;
      const controller = new AbortController();
      const pending = client.callTool({ name: "x" }, { signal: controller.signal });
      await inFlight;
      controller.abort(new Error("stop"));
      await expect(pending).rejects.toThrow("stop");
      // Whatever the engine would still send after the abort, on a timer or a promise.
      await vi.advanceTimersByTimeAsync(1_000);
      const cancels = sent.filter((m) => m.method === "notifications/cancelled");
      expect(cancels).toEqual(
        closesStreamOnAbort
          ? []
          : [expect.objectContaining({ params: { requestId: 1, reason: "stop" } })],
      );
    }
  });
});
