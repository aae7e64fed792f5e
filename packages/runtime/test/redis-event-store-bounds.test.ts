// The Redis event store's bounds over all streams (F5), against a real redis-server: streams
// per session, streams and bytes in all, counted in Redis so that every instance sharing the
// store shares them too, and a TTL on every key the store writes.
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisEventStore } from "../src/redis.js";
import { note, replay } from "./event-store-support.js";
import { redisMissing, startRedis, type RunningRedis } from "../../cli/test/support/redis.js";

describe.skipIf(redisMissing !== undefined)(
  `RedisEventStore's store-wide bounds${redisMissing ? ` (skipped: ${redisMissing})` : ""}`,
  () => {
    let redis: RunningRedis;
    let client: ReturnType<typeof createClient>;
    beforeAll(async () => {
      redis = await startRedis();
      client = createClient({ url: redis.url });
      await client.connect();
    });
    afterAll(async () => {
      await client?.close().catch(() => undefined);
      await redis?.stop();
    });
    const keysOf = async (prefix: string) => (await client.keys(`${prefix}*`)).sort();
    /** The time on the Redis server's clock, in ms. */
    const redisMs = async () => {
      const [seconds, micros] = (await client.sendCommand(["TIME"])) as [string, string];
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    };

    it("maxTotalBytes: the least recently written streams go, never the one written", async () => {
      const size = JSON.stringify(note(1, "x".repeat(1000))).length;
      const store = new RedisEventStore({ client, keyPrefix: "b1:", maxTotalBytes: size * 3 });
      const first = await store.append("a", note(1, "x".repeat(1000)));
      await store.append("b", note(2, "x".repeat(1000)));
      const third = await store.append("c", note(3, "x".repeat(1000)));
      const fourth = await store.append("c", note(4, "x".repeat(1000)));
      expect((await replay(store, first)).stream).toBeUndefined();
      expect((await replay(store, third)).ns).toEqual([4]);
      expect(Number(await client.get("b1:total"))).toBeLessThanOrEqual(size * 3);
      // One stream alone over the bound keeps its newest event only.
      const big = await store.append("c", note(5, "y".repeat(size * 4)));
      expect((await replay(store, fourth)).stream).toBeUndefined();
      expect((await replay(store, big)).stream).toBe("c");
      expect(await client.exists("b1:s:b")).toBe(0);
    });

    it("maxStreams is shared by the instances on one prefix", async () => {
      const [one, two] = [1, 2].map(
        () => new RedisEventStore({ client, keyPrefix: "b2:", maxStreams: 3 }),
      );
      const a = await one!.append("a", note(1));
      const b = await two!.append("b", note(1));
      await one!.append("c", note(1));
      await two!.append("a", note(2)); // a is now the most recently written
      await one!.append("d", note(1));
      expect((await replay(two!, b)).stream).toBeUndefined();
      expect((await replay(one!, a)).ns).toEqual([2]);
      expect(await client.zCard("b2:streams")).toBe(3);
    });

    it("maxStreamsPerSession: a session's least recently written stream goes, not another's", async () => {
      const store = new RedisEventStore({ client, keyPrefix: "b3:", maxStreamsPerSession: 2 });
      const mine = [];
      for (const n of [1, 2, 3]) mine.push(await store.append(`p.s1.r${n}`, note(n)));
      const other = await store.append("g.s2.r1", undefined);
      await store.append("g.s2.r1", note(9));
      await store.append("p.s1.r4", note(4));
      expect((await replay(store, mine[0]!)).stream).toBeUndefined();
      expect((await replay(store, mine[1]!)).stream).toBeUndefined();
      expect((await replay(store, mine[2]!)).stream).toBe("p.s1.r3");
      expect((await replay(store, other)).ns).toEqual([9]);
    });

    it("every key expires, and streams gone by age give back their bytes", async () => {
      // The TTLs are read under a bound no busy machine reaches before the reads (with 50 ms,
      // a key could expire between KEYS and PTTL); the keys are the same under any bound.
      const lasting = new RedisEventStore({ client, keyPrefix: "b4t:", maxAgeMs: 600_000 });
      await lasting.append("p.s1.r1", note(1, "x".repeat(500)));
      await lasting.append("g.s1.r2", undefined);
      const keys = await keysOf("b4t:");
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const ttl = Number(await client.sendCommand(["PTTL", key]));
        expect(ttl, key).toBeGreaterThan(0);
        expect(ttl, key).toBeLessThanOrEqual(600_000);
      }
      const store = new RedisEventStore({ client, keyPrefix: "b4:", maxAgeMs: 50 });
      const old = await store.append("p.s1.r1", note(1, "x".repeat(500)));
      await store.append("g.s1.r2", undefined);
      // Past maxAgeMs on the Redis clock: the next append accounts for what expired.
      const oldMs = Number(/:(\d+)-/.exec(old)?.[1]);
      while ((await redisMs()) <= oldMs + 60);
      const next = await store.append("p.s2.r1", note(2));
      expect(Number(await client.get("b4:total"))).toBe(JSON.stringify(note(2)).length);
      expect(await client.zRange("b4:streams", 0, -1)).toEqual(["p.s2.r1"]);
      expect((await replay(store, next)).stream).toBe("p.s2.r1");
    });

    it("deleteStream gives back the stream's bytes and its place", async () => {
      const store = new RedisEventStore({ client, keyPrefix: "b5:" });
      await store.append("p.s1.r1", note(1));
      await store.append("p.s1.r2", note(2));
      await store.deleteStream("p.s1.r1");
      expect(Number(await client.get("b5:total"))).toBe(JSON.stringify(note(2)).length);
      expect(await client.zRange("b5:streams", 0, -1)).toEqual(["p.s1.r2"]);
      expect(await client.zRange("b5:g:s1", 0, -1)).toEqual(["p.s1.r2"]);
      await store.deleteStream("p.s1.r2");
      expect(await keysOf("b5:")).toEqual([]);
    });

    it("validates the store-wide bounds", () => {
      const fake = { sendCommand: async () => 0 };
      for (const name of ["maxStreams", "maxTotalBytes", "maxStreamsPerSession"])
        expect(() => new RedisEventStore({ client: fake, [name]: 0 }), name).toThrow(
          new RegExp(`${name} must be a positive integer`),
        );
    });
  },
);
