import { afterEach, describe, expect, it } from "vitest";
import { createEraDispatcher, type EraDispatcherOptions } from "../src/server/era-dispatcher.js";
import type { ProtocolDescriptor } from "../src/core/protocol.js";
import { type SessionChange, type SessionStore } from "../src/transport/http/server/sessions.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { dualEras, LEGACY_INITIALIZE as INITIALIZE, LEGACY_PROTOCOL } from "./fixture.js";
import { serveSessions } from "./session-server.js";

// Legacy resources/subscribe, bounded (issue 35, F6): 150 subscriptions to 1 MB URIs took a
// server to 1.26 GB, and every POST wrote the whole session back. Now a session's
// subscriptions and their URIs are capped, with a JSON-RPC error saying which cap, and a
// request writes to the session store only the fields it changed.

/** The fixture's legacy revision, with the methods whose state a session keeps. */
const LEGACY: ProtocolDescriptor = {
  ...LEGACY_PROTOCOL,
  methods: {
    ...LEGACY_PROTOCOL.methods,
    ...Object.fromEntries(
      ["logging/setLevel", "resources/subscribe", "resources/unsubscribe"].map((method) => [
        method,
        {
          kind: "request",
          directions: ["client->server"],
          inputRequired: false,
          capabilities: {},
        },
      ]),
    ),
  } as ProtocolDescriptor["methods"],
};

const dispatcher = (options: EraDispatcherOptions = {}) =>
  createEraDispatcher(dualEras(LEGACY), { "resources/list": () => ({ resources: [] }) }, options);

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server and a session opened on it; `send` posts one request of that session. */
async function session(options: EraDispatcherOptions = {}, sessionStore?: SessionStore) {
  const server = await serveSessions(dispatcher(options), sessionStore ? { sessionStore } : {});
  servers.push(server);
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: "alice",
  };
  const opened = await fetch(server.url, {
    method: "POST",
    headers,
    body: JSON.stringify(INITIALIZE),
  });
  await opened.text();
  const id = opened.headers.get("mcp-session-id")!;
  let next = 10;
  const send = async (method: string, params: object = {}) => {
    const reply = await fetch(server.url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": id },
      body: JSON.stringify({ jsonrpc: "2.0", id: next++, method, params }),
    });
    return (await reply.json()) as { result?: object; error?: { code: number; message: string } };
  };
  return { send, id };
}

describe("legacy resources/subscribe", () => {
  it("caps subscriptions per session and a URI's length, each with a clear error", async () => {
    const { send } = await session({ maxSubscriptionsPerSession: 3, maxSubscriptionUriLength: 40 });
    for (const n of [1, 2, 3])
      expect(await send("resources/subscribe", { uri: `file:///${n}` })).toMatchObject({
        result: {},
      });
    const over = await send("resources/subscribe", { uri: "file:///4" });
    expect(over.error?.code).toBe(-32602);
    expect(over.error?.message).toMatch(/3 subscriptions.*maxSubscriptionsPerSession/);
    // Subscribing again to a URI held already is no new subscription; unsubscribing frees one.
    expect((await send("resources/subscribe", { uri: "file:///1" })).result).toEqual({});
    expect((await send("resources/unsubscribe", { uri: "file:///1" })).result).toEqual({});
    expect((await send("resources/subscribe", { uri: "file:///4" })).result).toEqual({});
    const tooLong = await send("resources/subscribe", { uri: `file:///${"x".repeat(33)}` });
    expect(tooLong.error?.code).toBe(-32602);
    expect(tooLong.error?.message).toMatch(/longer than 40 characters.*maxSubscriptionUriLength/);
  });

  it("by default refuses the 101st subscription and a URI over 2,048 characters", async () => {
    const { send } = await session();
    const big = await send("resources/subscribe", { uri: `file:///${"x".repeat(2_041)}` });
    expect(big.error?.message).toMatch(/maxSubscriptionUriLength/);
    for (let n = 0; n < 100; n++)
      expect((await send("resources/subscribe", { uri: `file:///${n}` })).result).toEqual({});
    const over = await send("resources/subscribe", { uri: "file:///100" });
    expect(over.error?.message).toMatch(/maxSubscriptionsPerSession/);
  });

  it("writes to the store only what a request changed, field by field", async () => {
    const inner = new MemorySessionStore();
    const changes: SessionChange[] = [];
    let touches = 0;
    const store: SessionStore = {
      create: (id, record) => inner.create(id, record),
      get: (id) => inner.get(id),
      update: (id, change) => (changes.push(change), inner.update(id, change)),
      touch: (id) => (touches++, inner.touch(id)),
      delete: (id) => inner.delete(id),
      count: (principal) => inner.count(principal),
    };
    const { send, id } = await session({}, store);
    for (let n = 0; n < 50; n++) await send("resources/subscribe", { uri: `file:///${n}` });
    expect(changes).toHaveLength(50);
    expect(changes.at(-1)).toEqual({ subscribed: ["file:///49"] });
    await send("ping");
    expect([changes.length, touches]).toEqual([50, 1]);
    await send("resources/unsubscribe", { uri: "file:///3" });
    await send("logging/setLevel", { level: "debug" });
    expect(changes.slice(50)).toEqual([{ unsubscribed: ["file:///3"] }, { logLevel: "debug" }]);
    const record = await inner.get(id);
    expect(record?.session.subscriptions).toHaveLength(49);
    expect(record?.session.logLevel).toBe("debug");
  });

  it("checks the caps' options when the dispatcher is made", () => {
    expect(() => dispatcher({ maxSubscriptionsPerSession: 0 })).toThrow(
      /maxSubscriptionsPerSession/,
    );
    expect(() => dispatcher({ maxSubscriptionUriLength: 1.5 })).toThrow(/maxSubscriptionUriLength/);
  });
});
