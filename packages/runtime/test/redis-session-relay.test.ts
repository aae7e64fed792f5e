// Answers and cancellations across instances on Redis pub/sub (a real redis-server the test
// starts): two instances, each with its own dispatcher and its own RedisMessageBus (its own
// connections, as separate processes would have), sharing a session store. The client's
// answer to A's elicitation and its cancellation of a call on A are POSTed to B.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedisMessageBus, type RedisMessageBus } from "../src/redis.js";
import type { MessageBus } from "../src/server/message-bus.js";
import { within } from "../../cli/test/support/wait.js";
import { redisMissing, startRedis, type RunningRedis } from "../../cli/test/support/redis.js";
import { post } from "./resume-support.js";
import {
  askAndAnswer,
  callTool,
  instances,
  openSession,
  toolText,
  type Instance,
} from "./session-relay-support.js";

const WHY_SKIPPED = redisMissing ? ` (skipped: ${redisMissing})` : "";

describe.skipIf(redisMissing !== undefined)(
  `answers and cancellations on Redis${WHY_SKIPPED}`,
  () => {
    let redis: RunningRedis;
    const buses: (RedisMessageBus & { close(): Promise<void> })[] = [];
    /** What each instance published, by channel. */
    const published = new Map<string, string[]>();
    let a: Instance;
    let b: Instance;

    beforeAll(async () => {
      redis = await startRedis();
      [a, b] = (await instances(["a", "b"], async (name) => {
        const bus = await connectRedisMessageBus({ url: redis.url });
        buses.push(bus);
        const own: string[] = [];
        published.set(name, own);
        const recording: MessageBus = {
          publish: (channel, message) => (own.push(channel), bus.publish(channel, message)),
          subscribe: (channel, listener) => bus.subscribe(channel, listener),
        };
        return recording;
      })) as [Instance, Instance];
    });
    afterAll(async () => {
      await Promise.all([a, b].map((i) => i?.server.close()));
      await Promise.all(buses.map((bus) => bus.close()));
      await redis?.stop();
    });

    it("the answer POSTed to B reaches the handler waiting on A", async () => {
      const session = await openSession(a.server.url);
      const { status, final } = await askAndAnswer(a, b, session, (id) => ({
        jsonrpc: "2.0",
        id,
        result: { action: "accept", content: { v: "through redis" } },
      }));
      expect(status).toBe(202);
      expect(toolText(final)).toEqual({ instance: "a", answer: "through redis" });
      expect(published.get("b")).toEqual([expect.stringMatching(/^mcp-gen:answers:[0-9a-z]{16}$/)]);
      // A acknowledged it to B's process: B answered 202 only then.
      expect(published.get("a")).toEqual([expect.stringMatching(/^mcp-gen:acks:[0-9a-z]{16}$/)]);
      expect([...a.errors, ...b.errors]).toEqual([]);
    });

    it("the cancellation POSTed to B stops the call on A", async () => {
      const session = await openSession(a.server.url);
      const headers = { "mcp-session-id": session };
      const call = post(a.server.url, callTool("wait", 9), headers);
      await within(a.waiting, "the call running on A");
      const cancel = {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 9, reason: "no longer needed" },
      };
      expect((await post(b.server.url, cancel, headers)).status).toBe(202);
      expect(await within(a.cancelled, "the call on A cancelled")).toBe("no longer needed");
      expect(published.get("b")!.at(-1)).toBe("mcp-gen:cancels");
      expect(await (await call).text()).not.toMatch(/"result"|"error"/);
    });
  },
);
