// @mcp-gen/runtime/testing: the in-memory transport between the client engine and a router
// (the test revision of fixture.ts), and connectInMemory's call defaults, on a client that
// records the options each function got.
import { describe, expect, it } from "vitest";
import { createSender } from "../src/client/index.js";
import { TransportError } from "../src/core/transport-error.js";
import type { Transport } from "../src/core/transport.js";
import { createRouter } from "../src/server/index.js";
import { connectInMemory, createInMemoryTransport } from "../src/transport/memory/index.js";
import { PROTOCOL, VALIDATORS } from "./fixture.js";

const shape = {
  functions: { "tools/call": "callTool", "tools/list": "listTools" },
  notifications: {},
  paginated: [],
};

/** A router whose tools/call sends progress, then answers with the arguments it got. */
function router(seen: unknown[] = []) {
  return createRouter(PROTOCOL, VALIDATORS, "client->server", {
    "tools/list": (_params: unknown, ctx: any) => (seen.push(ctx.signal), { tools: [] }),
    "tools/call": async (params: any, ctx: any) => {
      await ctx.sendProgress(1, 1);
      return { content: [{ type: "text", text: JSON.stringify(params.arguments) }] };
    },
  });
}

describe("createInMemoryTransport", () => {
  it("serves a router or a defineServer result, and carries progress to its call", async () => {
    for (const server of [router(), { dispatcher: router() }]) {
      const transport = createInMemoryTransport(server);
      const client = createSender(PROTOCOL, VALIDATORS, shape, { transport, era: "modern" }) as any;
      const progress: unknown[] = [];
      const result = await client.callTool(
        { name: "echo", arguments: { n: 1 } },
        { onProgress: (p: unknown) => progress.push(p) },
      );
      expect(result.content).toEqual([{ type: "text", text: '{"n":1}' }]);
      expect(progress).toMatchObject([{ progress: 1, total: 1 }]);
      await client.close();
    }
  });

  it("delivers nothing in the sender's own call: a message arrives on a later microtask", async () => {
    const seen: unknown[] = [];
    const transport = createInMemoryTransport(router(seen));
    const sent = transport.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(seen).toEqual([]);
    await sent;
    expect(seen).toHaveLength(1);
    await transport.close();
  });

  it("on close: `closed` settles, later sends are refused, a second close is the first", async () => {
    const transport = createInMemoryTransport(router());
    await transport.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    let closed = false;
    void transport.closed.then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    await Promise.all([transport.close(), transport.close()]);
    expect(closed).toBe(true);
    await expect(
      transport.request({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
    ).rejects.toBeInstanceOf(TransportError);
    await expect(transport.notify({ jsonrpc: "2.0", method: "x" })).rejects.toMatchObject({
      kind: "closed",
    });
  });
});

/** A client recording the arguments each of its functions got, as a generated one has them. */
function recordingClient(options: { transport: Transport }) {
  const calls: [string, unknown[]][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) => (calls.push([name, args]), Promise.resolve(args));
  return {
    options,
    calls,
    callTool: record("callTool"),
    listTools: record("listTools"),
    request: record("request"),
    notifyCancelled: record("notifyCancelled"),
    era: record("era"),
    close: record("close"),
  };
}

describe("connectInMemory", () => {
  it("passes the client's options but the call defaults and principal, with the transport", async () => {
    const client = connectInMemory(recordingClient, router(), {
      onLog: () => undefined,
      principal: "https://issuer ada",
    } as never);
    expect(Object.keys(client.options)).toEqual(["transport"]);
    await client.close();
  });

  it("gives the call defaults to each call, where its options go, and none elsewhere", async () => {
    const heard: string[] = [];
    const client = connectInMemory(recordingClient, router(), {
      onProgress: () => heard.push("defaults progress"),
      onLog: () => heard.push("defaults log"),
      logLevel: "info",
    } as never);
    await client.listTools();
    await client.callTool({ name: "a" }, { logLevel: "debug", onLog: () => heard.push("own log") });
    await client.request("tools/list", {});
    await client.notifyCancelled({ requestId: 1 });
    await client.era();
    const [listed, called, requested, notified, era] = client.calls.map(([, args]) => args);
    expect(listed).toEqual([undefined, expect.objectContaining({ logLevel: "info" })]);
    // A call's own logLevel wins; both listeners hear its log messages.
    const own = called![1] as { logLevel: string; onLog: () => void; onProgress: () => void };
    expect(own.logLevel).toBe("debug");
    own.onLog();
    own.onProgress();
    expect(heard).toEqual(["defaults log", "own log", "defaults progress"]);
    expect(requested).toEqual(["tools/list", {}, expect.objectContaining({ logLevel: "info" })]);
    expect(notified).toEqual([{ requestId: 1 }]);
    expect(era).toEqual([]);
    await client.close();
  });

  it("leaves the client as it is without call defaults", () => {
    const client = connectInMemory(recordingClient, router(), {} as never);
    expect(client.callTool).toBe(client.callTool);
    expect(Object.getPrototypeOf(client)).toBe(Object.prototype);
  });
});
