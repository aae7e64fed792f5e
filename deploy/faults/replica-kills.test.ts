// Replicas killed (SIGKILL) in the middle of a call, behind HAProxy's round robin: (c) the
// replica writing a call's stream (its progress and log messages), (d) the replica whose
// call waits for the client's answer to an elicitation, killed before the answer. Each kind
// of client: the v1 SDK (a 2025-11-25 session), the generated client in a 2025-11-25
// session, and the generated client in 2026-07-28 (stateless: its control).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingForDeploy } from "../cluster/cluster.js";
import { killReplica } from "../cluster/processes.js";
import { counts, recordRow } from "./report.js";
import {
  exited,
  generatedClient,
  HUNG_AFTER_MS,
  nonce,
  printedBy,
  printing,
  restartReplica,
  settle,
  startFaultCluster,
  tally,
  v1Client,
  wholeAgain,
  type ClientHooks,
  type FaultCluster,
  type Outcome,
} from "./support.js";

type Any = any;
/** Calls per kind of client and case. */
const TRIALS = 2;
const KINDS = ["v1 legacy", "generated legacy", "generated modern"] as const;
type Kind = (typeof KINDS)[number];

let cluster: FaultCluster;
beforeAll(async () => {
  if (!missingForDeploy) cluster = await startFaultCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** `call`, marked as handled now: its outcome is settled later, after the kill. */
const handledLater = <T>(call: Promise<T>) => (call.catch(() => {}), call);

/** A client of `kind` through the balancer, and how it calls a tool with a progress listener. */
async function clientOf(kind: Kind, hooks: ClientHooks = {}) {
  const url = cluster.roundRobinUrl;
  if (kind === "v1 legacy") {
    const { client, close } = await v1Client(url, "v1-kills", hooks);
    return {
      call: (name: string, args: Record<string, unknown>, onProgress: (n: number) => void) =>
        handledLater(
          client.callTool({ name, arguments: args }, undefined, {
            onprogress: (p) => onProgress(p.progress),
          }),
        ),
      close,
    };
  }
  const era = kind === "generated legacy" ? "legacy" : "modern";
  const client = generatedClient(cluster, url, era, `gen-${era}-kills`, hooks);
  return {
    call: (name: string, args: Record<string, unknown>, onProgress: (n: number) => void) =>
      handledLater(
        client.callTool(
          { name, arguments: args },
          { onProgress: (p: Any) => onProgress(p.progress), logLevel: "info" },
        ),
      ),
    close: () => client.close().catch(() => {}),
  };
}

describe.skipIf(Boolean(missingForDeploy))("replicas killed mid-call", () => {
  it("(c) the replica writing a call's stream killed: a result or an error promptly, 0 hung, 0 duplicated events", async () => {
    await wholeAgain(cluster);
    const rows: { kind: Kind; outcome: Outcome; progress: number[]; runs: number }[] = [];
    for (const kind of KINDS)
      for (let trial = 0; trial < TRIALS; trial++) {
        const client = await clientOf(kind);
        const progress: number[] = [];
        const n = nonce("c");
        const call = client.call("steps", { nonce: n, count: 8, ms: 250 }, (p) => progress.push(p));
        const holder = await printing(cluster, new RegExp(`^STEP \\w+ ${n} 3$`, "m"), "step 3");
        await killReplica(holder);
        const outcome = await settle(call);
        // Replicas that started the call: more than one, and it was run twice.
        const runs = printedBy(cluster, new RegExp(`^STEP \\w+ ${n} 1$`, "m"));
        rows.push({ kind, outcome, progress: [...progress], runs });
        console.log(
          `(c) ${kind}: ${outcome.kind} after ${outcome.ms} ms, progress [${progress.join(",")}]` +
            (outcome.kind === "error" ? `: ${outcome.error.slice(0, 160)}` : ""),
        );
        await client.close();
        await restartReplica(cluster, holder.name);
      }
    const outcomes = rows.map((r) => r.outcome);
    const repeated = rows.reduce((sum, r) => sum + r.progress.length - new Set(r.progress).size, 0);
    // Lost: a step missing below the last one the client got (what came after the kill
    // was never sent).
    const lost = rows.reduce(
      (sum, r) => sum + Math.max(0, ...r.progress) - new Set(r.progress).size,
      0,
    );
    const runTwice = rows.filter((r) => r.runs > 1).length;
    const { results, errors, hung } = tally(outcomes);
    const slowest = Math.max(...outcomes.filter((o) => o.kind !== "hung").map((o) => o.ms), 0);
    const byKind = KINDS.map((k) => {
      const t = tally(rows.filter((r) => r.kind === k).map((r) => r.outcome));
      return `${k} ${t.results}/${t.errors}/${t.hung}`;
    }).join("; ");
    recordRow({
      fault: "(c) SIGKILL of the replica writing a call's stream, mid-call",
      promise:
        "the client gets the result (if stored) or an error promptly; 0 hung; events never repeated",
      observed: `${counts({
        calls: outcomes.length,
        results,
        errors,
        hung,
        "calls run twice": runTwice,
        "events repeated": repeated,
        "events lost": lost,
        "slowest ms": slowest,
      })} (result/error/hung: ${byKind})`,
      held: hung === 0 && runTwice === 0 && repeated === 0 && lost === 0,
    });
    expect(hung).toBe(0);
    expect(runTwice).toBe(0);
    expect(repeated).toBe(0);
    expect(lost).toBe(0);
  });

  it("(d) the replica holding a pending elicitation killed: the answer is refused, the call ends in an error, 0 hung", async () => {
    await wholeAgain(cluster);
    const rows: { kind: Kind; outcome: Outcome; answerStatuses: number[]; runs: number }[] = [];
    for (const kind of KINDS)
      for (let trial = 0; trial < TRIALS; trial++) {
        const answerStatuses: number[] = [];
        let asked!: () => void;
        const wasAsked = new Promise<void>((resolve) => (asked = resolve));
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        const client = await clientOf(kind, {
          elicit: async () => (asked(), await released, "late"),
          // A POST carrying a JSON-RPC response: the client's answer to the elicitation.
          onExchange: (method, body, status) => {
            if (method === "POST" && body && !("method" in body) && "id" in body)
              answerStatuses.push(status);
          },
        });
        const n = nonce("d");
        const call = client.call("ask-answer", { nonce: n }, () => {});
        const asker = await printing(cluster, new RegExp(`^ASKING \\w+ ${n}$`, "m"), "asking");
        await settle(wasAsked, HUNG_AFTER_MS);
        await killReplica(asker);
        release();
        const outcome = await settle(call);
        // Replicas that asked: more than one, and the call was started again elsewhere.
        const runs = printedBy(cluster, new RegExp(`^ASKING \\w+ ${n}$`, "m"));
        rows.push({ kind, outcome, answerStatuses, runs });
        console.log(
          `(d) ${kind}: ${outcome.kind} after ${outcome.ms} ms, answer POSTs ${JSON.stringify(answerStatuses)}` +
            (outcome.kind === "error" ? `: ${outcome.error.slice(0, 160)}` : ""),
        );
        await client.close();
        if (exited(asker)) await restartReplica(cluster, asker.name);
      }
    const legacy = rows.filter((r) => r.kind !== "generated modern");
    const modern = rows.filter((r) => r.kind === "generated modern");
    const accepted = legacy.reduce(
      (sum, r) => sum + r.answerStatuses.filter((s) => s === 202).length,
      0,
    );
    const legacyTally = tally(legacy.map((r) => r.outcome));
    const runTwice = rows.filter((r) => r.runs > 1).length;
    const modernTally = tally(modern.map((r) => r.outcome));
    recordRow({
      fault: "(d) SIGKILL of the replica holding a pending elicitation, before the answer",
      promise:
        "legacy: the answer is refused (not 202) and the call ends in an error the client sees; modern: the retry is served elsewhere; 0 hung",
      observed: counts({
        "legacy calls": legacy.length,
        "answers accepted (202)": accepted,
        "legacy errors": legacyTally.errors,
        "legacy results": legacyTally.results,
        "legacy hung": legacyTally.hung,
        "modern results": `${modernTally.results}/${modern.length}`,
        "modern hung": modernTally.hung,
        "calls run twice": runTwice,
      }),
      held:
        accepted === 0 &&
        runTwice === 0 &&
        legacyTally.errors === legacy.length &&
        modernTally.results === modern.length,
    });
    expect(accepted).toBe(0);
    expect(runTwice).toBe(0);
    expect(legacyTally).toEqual({ results: 0, errors: legacy.length, hung: 0 });
    expect(modernTally).toEqual({ results: modern.length, errors: 0, hung: 0 });
  });
});
