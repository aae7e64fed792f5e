// The test client (@mcp-gen/runtime/testing): the generated dual-era client joined to a
// generated dispatcher in this process by connectInMemory, in each era: 2026-07-28 requests
// (input_required answered by the client's input handlers) and a 2025-11-25 session opened by
// initialize (the server's own requests answered by the same handlers), with the test
// client's progress and log callbacks, error results, and close reaching the server.
import { connectInMemory, createInMemoryTransport } from "@mcp-gen/runtime/testing";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { importDualEraClient } from "./support/dual-era-client.js";

type Any = any;

let client: Any;
let dispatcher: Any;

beforeAll(async () => {
  [client, dispatcher] = await importDualEraClient(["client.js", "dispatcher.js"]);
});

const text = (t: string) => ({ type: "text", text: t });

/** A promise and its resolver. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * A server of tools using each feature once. `hold` waits for its signal to abort (a close
 * reaching the server): `held` settles when it has started; `seen.stopped` is its signal's
 * reason once it has returned.
 */
function testServer() {
  const held = gate();
  const seen: { stopped?: unknown } = {};
  const versions: string[] = [];
  const { defineServer, defineTools, inputRequired, McpError } = dispatcher;
  const tool = (name: string, call: Any) => ({
    tool: { name, inputSchema: { type: "object" } },
    call: (args: Any, ctx: Any) => (versions.push(ctx.protocolVersion), call(args, ctx)),
  });
  const ask = (ctx: Any, key: string, method: string, params?: object) =>
    inputRequired(ctx, { inputRequests: { [key]: { method, ...(params ? { params } : {}) } } });
  const tools = defineTools(
    [
      tool("add", (args: Any) => ({ content: [text(String(args.a + args.b))] })),
      tool("greet", (_args: Any, ctx: Any) => {
        const answer = ctx.inputResponse("who", "elicitation/create");
        if (answer === undefined)
          return ask(ctx, "who", "elicitation/create", {
            mode: "form",
            message: "Who are you?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          });
        return { content: [text(`Hello, ${answer.content?.name}`)] };
      }),
      tool("haiku", (_args: Any, ctx: Any) => {
        const answer = ctx.inputResponse("poem", "sampling/createMessage");
        if (answer === undefined)
          return ask(ctx, "poem", "sampling/createMessage", {
            messages: [{ role: "user", content: text("a haiku") }],
            maxTokens: 50,
          });
        return { content: [text(`${answer.model}: ${answer.content.text}`)] };
      }),
      tool("roots", (_args: Any, ctx: Any) => {
        const answer = ctx.inputResponse("roots", "roots/list");
        if (answer === undefined) return ask(ctx, "roots", "roots/list");
        return { content: [text(answer.roots.map((r: Any) => r.uri).join(","))] };
      }),
      tool("count", async (_args: Any, ctx: Any) => {
        for (let step = 1; step <= 2; step++) await ctx.sendProgress(step, 2, `step ${step}`);
        await ctx.log("debug", "details");
        await ctx.log("info", { counted: 2 }, "count");
        return { content: [text("counted")] };
      }),
      tool("divide", (args: Any) =>
        args.by === 0
          ? { content: [text("cannot divide by zero")], isError: true }
          : { content: [text(String(args.a / args.by))] },
      ),
      tool("whoami", (_args: Any, ctx: Any) => ({ content: [text(String(ctx.principal))] })),
      tool("refuse", () => {
        throw new McpError(-32602, "refused on purpose");
      }),
      tool("hold", async (_args: Any, ctx: Any) => {
        held.open();
        if (!ctx.signal.aborted)
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
        seen.stopped = ctx.signal.reason;
        return { content: [text("stopped")] };
      }),
    ],
    { validate: "handler", list: { ttlMs: 0, cacheScope: "private" } },
  );
  const server = defineServer(
    { tools },
    { serverInfo: { name: "test-server", version: "1.0.0" }, capabilities: { logging: {} } },
  );
  return { server, held, seen, versions };
}

/** Input handlers answering as a user, a model and a client with one root would. */
const inputHandlers = {
  "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }),
  "sampling/createMessage": () => ({
    role: "assistant",
    content: text("autumn moonlight"),
    model: "test-model",
  }),
  "roots/list": () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
};

const ERAS = [
  { era: "modern", version: "2026-07-28" },
  { era: "legacy", version: "2025-11-25" },
] as const;

describe.each(ERAS)("connectInMemory, $era era", ({ era, version }) => {
  const connect = (server: Any, options: Any = {}) =>
    connectInMemory(client.createClient, server, { era, inputHandlers, ...options });

  it("calls a tool in the era asked for, a defineServer server or its dispatcher alike", async () => {
    const { server, versions } = testServer();
    for (const target of [server, server.dispatcher]) {
      const c: Any = connect(target);
      expect(await c.era()).toBe(era);
      const added = await c.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      expect(added.content).toEqual([text("5")]);
      expect((await c.listTools()).tools.map((t: Any) => t.name)).toContain("add");
      await c.close();
    }
    expect(versions).toEqual([version, version]);
  });

  it("hands the server the principal given, as a transport that verified it would", async () => {
    const { server } = testServer();
    for (const [principal, expected] of [
      ["https://issuer ada", "https://issuer ada"],
      [undefined, "undefined"],
    ]) {
      const c: Any = connect(server, principal === undefined ? {} : { principal });
      expect((await c.callTool({ name: "whoami" })).content).toEqual([text(expected!)]);
      await c.close();
    }
  });

  it("answers elicitation, sampling and roots with the client's input handlers", async () => {
    const c: Any = connect(testServer().server);
    expect((await c.callTool({ name: "greet" })).content).toEqual([text("Hello, Ada")]);
    expect((await c.callTool({ name: "haiku" })).content).toEqual([
      text("test-model: autumn moonlight"),
    ]);
    expect((await c.callTool({ name: "roots" })).content).toEqual([text("file:///work")]);
    await c.close();
  });

  it("fails a call whose input the client has no handler for, naming what", async () => {
    const c: Any = connect(testServer().server, { inputHandlers: {} });
    // Modern: the server refuses to ask a request that did not declare elicitation (-32021).
    // Legacy: the session did not declare it either, and the tool call is an error result.
    if (era === "modern")
      await expect(c.callTool({ name: "greet" })).rejects.toMatchObject({
        code: -32021,
        message: expect.stringContaining("elicitation"),
      });
    else
      expect(await c.callTool({ name: "greet" })).toMatchObject({
        isError: true,
        content: [text("this request needs the client capability elicitation")],
      });
    await c.close();
  });

  it("gives every call's progress and log messages to the test client's callbacks", async () => {
    const progress: Any[] = [];
    const logs: Any[] = [];
    const own: Any[] = [];
    const c: Any = connect(testServer().server, {
      onProgress: (p: Any) => progress.push(`${p.progress}/${p.total} ${p.message}`),
      onLog: (l: Any) => logs.push(l),
      logLevel: "info",
    });
    // A legacy session gets every level until logging/setLevel; modern requests carry it.
    if (era === "legacy") await c.setLevel({ level: "info" });
    const result = await c.callTool(
      { name: "count" },
      { onProgress: (p: Any) => own.push(p.progress) },
    );
    expect(result.content).toEqual([text("counted")]);
    expect(progress).toEqual(["1/2 step 1", "2/2 step 2"]);
    expect(own).toEqual([1, 2]);
    expect(logs).toEqual([{ level: "info", logger: "count", data: { counted: 2 } }]);
    // A call with no options of its own gets them too (the proxy adds the options argument).
    await c.callTool({ name: "count" });
    expect(progress).toHaveLength(4);
    await c.close();
  });

  it("returns a tool's error result, and rejects with the server's error", async () => {
    const c: Any = connect(testServer().server);
    const result = await c.callTool({ name: "divide", arguments: { a: 1, by: 0 } });
    expect(result).toMatchObject({ isError: true, content: [text("cannot divide by zero")] });
    await expect(c.callTool({ name: "refuse" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("refused on purpose"),
    });
    await expect(c.callTool({ name: "missing" })).rejects.toThrow(/missing/);
    await c.close();
  });

  it("closes the server's side: its handler in flight is cancelled, the call fails", async () => {
    const { server, held, seen } = testServer();
    const c: Any = connect(server);
    const call = c.callTool({ name: "hold" });
    await held.opened;
    expect(seen.stopped).toBeUndefined();
    await c.close();
    // close() resolved once the handler had seen its signal abort and returned.
    expect(seen.stopped).toMatchObject({ name: "TransportError", kind: "closed" });
    await expect(call).rejects.toMatchObject({ kind: "closed" });
    await expect(c.callTool({ name: "add", arguments: { a: 1, b: 1 } })).rejects.toMatchObject({
      kind: "closed",
    });
  });

  it("leaves no timer behind after close, with a call and an input request in flight", async () => {
    vi.useFakeTimers();
    try {
      const asked = gate<AbortSignal | undefined>();
      const { server, held } = testServer();
      const c: Any = connect(server, {
        inputHandlers: {
          // Never answers: the server's question is pending when the client closes.
          "elicitation/create": (_params: Any, { signal }: Any) => (
            asked.open(signal),
            new Promise(() => undefined)
          ),
        },
      });
      const calls = [c.callTool({ name: "hold" }), c.callTool({ name: "greet" })];
      for (const call of calls) call.catch(() => undefined);
      await held.opened;
      const signal = await asked.opened;
      // The calls' timeouts (and, on a legacy session, the server's wait for the answer).
      expect(vi.getTimerCount()).toBeGreaterThan(0);
      await c.close();
      expect(vi.getTimerCount()).toBe(0);
      await expect(calls[0]).rejects.toMatchObject({ kind: "closed" });
      // A legacy session's question is abandoned with the session, and its call fails; a
      // modern one is the client's own, between two rounds (its signal is the call's, which
      // the test gave none): the server has nothing in flight for it.
      if (era === "legacy") {
        expect(signal?.aborted).toBe(true);
        await expect(calls[1]).rejects.toMatchObject({ kind: "closed" });
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("createInMemoryTransport", () => {
  it("ends the legacy session on close, so the server holds nothing for it", async () => {
    const { server } = testServer();
    const sessions: object[] = [];
    const inner = server.dispatcher;
    const watched = {
      handleText: (text: string, context: Any) => (
        sessions.push(context.channel),
        inner.handleText(text, context)
      ),
      endSession: (channel: object) => inner.endSession(channel),
    };
    const transport = createInMemoryTransport(watched);
    const c: Any = client.createClient({ transport, era: "legacy", inputHandlers });
    expect((await c.callTool({ name: "greet" })).content).toEqual([text("Hello, Ada")]);
    const [channel] = sessions;
    expect(inner.session(channel)).toMatchObject({ version: "2025-11-25" });
    await c.close();
    await transport.closed;
    expect(inner.session(channel)).toBeUndefined();
    // One channel, one session: every message came on it.
    expect(new Set(sessions).size).toBe(1);
  });

  it("carries messages as JSON text: the client gets a copy, never the server's object", async () => {
    const shared = { marker: "kept" };
    const d = dispatcher.createServerDispatcher({
      "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private", _meta: shared }),
    });
    const c: Any = connectInMemory(client.createClient, d, { era: "modern" } as Any);
    const listed = await c.listTools();
    expect(listed._meta).toEqual(shared);
    expect(listed._meta).not.toBe(shared);
    await c.close();
  });
});
