// Legacy sessions in a real Redis (the OS package's redis-server, started here on a free
// port): the store's contract, its caps counted atomically in Redis, and a session that
// leaves the instance that created it: two generated servers (two handlers in this process,
// each with its own Redis connection, as two instances would) share the store, and the v1
// SDK client 1.32.2 is served through both, request by request.
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  connectRedisMessageBus,
  connectRedisSessionStore,
  RedisMessageBus,
  RedisSessionStore,
} from "@mcp-gen/runtime/redis";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";
import { redisMissing, startRedis, type RunningRedis } from "./support/redis.js";
import { within } from "./support/wait.js";
import { recordOf, sessionStoreContract } from "../../runtime/test/session-store-contract.js";

type Any = any;

const noRedis = redisMissing !== undefined;
const WHY_SKIPPED = redisMissing ? ` (skipped: ${redisMissing})` : "";

let redis: RunningRedis;
const connect = (url: string) => createClient({ url }).connect();
let client: Awaited<ReturnType<typeof connect>>;
let prefixes = 0;
/** A store of its own key space, so that tests do not count each other's sessions. */
const storeWith = (limits: object) =>
  new RedisSessionStore({ client, prefix: `test${++prefixes}:`, ...limits });

beforeAll(async () => {
  if (noRedis) return;
  redis = await startRedis();
  client = await connect(redis.url);
});
afterAll(async () => {
  await client?.close();
  await redis?.stop();
});

describe.skipIf(noRedis)(`RedisSessionStore${WHY_SKIPPED}`, () => {
  sessionStoreContract(async (limits) => storeWith(limits));

  it("expires a session with its idle timeout, which touch restarts", async () => {
    const store = storeWith({ idleTimeoutMs: 60_000 });
    await store.create("s", recordOf("alice"));
    const ttl = () => client.pTTL(`test${prefixes}:s:s`);
    expect(await ttl()).toBeGreaterThan(0);
    expect(await ttl()).toBeLessThanOrEqual(60_000);
    await client.pExpire(`test${prefixes}:s:s`, 10_000);
    expect(await store.touch("s")).toBe(true);
    expect(await ttl()).toBeGreaterThan(10_000);
  });

  it("keeps a session as a hash and its subscriptions in a set, both refreshed on use", async () => {
    const store = storeWith({ idleTimeoutMs: 60_000 });
    const prefix = `test${prefixes}:`;
    await store.create("s", recordOf("alice"));
    await store.update("s", { subscribed: ["file:///b"], logLevel: "debug" });
    expect(await client.type(`${prefix}s:s`)).toBe("hash");
    expect(await client.hGet(`${prefix}s:s`, "logLevel")).toBe("debug");
    expect((await client.sMembers(`${prefix}s:s:subscriptions`)).sort()).toEqual([
      "file:///a",
      "file:///b",
    ]);
    for (const key of [`${prefix}s:s`, `${prefix}s:s:subscriptions`])
      await client.pExpire(key, 10_000);
    expect(await store.touch("s")).toBe(true);
    for (const key of [`${prefix}s:s`, `${prefix}s:s:subscriptions`])
      expect(await client.pTTL(key), key).toBeGreaterThan(10_000);
    expect(await store.delete("s")).toBe(true);
    expect(await client.exists([`${prefix}s:s`, `${prefix}s:s:subscriptions`])).toBe(0);
  });

  it("counts no expired session against a cap, and reads no damaged record", async () => {
    const store = storeWith({ maxSessionsPerPrincipal: 1 });
    const prefix = `test${prefixes}:`;
    // A session that expired: its record gone, its id still in the bucket with a past score.
    await client.zAdd(`${prefix}p:alice`, { score: 1, value: "ghost" });
    expect(await store.count("alice")).toBe(0);
    expect(await store.create("s", recordOf("alice"))).toBe("created");
    await client.set(`${prefix}s:damaged`, "not json");
    expect(await store.get("damaged")).toBeUndefined();
    await client.set(`${prefix}s:other`, JSON.stringify({ session: { version: 1 } }));
    expect(await store.get("other")).toBeUndefined();
  });

  it("refuses concurrent creations beyond the cap: the check and the write are one script", async () => {
    const store = storeWith({ maxSessionsPerPrincipal: 10 });
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.create(`c${i}`, recordOf("mallory"))),
    );
    expect(outcomes.filter((o) => o === "created")).toHaveLength(10);
    expect(await store.count("mallory")).toBe(10);
  });

  it("is refused without a client, and says what to install for a URL", async () => {
    expect(() => new RedisSessionStore({} as Any)).toThrow(/node-redis client/);
    const own = await connectRedisSessionStore({ url: redis.url, prefix: "own:" });
    expect(await own.create("x", recordOf(undefined))).toBe("created");
    expect(await own.count(undefined)).toBe(1);
    await own.close();
  });
});

