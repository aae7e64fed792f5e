// A server on Redis (a real redis-server the test starts, stops and pauses) through Redis
// faults: a restart with 2 s of downtime must not end the process, and it serves again after
// (new sessions, the bus delivering); a stalled Redis gets every legacy request that needs it
// a 503 within requestTimeoutMs, never a hang. Both with the connect*() helpers and with the
// deployment guide's recipe (the application's own client, given to the stores and the bus).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import {
  connectRedisEventStore,
  connectRedisMessageBus,
  connectRedis,
  connectRedisSessionStore,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
} from "../src/redis.js";
import type { MessageBus } from "../src/server/message-bus.js";
import { freePort } from "../../cli/test/support/free-port.js";
import { within } from "../../cli/test/support/wait.js";
import { redisMissing, startRedis, type RunningRedis } from "../../cli/test/support/redis.js";
import { post, type Any } from "./resume-support.js";
import { instances, type Instance } from "./session-relay-support.js";

const WHY_SKIPPED = redisMissing ? ` (skipped: ${redisMissing})` : "";

/** What a server is built on, and how to let go of it. */
interface Backing {
  sessionStore: Any;
  eventStore: Any;
  bus: MessageBus;
  close(): Promise<void>;
}

/** The connect*() helpers, each on its own connection, their outages told to `errors`. */
async function helpers(url: string, errors: string[]): Promise<Backing> {
  const onError = (error: Error) => void errors.push(error.message);
  const sessionStore = await connectRedisSessionStore({ url, onError });
  const eventStore = await connectRedisEventStore({ url, onError });
  const bus = await connectRedisMessageBus({ url, onError });
  return {
    sessionStore,
    eventStore,
    bus,
    close: async () =>
      void (await Promise.all([sessionStore, eventStore, bus].map((c) => c.close()))),
  };
}

/** The guide's recipe: one connectRedis() client shared by the stores and the bus. */
const recipe = async (url: string, errors: string[]) =>
  sharing(await connectRedis({ url, onError: (error) => void errors.push(error.message) }), errors);

/** The application's own node-redis client, with its own error listener, shared by all. */
async function ownClient(url: string, errors: string[]): Promise<Backing> {
  const client = await createClient({ url })
    .on("error", (error: Error) => void errors.push(`application: ${error.message}`))
    .connect();
  return sharing(client, errors);
}

/** The stores and the bus on `client`, which the application made. */
function sharing(client: Any, errors: string[]): Backing {
  const bus = new RedisMessageBus({
    client,
    onError: (error) => void errors.push(error.message),
  });
  return {
    sessionStore: new RedisSessionStore({ client }),
    eventStore: new RedisEventStore({ client }),
    bus,
    close: async () => {
      await bus.close();
      await client.close();
    },
  };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2098-01-01",
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  },
};
const PING = { jsonrpc: "2.0", id: 7, method: "ping" };

/** A legacy initialize: the session id, or undefined when refused. */
async function initialize(url: string): Promise<string | undefined> {
  const response = await post(url, INITIALIZE);
  await response.text();
  return response.status === 200 ? response.headers.get("mcp-session-id")! : undefined;
}

/** A session's ping: its status. */
async function ping(url: string, session: string): Promise<number> {
  const response = await post(url, PING, { "mcp-session-id": session });
  await response.text();
  return response.status;
}

/**
 * `attempt()` again until it gives a value (each attempt a round trip to redis-server, which
 * comes back on its own clock), failing after `ms`; 100 ms between attempts, not to spin.
 */
