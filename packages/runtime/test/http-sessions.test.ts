import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { McpError } from "../src/core/errors.js";
import { parseSessionRecord } from "../src/transport/http/server/sessions.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { recordOf, sessionStoreContract } from "./session-store-contract.js";
import { dualEras, LEGACY_INITIALIZE } from "./fixture.js";
import { serveSessions } from "./session-server.js";

describe("legacy HTTP sessions", () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const dispatcher = createEraDispatcher(dualEras(), {
      "tools/call": (params: { name: string }) => {
        if (params.name === "bad") throw new McpError(-32602, "Unknown tool: bad");
        return { content: [] };
      },
    });
    server = await serveSessions(dispatcher);
  });
  afterAll(() => server.close());

  const post = (body: object, headers: Record<string, string>) =>
    fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const open = async (who: string) => {
    const r = await post(LEGACY_INITIALIZE, { authorization: who });
    expect((await r.json()).result.protocolVersion).toBe("2098-01-01");
    return r.headers.get("mcp-session-id")!;
  };

  it("a session belongs to the principal that opened it: others get 404 and cannot end it", async () => {
    const id = await open("alice");
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x" } };
    expect((await post(call, { authorization: "mallory", "mcp-session-id": id })).status).toBe(404);
    expect(
      (
        await fetch(server.url, {
          method: "DELETE",
          headers: { authorization: "mallory", "mcp-session-id": id },
        })
      ).status,
    ).toBe(404);
    expect((await post(call, { authorization: "alice", "mcp-session-id": id })).status).toBe(200);
    expect(
      (
        await fetch(server.url, {
          method: "DELETE",
          headers: { authorization: "alice", "mcp-session-id": id },
        })
      ).status,
    ).toBe(200);
    expect((await post(call, { authorization: "alice", "mcp-session-id": id })).status).toBe(404);
  });

  // 2025-11-25 transports: a request is answered with a JSON body or an SSE stream, and 404 on
  // a session id means the session is gone (the client MUST initialize again). Errors of the
  // request itself travel in the body with 200, as the SDKs' servers send them: a 404 for
  // "method not found" would make clients drop a live session, and a 400 turns the JSON-RPC
  // error into a transport error whose code the v1 SDK client no longer exposes.
  it("answers a session's request errors in-band: 200 with the JSON-RPC error, the session kept", async () => {
    const id = await open("carol");
    const headers = { authorization: "carol", "mcp-session-id": id };
    const unknown = await post({ jsonrpc: "2.0", id: 4, method: "prompts/list" }, headers);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ id: 4, error: { code: -32601 } });
    const invalid = await post(
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "bad" } },
      headers,
    );
    expect(invalid.status).toBe(200);
    expect(await invalid.json()).toMatchObject({
      id: 5,
      error: { code: -32602, message: "Unknown tool: bad" },
    });
    const after = await post(
      { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "x" } },
      headers,
    );
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ id: 6, result: { content: [] } });
  });

  it("refuses a protocol version header other than the session's", async () => {
    const id = await open("bob");
    const r = await post(
      { jsonrpc: "2.0", id: 3, method: "ping" },
      { authorization: "bob", "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
    );
    expect(r.status).toBe(400);
  });
});

describe("the in-memory session store", () => {
  sessionStoreContract(async (limits) => new MemorySessionStore(limits));

  it("expires idle sessions, touch and update restart the clock, and an expired one frees its place", async () => {
    let now = 0;
    const store = new MemorySessionStore({
      idleTimeoutMs: 100,
      maxSessionsPerPrincipal: 1,
      now: () => now,
    });
    await store.create("a", recordOf("alice"));
    now = 100;
    expect(await store.touch("a")).toBe(true); // idle for exactly 100 ms: still live
    now = 200;
    expect(await store.update("a", { logLevel: "info" })).toBe(true);
    now = 300;
    expect(await store.get("a")).toEqual(recordOf("alice", "info"));
    expect(await store.create("b", recordOf("alice"))).toBe("principal-full");
    now = 301;
    expect(await store.get("a")).toBeUndefined();
    expect(await store.count("alice")).toBe(0);
    expect(await store.create("b", recordOf("alice"))).toBe("created");
    expect(store.size).toBe(1);
  });

  it("refuses bounds that are not positive integers, naming the option", () => {
    expect(() => new MemorySessionStore({ maxSessions: 0 })).toThrow(/maxSessions/);
    expect(() => new MemorySessionStore({ maxSessions: NaN })).toThrow(/maxSessions/);
    expect(() => new MemorySessionStore({ maxSessionsPerPrincipal: 1.5 })).toThrow(
      /maxSessionsPerPrincipal/,
    );
    expect(() => new MemorySessionStore({ maxAnonymousSessions: -1 })).toThrow(
      /maxAnonymousSessions/,
    );
    expect(() => new MemorySessionStore({ idleTimeoutMs: 2 ** 31 })).toThrow(/idleTimeoutMs/);
  });

  it("reads no record of another shape as a session", () => {
    const good = recordOf("alice");
    expect(parseSessionRecord(JSON.parse(JSON.stringify(good)))).toEqual(good);
    expect(parseSessionRecord({ session: { ...good.session, subscriptions: [1] } })).toBe(
      undefined,
    );
    expect(parseSessionRecord({ principal: 7, session: good.session })).toBeUndefined();
    expect(parseSessionRecord({ session: { version: "2025-11-25" } })).toBeUndefined();
    expect(parseSessionRecord("{}")).toBeUndefined();
  });
});