describe.skipIf(noRedis)(`RedisMessageBus${WHY_SKIPPED}`, () => {
  it("delivers a message to every subscriber on other connections, until unsubscribed", async () => {
    const a = new RedisMessageBus({ client });
    const b = await connectRedisMessageBus({ url: redis.url });
    const got: string[] = [];
    const waiters: { count: number; resolve: () => void }[] = [];
    const listen = (who: string) => (message: string) => {
      got.push(`${who} ${message}`);
      for (const w of waiters) if (got.length === w.count) w.resolve();
    };
    const until = (count: number) =>
      within(new Promise<void>((resolve) => waiters.push({ count, resolve })), `${count} messages`);
    const stopA = await a.subscribe("bus-test", listen("a"));
    await b.subscribe("bus-test", listen("b"));
    await b.publish("bus-test", "hello");
    await until(2);
    expect([...got].sort()).toEqual(["a hello", "b hello"]);
    // Unsubscribed (Redis confirmed it) before the publish: only b gets it.
    await stopA();
    await a.publish("bus-test", "again");
    await until(3);
    expect(got[2]).toBe("b again");
    await a.close();
    await b.close();
    expect(() => new RedisMessageBus({} as Any)).toThrow(/node-redis client/);
  });
});

describe.skipIf(noRedis)(`a session served by two instances sharing Redis${WHY_SKIPPED}`, () => {
  const instances: { url: string; close(): Promise<void> }[] = [];
  const connections: { close(): Promise<void> }[] = [];
  let store: RedisSessionStore;
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.close()));
    await Promise.all(connections.map((c) => c.close()));
  });

  beforeAll(async () => {
    const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
      legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
    });
    const dir = writeGenerated(files);
    const [dispatcher, http] = await Promise.all(
      ["dispatcher.js", "http-server.js"].map((m) => import(join(dir, m))),
    );
    for (const name of ["a", "b"]) {
      const d = dispatcher.createServerDispatcher(
        {
          "tools/call": (_params: Any, ctx: Any) => ({
            content: [
              {
                type: "text",
                // What the instance knows of the session: from the record in Redis on B.
                text: JSON.stringify({
                  instance: name,
                  client: ctx.clientInfo?.name,
                  logLevel: ctx.logLevel,
                }),
              },
            ],
          }),
          "tools/list": () => ({ tools: [{ name: "whoami", inputSchema: { type: "object" } }] }),
        },
        { serverInfo: { name: `instance-${name}`, version: "1.0.0" } },
      );
      // Each instance its own connection, as separate processes would have.
      const own = await connect(redis.url);
      connections.push(own);
      store = new RedisSessionStore({ client: own, prefix: "shared:" });
      instances.push(await http.serveHttp(d, { sessionStore: store }));
    }
  });

  it("the v1 SDK client's requests alternate between A and B, and both serve the session", async () => {
    const hits: string[] = [];
    let next = 0;
    // A balancer with no stickiness at all: each request to the next instance.
    const roundRobin = (input: Any, init: Any) => {
      const instance = instances[next++ % instances.length]!;
      hits.push(`${init?.method ?? "GET"} ${instance.url}`);
      return fetch(instance.url, init);
    };
    const transport = new V1HttpTransport(new URL(instances[0]!.url), { fetch: roundRobin });
    const client = new V1Client({ name: "redis-roaming-client", version: "1.0.0" });
    await client.connect(transport);
    await client.setLoggingLevel("warning");
    const served = [];
    for (let i = 0; i < 4; i++) {
      const result: Any = await client.callTool({ name: "whoami", arguments: {} });
      served.push(JSON.parse(result.content[0].text));
    }
    expect(new Set(served.map((s) => s.instance))).toEqual(new Set(["a", "b"]));
    // Each instance served it as the client set it up, whichever instance that went through.
    for (const s of served)
      expect(s).toMatchObject({ client: "redis-roaming-client", logLevel: "warning" });
    const id = transport.sessionId!;
    const record = await store.get(id);
    expect(record?.session).toMatchObject({ version: "2025-11-25", logLevel: "warning" });
    await transport.terminateSession();
    expect(await store.get(id)).toBeUndefined();
    await client.close();
    expect(hits.filter((h) => h.startsWith("POST")).length).toBeGreaterThanOrEqual(6);
  });
});
