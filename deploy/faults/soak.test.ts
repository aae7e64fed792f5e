// (f) A bounded soak: 20,000 requests through the balancer in 500 legacy sessions, each
// opened, used and closed. Afterwards Redis holds the keys it held before (sessions and
// their event streams gone with them) and each replica's memory, after a full collection,
// is back near where it was: the heap within HEAP_TOLERANCE, RSS within RSS_TOLERANCE (RSS
// seldom shrinks all the way, the allocator keeps pages it had, so its bound is loose; a leak
// of what 500 sessions hold shows in the heap and in Redis's keys).
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingForDeploy } from "../cluster/cluster.js";
import { counts, recordRow } from "./report.js";
import {
  generatedClient,
  inLanes,
  parsed,
  pause,
  rawCall,
  rawDelete,
  rawSession,
  startFaultCluster,
  timeUntil,
  wholeAgain,
  type FaultCluster,
} from "./support.js";

const SESSIONS = 500;
/** Per session: initialize, initialized, CALLS tools/call, DELETE. */
const CALLS = 37;
const REQUESTS = SESSIONS * (CALLS + 3);
const LANES = 16;
/** Most a replica's RSS may grow over the soak, after gc: 50 % of its baseline plus 32 MiB. */
const RSS_TOLERANCE = (baseline: number) => baseline * 0.5 + 32 * 2 ** 20;
/** Most a replica's used heap may grow over the soak, after gc. */
const HEAP_TOLERANCE = 16 * 2 ** 20;
/** Sessions of the warm-up before the baseline is taken. */
const WARM_UP = 50;
const MiB = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

let cluster: FaultCluster;
beforeAll(async () => {
  if (!missingForDeploy) cluster = await startFaultCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** One session's life through the balancer: how many of its requests failed. */
async function sessionLife(url: URL): Promise<number> {
  const session = await rawSession(url);
  if (!session) return CALLS + 3;
  let failed = 0;
  for (let i = 0; i < CALLS; i++) {
    const reply = await rawCall(url, session, "whoami");
    if (reply.status !== 200 || reply.reply?.error) failed++;
  }
  const deleted = await rawDelete(url, session);
  return failed + (deleted.status === 200 ? 0 : 1);
}

/** Each replica's memory after gc, asked directly (not through the balancer). */
async function memories() {
  const out: Record<string, { rss: number; heapUsed: number }> = {};
  for (const [name, replica] of cluster.replicas) {
    const direct = generatedClient(
      cluster,
      new URL(`http://${replica.address}/mcp`),
      "modern",
      "mem",
    );
    out[name] = parsed(await direct.callTool({ name: "memory" }));
  }
  return out;
}

describe.skipIf(Boolean(missingForDeploy))("a bounded soak", () => {
  it("(f) 20,000 requests in 500 sessions opened and closed: Redis keys and replica RSS back to baseline", async () => {
    await wholeAgain(cluster);
    const url = cluster.roundRobinUrl;
    const redis = await createClient({ url: cluster.redis.url }).connect();
    const keys = async () => {
      let n = 0;
      for await (const batch of redis.scanIterator({ MATCH: "deploy:*", COUNT: 1000 }))
        n += batch.length;
      return { all: await redis.dbSize(), deploy: n };
    };
    try {
      // A warm-up (the replicas' code paths compiled, their pools filled), then the baseline.
      await inLanes(Array.from({ length: WARM_UP }), LANES, () => sessionLife(url));
      const keysBefore = await keys();
      const memoryBefore = await memories();

      const started = performance.now();
      const soaking = inLanes(Array.from({ length: SESSIONS }), LANES, () => sessionLife(url));
      // The most keys seen while the soak runs: the sessions it holds are there meanwhile
      // (so "back to baseline" is not trivially true).
      let peak = 0;
      let soaked = false;
      const watching = (async () => {
        while (!soaked) {
          peak = Math.max(peak, (await keys()).all);
          await pause(250);
        }
      })();
      const failed = (await soaking).reduce((a, b) => a + b, 0);
      soaked = true;
      await watching;
      const soakMs = Math.round(performance.now() - started);
      // Keys of ended sessions go at once; give the store a moment for any in flight.
      const keysSettledMs = await timeUntil(
        async () => (await keys()).all <= keysBefore.all,
        20_000,
      );
      const keysAfter = await keys();
      const memoryAfter = await memories();
      const grown = Object.keys(memoryBefore).map((name) => {
        const [b, a] = [memoryBefore[name]!, memoryAfter[name]!];
        return {
          name,
          rss: a.rss - b.rss,
          heap: a.heapUsed - b.heapUsed,
          within:
            a.rss - b.rss <= RSS_TOLERANCE(b.rss) && a.heapUsed - b.heapUsed <= HEAP_TOLERANCE,
        };
      });
      const rate = Math.round(REQUESTS / (soakMs / 1000));
      recordRow({
        fault: "(f) bounded soak: 20,000 legacy requests, 500 sessions opened and closed",
        promise:
          "no request lost; Redis keys back to their baseline; each replica's memory after gc near its baseline (heap within 16 MiB, RSS within 50 % + 32 MiB)",
        observed: counts({
          requests: REQUESTS,
          lost: failed,
          "req/s": rate,
          "Redis keys before/peak/after": `${keysBefore.all}/${peak}/${keysAfter.all}`,
          "keys settled after ms": keysSettledMs ?? "never",
          "RSS growth MiB": grown.map((g) => `${g.name} ${MiB(g.rss)}`).join(" "),
          "heap growth MiB": grown.map((g) => `${g.name} ${MiB(g.heap)}`).join(" "),
        }),
        held: failed === 0 && keysAfter.all <= keysBefore.all && grown.every((g) => g.within),
      });
      console.log(
        `(f) memory before ${JSON.stringify(memoryBefore)} after ${JSON.stringify(memoryAfter)}`,
      );
      if (keysAfter.all > keysBefore.all) {
        const left: string[] = [];
        for await (const batch of redis.scanIterator({ MATCH: "*", COUNT: 1000 }))
          left.push(...batch);
        console.log(`(f) keys left: ${left.length}, e.g. ${left.slice(0, 8).join(" ")}`);
      }
      expect(failed).toBe(0);
      expect(peak).toBeGreaterThan(keysBefore.all);
      expect(keysAfter.all).toBeLessThanOrEqual(keysBefore.all);
      expect(grown.filter((g) => !g.within)).toEqual([]);
    } finally {
      await redis.close();
    }
  });
});
