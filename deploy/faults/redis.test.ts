// Redis faults under the deployment (HAProxy round robin, three replicas, one redis-server):
// (a) redis-server restarted with SIGTERM and a 2 s gap, (b) redis-server paused 5 s
// (SIGSTOP, then SIGCONT). Redis runs without persistence, so a restart empties it: the
// legacy sessions opened before are gone (expected), those opened after must work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingForDeploy } from "../cluster/cluster.js";
import { counts, recordRow } from "./report.js";
import {
  allExited,
  exited,
  wholeAgain,
  generatedClient,
  HUNG_AFTER_MS,
  inLanes,
  parsed,
  pause,
  rawCall,
  rawDelete,
  rawSession,
  REQUEST_TIMEOUT_MS,
  settle,
  startFaultCluster,
  tally,
  timeUntil,
  v1Client,
  type FaultCluster,
  type Outcome,
  asOutcome,
} from "./support.js";

type Any = any;
/** How long redis-server is paused in case (b): longer than REQUEST_TIMEOUT_MS. */
const PAUSE_MS = 5_000;
let cluster: FaultCluster;

beforeAll(async () => {
  if (!missingForDeploy) cluster = await startFaultCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** A whoami through the balancer by each kind of client: the outcome of each. */
async function whoamiByEach(clients: Record<string, { callTool(p: Any): Promise<Any> }>) {
  const outcomes: Record<string, Outcome> = {};
  for (const [kind, client] of Object.entries(clients))
    outcomes[kind] = await settle(client.callTool({ name: "whoami", arguments: {} }));
  return outcomes;
}

describe.skipIf(Boolean(missingForDeploy))("Redis faults", () => {
  it("(a) redis-server restarted: no replica exits, both eras served again, new sessions work", async () => {
    const url = cluster.roundRobinUrl;
    const before = {
      v1: (await v1Client(url, "v1-before")).client,
      "generated legacy": generatedClient(cluster, url, "legacy", "gen-legacy-before"),
      "generated modern": generatedClient(cluster, url, "modern", "gen-modern-before"),
    };
    const served = await whoamiByEach(before);
    expect(Object.values(served).map((o) => o.kind)).toEqual(["result", "result", "result"]);

    await cluster.redis.restart({ gapMs: 2_000 });
    const restartedAt = performance.now();
    // Served again: a modern call through the balancer, then a new legacy session's call.
    const modern = generatedClient(cluster, url, "modern", "gen-modern-probe");
    const hopeless = () => allExited(cluster);
    const modernBack = await timeUntil(
      async () => Boolean(parsed(await modern.callTool({ name: "whoami" })).instance),
      30_000,
      hopeless,
    );
    const legacyBack = await timeUntil(
      async () => {
        const session = await rawSession(url, 5_000);
        return (
          session !== undefined && (await rawCall(url, session, "whoami", 5_000)).status === 200
        );
      },
      30_000,
      hopeless,
    );
    const recoveredMs = Math.round(performance.now() - restartedAt);
    const replicasExited = [...cluster.replicas.values()].filter(exited).length;

    // Sessions opened after the restart, by each legacy client, on every replica.
    const afterOutcomes: Outcome[] = [];
    const v1After = await settle(v1Client(url, "v1-after"));
    const genAfter = generatedClient(cluster, url, "legacy", "gen-legacy-after");
    for (let i = 0; i < 3; i++) {
      if (v1After.kind === "result")
        afterOutcomes.push(await settle(v1After.value.client.callTool({ name: "whoami" })));
      afterOutcomes.push(await settle(genAfter.callTool({ name: "whoami" })));
    }
    // The sessions from before: lost with Redis's data (no persistence). What each client sees.
    const old = await whoamiByEach(before);
    const row = {
      fault: "(a) redis-server restarted (SIGTERM, 2 s gap, no persistence)",
      promise:
        "no replica exits; both eras served again once Redis is back; new legacy sessions work; old ones are lost and the client is told",
      observed: counts({
        "replicas exited": replicasExited,
        "modern back after ms": modernBack ?? "never",
        "new legacy session back after ms": legacyBack ?? "never",
        "calls on new sessions ok": `${tally(afterOutcomes).results}/${afterOutcomes.length}`,
        "old sessions: v1": old["v1"]!.kind,
        "generated legacy": old["generated legacy"]!.kind,
        "generated modern": old["generated modern"]!.kind,
        hung: tally(Object.values(old)).hung,
      }),
      held: false,
    };
    const held =
      replicasExited === 0 &&
      modernBack !== undefined &&
      legacyBack !== undefined &&
      v1After.kind === "result" &&
      tally(afterOutcomes).results === afterOutcomes.length &&
      tally(Object.values(old)).hung === 0;
    recordRow({ ...row, held });
    console.log(`(a) recovered ${recoveredMs} ms after redis-server was back`);
    console.log(`(a) old sessions: ${JSON.stringify(old)}`);

    expect(replicasExited).toBe(0);
    expect(modernBack).toBeDefined();
    expect(legacyBack).toBeDefined();
    expect(v1After.kind).toBe("result");
    expect(tally(afterOutcomes)).toEqual({ results: afterOutcomes.length, errors: 0, hung: 0 });
    // Old sessions: never a hang; the modern client has no session to lose.
    expect(tally(Object.values(old)).hung).toBe(0);
    expect(old["generated modern"]!.kind).toBe("result");
    if (v1After.kind === "result") await v1After.value.close();
  });

  it("(b) redis-server paused 5 s: every request in flight answered or refused in time, none hung", async () => {
    await wholeAgain(cluster);
    const url = cluster.roundRobinUrl;
    const sessions = await inLanes(Array.from({ length: 9 }), 3, () => rawSession(url));
    expect(sessions.every(Boolean)).toBe(true);
    const v1 = await v1Client(url, "v1-paused");
    const genLegacy = generatedClient(cluster, url, "legacy", "gen-legacy-paused");
    const genModern = generatedClient(cluster, url, "modern", "gen-modern-paused");
    await genLegacy.callTool({ name: "whoami" });

    cluster.redis.pause();
    const resumed = pause(PAUSE_MS).then(() => cluster.redis.resume());
    // Sent while Redis answers nothing: the legacy requests that need it, and modern ones.
    const kinds: Record<string, Promise<Outcome>[]> = {
      "legacy tools/call (raw)": sessions
        .slice(0, 3)
        .map((s) => rawCall(url, s!, "whoami").then(asOutcome)),
      "legacy initialize (raw)": [0, 1, 2].map(() =>
        settle(rawSession(url).then((s) => s ?? Promise.reject(new Error("refused")))),
      ),
      "legacy DELETE (raw)": sessions.slice(3, 6).map((s) => rawDelete(url, s!).then(asOutcome)),
      "v1 tools/call": [settle(v1.client.callTool({ name: "whoami" }))],
      "generated legacy tools/call": [settle(genLegacy.callTool({ name: "whoami" }))],
      "generated modern tools/call": [settle(genModern.callTool({ name: "whoami" }))],
    };
    const outcomes = Object.fromEntries(
      await Promise.all(
        Object.entries(kinds).map(async ([k, list]) => [k, await Promise.all(list)] as const),
      ),
    );
    await resumed;
    const all = Object.values(outcomes).flat();
    const slowest = Math.max(...all.map((o) => o.ms));
    // All sent as the pause began: one that took PAUSE_MS or more waited for Redis to come
    // back, past its requestTimeoutMs (with 3 s of margin for a busy machine).
    const waitedForRedis = all.filter((o) => o.kind !== "hung" && o.ms >= PAUSE_MS).length;
    const backMs = await timeUntil(async () => {
      const s = await rawSession(url, 5_000);
      return s !== undefined && (await rawCall(url, s, "whoami", 5_000)).status === 200;
    });
    const { results, errors, hung } = tally(all);
    recordRow({
      fault: "(b) redis-server paused 5 s (SIGSTOP, SIGCONT)",
      promise: `every request in flight answered or refused with a clear error within requestTimeoutMs (${REQUEST_TIMEOUT_MS / 1000} s) + margin; none hung`,
      observed: counts({
        requests: all.length,
        answered: results,
        "clear errors": errors,
        "waited for Redis past the timeout": waitedForRedis,
        hung,
        "slowest ms": slowest,
        "legacy back after ms": backMs ?? "never",
      }),
      held: hung === 0 && waitedForRedis === 0 && backMs !== undefined,
    });
    for (const [kind, list] of Object.entries(outcomes))
      console.log(`(b) ${kind}: ${list.map((o) => `${o.kind} ${o.ms} ms`).join("; ")}`);
    expect(hung).toBe(0);
    expect(waitedForRedis).toBe(0);
    expect(slowest).toBeLessThan(HUNG_AFTER_MS);
    expect(backMs).toBeDefined();
    await v1.close();
  });
});