async function eventually<T>(attempt: () => Promise<T | undefined>, what: string, ms = 20_000) {
  const give = async (): Promise<T> => {
    for (;;) {
      const value = await attempt();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return within(give(), what, ms);
}

describe.skipIf(redisMissing !== undefined)(`a server through Redis faults${WHY_SKIPPED}`, () => {
  let redis: RunningRedis;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => void uncaught.push(error);
  let open: { backing: Backing; server: Instance } | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    process.on("uncaughtException", onUncaught);
  });
  afterEach(async () => {
    redis?.resume();
    await open?.server.server.close();
    await open?.backing.close();
    open = undefined;
  });
  afterAll(async () => {
    process.off("uncaughtException", onUncaught);
    await redis?.stop();
  });

  /** A dual-era server on `backing`, with the given request timeout. */
  async function serve(backing: Backing, requestTimeoutMs: number) {
    const { sessionStore, eventStore } = backing;
    const [server] = await instances(["a"], () => backing.bus, {
      sessionStore,
      eventStore,
      requestTimeoutMs,
    });
    open = { backing, server: server! };
    return server!;
  }

  const HELPERS_TOLD = ["event store", "message bus", "message bus subscriber", "session store"];
  for (const [name, make, told] of [
    ["the connect*() helpers", helpers, HELPERS_TOLD],
    ["the guide's recipe", recipe, ["connection", "message bus subscriber"]],
    ["the application's own client", ownClient, ["message bus subscriber"]],
  ] as const) {
    it(`survives a Redis restart on ${name}, and serves again after`, async () => {
      const errors: string[] = [];
      const server = await serve(await make(redis.url, errors), 2_000);
      const received: string[] = [];
      await open!.backing.bus.subscribe("test:after", (message) => void received.push(message));
      const before = await initialize(server.server.url);
      expect(before).toBeDefined();

      await redis.restart({ gapMs: 2_000 });

      // Nothing persisted: a session from before is gone (404: the client initializes again).
      const again = await eventually(() => initialize(server.server.url), "a new session");
      expect(await ping(server.server.url, again)).toBe(200);
      expect(await ping(server.server.url, before!)).toBe(404);
      // The bus's subscriber reconnected and subscribed again. The bus's publishing connection
      // reconnects on its own clock, maybe after the session store's: until it has, a publish
      // fails at once ("The client is offline"), and is tried again.
      let sent = 0;
      await eventually(async () => {
        await open!.backing.bus.publish("test:after", `message ${++sent}`).catch(() => --sent);
        return received.length > 0 ? true : undefined;
      }, "a message on the bus after the restart");
      expect(received.length).toBeLessThanOrEqual(sent);
      expect(uncaught).toEqual([]);
      // Each connection the runtime made told once about its outage (the application's own
      // client tells its own listener, every attempt).
      const runtimes = errors.flatMap((line) => /^Redis \(([a-z ]+)\)/.exec(line)?.[1] ?? []);
      expect(runtimes.sort()).toEqual(told);
      expect(server.errors.filter((line) => /unhandled|uncaught/i.test(line))).toEqual([]);
    });
  }

  for (const [name, make] of [
    ["the connect*() helpers", helpers],
    ["the application's own client", ownClient],
  ] as const)
    it(`answers legacy requests 503 within requestTimeoutMs while Redis is stalled, on ${name}`, async () => {
      const errors: string[] = [];
      const server = await serve(await make(redis.url, errors), 500);
      const { url } = server.server;
      const session = (await initialize(url))!;
      const other = (await initialize(url))!;
      expect(session).toBeDefined();

      redis.pause();
      const refused = async (request: Promise<Response>, what: string) => {
        const response = await within(request, `${what} answered while Redis is stalled`, 10_000);
        const body = (await response.json()) as Any;
        expect({
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
        }).toEqual({
          status: 503,
          retryAfter: "2",
        });
        expect(body.error).toMatchObject({ code: -32603, message: expect.stringMatching(/store/) });
        return body;
      };
      expect((await refused(post(url, INITIALIZE), "initialize")).id).toBe(0);
      await refused(post(url, PING, { "mcp-session-id": session }), "a session's POST");
      await refused(
        fetch(url, { method: "DELETE", headers: { "mcp-session-id": other } }),
        "a session's DELETE",
      );
      redis.resume();

      expect(
        await eventually(
          async () => ((await ping(url, session)) === 200 ? true : undefined),
          "the session served again",
        ),
      ).toBe(true);
      expect(await initialize(url)).toBeDefined();
      // Told once, not once per request.
      expect(
        server.errors.filter((line) => /session store is unavailable/.test(line)),
      ).toHaveLength(1);
      expect(uncaught).toEqual([]);
    });

  it("a server started while Redis is stalled answers 503, not hangs, until it can subscribe", async () => {
    const backing = await helpers(redis.url, []);
    redis.pause();
    // The server subscribes to the bus as it starts: Redis does not answer that.
    const server = await serve(backing, 500);
    const { url } = server.server;
    const response = await within(
      post(url, PING, { "mcp-session-id": "not-yet-known" }),
      "a session's POST answered",
      10_000,
    );
    expect(response.status).toBe(503);
    expect(((await response.json()) as Any).error.message).toMatch(/message bus is unavailable/);
    redis.resume();
    const session = await eventually(() => initialize(url), "a session once Redis answers");
    expect(
      await eventually(
        async () => ((await ping(url, session)) === 200 ? true : undefined),
        "served",
      ),
    ).toBe(true);
    expect(uncaught).toEqual([]);
  });

  it("connect*() rejects, not hangs, when Redis cannot be reached at start", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const errors: string[] = [];
    const failed = connectRedisSessionStore({ url, onError: (e) => void errors.push(e.message) });
    await expect(within(failed, "connect rejected", 20_000)).rejects.toThrow(/unreachable/);
    expect(errors).toHaveLength(1);
  });

  it("the bus refuses to publish a message over maxMessageChars", async () => {
    const client = await createClient({ url: redis.url }).connect();
    try {
      const bus = new RedisMessageBus({ client, maxMessageChars: 10 });
      await expect(bus.publish("c", "x".repeat(11))).rejects.toThrow(RangeError);
      await bus.publish("c", "x".repeat(10));
      expect(() => new RedisMessageBus({ client, maxMessageChars: 0 })).toThrow(TypeError);
    } finally {
      await client.close();
    }
  });
});
