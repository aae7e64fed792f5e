// (e) A rolling restart of the three replicas (SIGTERM, started again on the same port, one
// after another) under 1,000 open legacy sessions kept in Redis: the sessions survive, the
// calls in flight on a stopping replica finish (SIGTERM drains), requests through the
// balancer meanwhile are not lost, and the v1 SDK and generated clients listening on their
// GET streams get a notice sent afterwards (their streams reopened on the live replicas).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingForDeploy, REPLICA_NAMES } from "../cluster/cluster.js";
import { within } from "../../packages/cli/test/support/wait.js";
import { counts, recordRow } from "./report.js";
import {
  exited,
  generatedClient,
  inLanes,
  nonce,
  pause,
  rawCall,
  rawSession,
  restartReplica,
  settle,
  startFaultCluster,
  timeUntil,
  v1Client,
  wholeAgain,
  type FaultCluster,
  type SessionHeaders,
} from "./support.js";

/** Open legacy sessions during the restart (the count). */
const SESSIONS = 1_000;
/** Clients of each kind listening for notices on their GET streams. */
const LISTENERS = 10;
const LANES = 16;
/** Connections the balancer closes unanswered while replicas restart (see `load` below). */
const MAX_UNANSWERED = 5;

let cluster: FaultCluster;
beforeAll(async () => {
  if (!missingForDeploy) cluster = await startFaultCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** A listening client's record: GET streams open now, notices heard. */
interface Listener {
  kind: "v1" | "generated";
  open: number;
  notices: number;
  /** The status of each GET it sent (printed for a client that stopped listening). */
  gets: number[];
  close(): Promise<unknown>;
}

async function listener(kind: Listener["kind"], i: number): Promise<Listener> {
  const record: Listener = { kind, open: 0, notices: 0, gets: [], close: async () => {} };
  const hooks = {
    onNotice: (method: string) =>
      void (method === "notifications/tools/list_changed" && record.notices++),
    onStream: (open: boolean) => void (record.open += open ? 1 : -1),
    onExchange: (method: string, _body: unknown, status: number) =>
      void (method === "GET" && record.gets.push(status)),
  };
  if (kind === "v1") {
    const v1 = await v1Client(cluster.roundRobinUrl, `v1-listener-${i}`, hooks);
    record.close = v1.close;
  } else {
    const client = generatedClient(cluster, cluster.roundRobinUrl, "legacy", `gen-${i}`, hooks);
    await client.callTool({ name: "whoami" });
    record.close = () => client.close().catch(() => {});
  }
  return record;
}

/** Stops replica `name` with SIGTERM while a call runs on it: whether the call finished. */
async function drainOne(name: string) {
  const replica = cluster.replicas.get(name)!;
  const direct = new URL(`http://${replica.address}/mcp`);
  const client = generatedClient(cluster, direct, "modern", `drain-${name}`);
  const n = nonce("e");
  const call = client.callTool({ name: "steps", arguments: { nonce: n, count: 5, ms: 200 } });
  call.catch(() => {});
  await replica.printed(`STEP ${name} ${n} 1`);
  const gone = new Promise((resolve) => replica.process.once("exit", resolve));
  replica.process.kill("SIGTERM");
  const outcome = await settle(call);
  await within(gone, `replica ${name} exiting after SIGTERM`, 30_000);
  await restartReplica(cluster, name);
  return outcome;
}

describe.skipIf(Boolean(missingForDeploy))("a rolling restart", () => {
  it("(e) all replicas restarted in turn under 1,000 sessions: sessions survive, calls drain, notices reach every client", async () => {
    await wholeAgain(cluster);
    const url = cluster.roundRobinUrl;
    const opened = (
      await inLanes(Array.from({ length: SESSIONS }), LANES, () => rawSession(url))
    ).filter((s): s is SessionHeaders => s !== undefined);
    const listeners = await Promise.all([
      ...Array.from({ length: LISTENERS }, (_, i) => listener("v1", i)),
      ...Array.from({ length: LISTENERS }, (_, i) => listener("generated", i)),
    ]);
    const allListening = () => listeners.every((l) => l.open > 0);
    await timeUntil(async () => allListening(), 20_000);
    const listeningBefore = listeners.filter((l) => l.open > 0).length;

    // Requests through the balancer all along: four sessions calling back to back.
    let loading = true;
    // `unanswered`: the client's kept-alive connection to the balancer closed before any
    // response (undici: "other side closed"). Seen 0 to 2 times a run, while a replica
    // closes; HAProxy's log (option httplog) showed no request for it, so no replica got it
    // and the client may send it again. Counted apart, bounded, and open: not understood yet
    // (docs/reference/faults.md).
    const load = { sent: 0, lost: 0, unanswered: 0, how: new Map<string, number>() };
    const closedUnanswered = (reply: { status: unknown; error?: string }) =>
      reply.status === "failed" && /other side closed/.test(reply.error ?? "");
    const background = Promise.all(
      opened.slice(0, 4).map(async (session) => {
        while (loading) {
          const reply = await rawCall(url, session, "whoami");
          load.sent++;
          if (closedUnanswered(reply)) load.unanswered++;
          else if (reply.status !== 200 || reply.reply?.error) {
            load.lost++;
            const why = reply.reply?.error?.message ?? reply.error ?? "";
            const how = `${reply.status} ${JSON.stringify(why)}`;
            load.how.set(how, (load.how.get(how) ?? 0) + 1);
          }
        }
      }),
    );
    const started = performance.now();
    const drained = [];
    for (const name of REPLICA_NAMES) drained.push(await drainOne(name));
    const restartMs = Math.round(performance.now() - started);
    loading = false;
    await background;

    // Every session, on whichever replica the balancer picks now.
    const surviving = (await inLanes(opened, LANES, (s) => rawCall(url, s, "whoami"))).filter(
      (r) => r.status === 200 && !r.reply?.error,
    ).length;
    // The listeners' GET streams, reopened on live replicas, then a notice from one replica.
    const relistenedMs = await timeUntil(async () => allListening(), 20_000);
    const listeningAfter = listeners.filter((l) => l.open > 0).length;
    const announcer = generatedClient(cluster, url, "modern", "announcer");
    for (const l of listeners) l.notices = 0;
    await announcer.callTool({ name: "announce" });
    await timeUntil(async () => listeners.every((l) => l.notices > 0), 15_000);
    // A notice delivered twice shows as a count above 1 (after a short wait for stragglers).
    await pause(500);
    const reached = (kind: Listener["kind"]) =>
      listeners.filter((l) => l.kind === kind && l.notices > 0).length;
    const twice = listeners.filter((l) => l.notices > 1).length;
    const drainedOk = drained.filter((o) => o.kind === "result").length;
    const held =
      surviving === SESSIONS &&
      drainedOk === REPLICA_NAMES.length &&
      load.lost === 0 &&
      load.unanswered <= MAX_UNANSWERED &&
      reached("v1") === LISTENERS &&
      reached("generated") === LISTENERS &&
      twice === 0;
    recordRow({
      fault: "(e) rolling restart (SIGTERM, restart, next) under 1,000 open legacy sessions",
      promise:
        "every session survives (Redis); calls in flight drain; no request through the balancer lost; a notice afterwards reaches every v1 and generated client once",
      observed: counts({
        "sessions surviving": `${surviving}/${SESSIONS} (opened ${opened.length})`,
        "in-flight calls drained": `${drainedOk}/${REPLICA_NAMES.length}`,
        "requests lost": `${load.lost}/${load.sent}`,
        "connections closed unanswered by the balancer": load.unanswered,
        "lost as": [...load.how].map(([how, n]) => `${n} x ${how}`).join("; ") || "-",
        "notices reached v1": `${reached("v1")}/${LISTENERS}`,
        generated: `${reached("generated")}/${LISTENERS}`,
        "delivered twice": twice,
        "GET streams open before/after": `${listeningBefore}/${listeningAfter}`,
        "restart ms": restartMs,
        "streams back after ms": relistenedMs ?? "never",
      }),
      held,
    });
    for (const [i, o] of drained.entries())
      console.log(
        `(e) drain of ${REPLICA_NAMES[i]}: ${o.kind} ${o.kind === "error" ? o.error : ""}`,
      );
    for (const l of listeners.filter((l) => l.open === 0))
      console.log(`(e) a ${l.kind} client not listening; its GETs: ${l.gets.join(" ")}`);
    await Promise.all(listeners.map((l) => l.close()));
    expect(opened).toHaveLength(SESSIONS);
    expect(surviving).toBe(SESSIONS);
    expect(drained.map((o) => o.kind)).toEqual(["result", "result", "result"]);
    expect(load.lost).toBe(0);
    expect(load.unanswered).toBeLessThanOrEqual(MAX_UNANSWERED);
    expect([reached("v1"), reached("generated"), twice]).toEqual([LISTENERS, LISTENERS, 0]);
    expect([...cluster.replicas.values()].filter(exited)).toHaveLength(0);
  });
});
