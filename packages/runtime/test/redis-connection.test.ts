// The Redis connection policy without Redis (redis-faults.test.ts runs it against
// redis-server): the reconnect schedule's bounds, and one report per outage.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import {
  MAX_RECONNECT_DELAY_MS,
  reconnectDelay,
  watchRedisConnection,
  type RedisEvents,
} from "../src/stores/redis/redis-connection.js";

describe("the Redis connection policy", () => {
  it("waits 100 ms doubling to 2 s, plus at most 10%, however many attempts", () => {
    const bases = [100, 200, 400, 800, 1600, 2000, 2000];
    for (const [retries, base] of bases.entries()) {
      const delay = reconnectDelay(retries);
      expect(delay).toBeGreaterThanOrEqual(base);
      expect(delay).toBeLessThanOrEqual(Math.round(base * 1.1));
    }
    expect(reconnectDelay(1_000_000)).toBeLessThanOrEqual(MAX_RECONNECT_DELAY_MS * 1.1);
  });

  it("reports the first error of each outage, named, and nothing until it is ready again", () => {
    const client = new EventEmitter();
    const told: string[] = [];
    watchRedisConnection(client as unknown as RedisEvents, "session store", (error) =>
      told.push(error.message),
    );
    for (const outage of [1, 2]) {
      for (let attempt = 0; attempt < 5; attempt++)
        client.emit(
          "error",
          Object.assign(new Error(`refused ${outage}`), { code: "ECONNREFUSED" }),
        );
      client.emit("ready");
    }
    expect(told).toEqual([
      "Redis (session store): refused 1 (ECONNREFUSED)",
      "Redis (session store): refused 2 (ECONNREFUSED)",
    ]);
  });

  it("a listener that throws does not make the error unhandled", () => {
    const client = new EventEmitter();
    watchRedisConnection(client as unknown as RedisEvents, "bus", () => {
      throw new Error("listener bug");
    });
    expect(() => client.emit("error", new Error("lost"))).not.toThrow();
  });
});
