// Legacy sessions with no stickiness at all (issue 25, point 5): the v1 SDK client (1.32.2)
// through HAProxy's plain round robin frontend, in front of three replicas sharing Redis
// (their session store and their message bus). A tools/call's replica asks the client a
// question; the client's answer, POSTed through the balancer, lands on another replica,
// which forwards it over Redis pub/sub to the one whose handler waits. A cancellation sent
// through another replica stops the call where it runs. Each replica prints what it
// publishes and receives on the bus (replica.mjs), so the test names the replicas involved.
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../packages/cli/test/support/wait.js";
import { missingForDeploy, startCluster, type Cluster } from "./cluster.js";
import type { Replica } from "./processes.js";

type Any = any;

const WHY_SKIPPED = missingForDeploy
  ? ` (skipped: ${missingForDeploy} not installed; .ci/run installs them)`
  : "";
/** Calls made until one shows what is tested crossing replicas (round robin makes the first do). */
const ATTEMPTS = 3;

let cluster: Cluster;

beforeAll(async () => {
  if (!missingForDeploy) cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** A v1 SDK client through the round robin frontend, answering each question with its nonce. */
async function roamingClient(name: string) {
  const client = new V1Client({ name, version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (r) => ({
    action: "accept",
    content: { v: `answer to ${r.params.message}` },
  }));
  const transport = new V1HttpTransport(cluster.roundRobinUrl);
  await client.connect(transport);
  return { client, transport };
}

const parsed = (result: Any) => JSON.parse(result.content[0].text);

/** The replica that prints a line matching `pattern` first (replicas that never do are ignored). */
const printing = (pattern: RegExp, what: string): Promise<Replica> =>
  within(
    Promise.race(
      [...cluster.replicas.values()].map((r) =>
        r.printed(pattern, 30_000).then(
          () => r,
          () => new Promise<never>(() => {}),
        ),
      ),
    ),
    what,
    30_000,
  );

/** Regex-safe `text`. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A bus line of replica `who` (a name, or any), publishing or receiving on `channel` with `marker`. */
const busLine = (who: string, kind: "publish" | "receive", channel: string, marker: string) =>
  new RegExp(`^RELAY ${who} ${kind} ${literal(channel)}\\S* .*${literal(marker)}`, "m");

/** The names of the replicas whose output so far has a bus line (see busLine). */
const onBus = (kind: "publish" | "receive", channel: string, marker: string) =>
  [...cluster.replicas.values()]
    .filter((r) => busLine(r.name, kind, channel, marker).test(r.output()))
    .map((r) => r.name);

describe.skipIf(Boolean(missingForDeploy))(
  `a legacy session with no stickiness: answers and cancellations cross replicas${WHY_SKIPPED}`,
  () => {
    it("the client's answer reaches the replica whose tools/call asked, through another", async () => {
      const { client, transport } = await roamingClient("v1-answering");
      let crossed: { asked: string; through: string } | undefined;
      for (let i = 0; i < ATTEMPTS && !crossed; i++) {
        const nonce = `n${i}-${Date.now().toString(36)}`;
        const result = parsed(await client.callTool({ name: "ask-answer", arguments: { nonce } }));
        // The answer reached the handler that asked, wherever the client's POST landed.
        const answer = `answer to Answer ${nonce}?`;
        expect(result.answer).toBe(answer);
        const asked = cluster.replicas.get(result.instance)!;
        await asked.printed(`ANSWERED ${asked.name} ${nonce}`);
        // Printed before the handler ran again: the answer came over the bus, or did not
        // (its POST landed on the replica that asked, which took it itself).
        if (!busLine(asked.name, "receive", "mcp-gen:answers:", answer).test(asked.output()))
          continue;
        // Printed before it published: the replica the client's POST reached.
        const through = await printing(
          busLine("\\w+", "publish", "mcp-gen:answers:", answer),
          "the replica that forwarded the answer",
        );
        crossed = { asked: asked.name, through: through.name };
        // Only the replica that asked got it: the answer went on its own channel.
        expect(onBus("receive", "mcp-gen:answers:", answer)).toEqual([asked.name]);
        expect(onBus("publish", "mcp-gen:answers:", answer)).toEqual([through.name]);
      }
      expect(crossed, `an answer forwarded within ${ATTEMPTS} calls`).toBeDefined();
      expect(crossed!.through).not.toBe(crossed!.asked);
      await transport.terminateSession();
      await client.close();
    });

    it("a cancellation sent through another replica stops the call where it runs", async () => {
      const { client, transport } = await roamingClient("v1-cancelling");
      let crossed: { runs: string; through: string } | undefined;
      for (let i = 0; i < ATTEMPTS && !crossed; i++) {
        const nonce = `c${i}-${Date.now().toString(36)}`;
        const stop = new AbortController();
        const call = client
          .callTool({ name: "wait-cancel", arguments: { nonce } }, undefined, {
            signal: stop.signal,
          })
          .then(
            () => "answered",
            (error: Error) => error,
          );
        const runs = await printing(new RegExp(`^WAITING \\w+ ${nonce}$`, "m"), "the call running");
        stop.abort(`stop-${nonce}`);
        // The v1 SDK rejects at once and sends notifications/cancelled.
        expect(String(await within(call, "the v1 client's call rejected"))).toMatch(
          `stop-${nonce}`,
        );
        // The handler saw its signal abort with the client's reason: the call stopped.
        await runs.printed(`CANCELLED ${runs.name} ${nonce} stop-${nonce}`);
        // Printed before the cancellation was delivered: it came over the bus, or did not
        // (its POST landed on the replica running the call, which cancelled it itself).
        if (!busLine(runs.name, "receive", "mcp-gen:cancels", `stop-${nonce}`).test(runs.output()))
          continue;
        const through = await printing(
          busLine("\\w+", "publish", "mcp-gen:cancels", `stop-${nonce}`),
          "the replica that forwarded the cancellation",
        );
        crossed = { runs: runs.name, through: through.name };
        expect(onBus("publish", "mcp-gen:cancels", `stop-${nonce}`)).toEqual([through.name]);
      }
      expect(crossed, `a cancellation forwarded within ${ATTEMPTS} calls`).toBeDefined();
      expect(crossed!.through).not.toBe(crossed!.runs);
      await transport.terminateSession();
      await client.close();
    });
  },
);
