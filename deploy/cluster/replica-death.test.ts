// A replica killed between two messages of a legacy call (issue 35), seen by the v1 SDK
// client (1.32.2) through HAProxy's plain round robin frontend: the call's replica sent a
// progress event (the client holds an event id of the call's stream) and dies; the client
// resumes on the replicas left. It must end with an error promptly (the dead replica's lease
// lapses: 2 s in replica.mjs), not wait out its 60 s timeout, nor lose its place in the
// stream when a poll finds nothing new.
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../packages/cli/test/support/wait.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { missingForDeploy, startCluster, type Cluster } from "./cluster.js";
import { killReplica, type Replica } from "./processes.js";

const WHY_SKIPPED = missingForDeploy
  ? ` (skipped: ${missingForDeploy} not installed; .ci/run installs them)`
  : "";

let cluster: Cluster;

beforeAll(async () => {
  if (!missingForDeploy) cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** The replica that prints a line matching `pattern` first (the others are ignored). */
const printing = (pattern: RegExp): Promise<Replica> =>
  Promise.race(
    [...cluster.replicas.values()].map((r) =>
      r.printed(pattern, 30_000).then(
        () => r,
        () => new Promise<never>(() => {}),
      ),
    ),
  );

/** A promise and its resolver. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

describe.skipIf(Boolean(missingForDeploy))(`a legacy call's replica killed${WHY_SKIPPED}`, () => {
  it("the v1 SDK's call ends with the server's error within seconds, not its timeout", async () => {
    const client = new V1Client({ name: "v1-orphan", version: "1.0.0" });
    const transport = new V1HttpTransport(cluster.roundRobinUrl);
    await client.connect(transport);
    const hanging = printing(/HANGING [abc]/);
    let progressed!: () => void;
    const progress = new Promise<void>((resolve) => (progressed = resolve));
    const call = client
      .callTool({ name: "progress-then-hang", arguments: {} }, undefined, {
        onprogress: () => progressed(),
      })
      .then(
        () => new Error("answered"),
        (error: Error) => error,
      );
    const victim = await within(hanging, "the call reaching a replica");
    // The client holds an event id of the call's stream once its progress arrived.
    await within(progress, "the call's progress reaching the client");
    victim.process.kill("SIGKILL");
    // Well under the SDK's 60 s request timeout: the lease (2 s) and a few polls.
    const outcome = await within(call, "the call's outcome after the kill", 20_000);
    expect(String(outcome.message)).toMatch(/instance running this request stopped/);
    expect((outcome as Error & { code?: number }).code).toBe(-32603);
    await client.close();
  });

  it("an answer to the dead replica's elicitation is refused, and the call ends with the error", async () => {
    const client = new V1Client(
      { name: "v1-late-answer", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    const asked = gate();
    const killed = gate();
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked.open();
      // Answered once the replica that asked is dead.
      await killed.opened;
      return { action: "accept", content: { v: "too late" } };
    });
    const transport = new V1HttpTransport(cluster.roundRobinUrl);
    const refused = gate<string>();
    // Where the SDK reports a response it could not send.
    client.onerror = (error) => {
      if (/Failed to send response/.test(String(error))) refused.open(String(error));
    };
    await client.connect(transport);
    const asking = printing(/ASKING [abc] orphaned/);
    const call = client.callTool({ name: "ask-answer", arguments: { nonce: "orphaned" } }).then(
      () => new Error("answered"),
      (error: Error) => error,
    );
    const victim = await within(asking, "the call's replica asking");
    await within(asked.opened, "the elicitation reaching the client");
    // Gone before the answer leaves: a POST round robin sends to a replica still dying is
    // reset by the kernel, not refused by a live replica (what this test is about).
    await killReplica(victim);
    killed.open();
    const outcome = await within(call, "the call's outcome after the kill", 20_000);
    expect(String(outcome.message)).toMatch(/instance running this request stopped/);
    // The answer's POST was refused (400: the replica it reached got no acknowledgement from
    // the dead one), not taken with 202 and lost.
    const refusal = await within(refused.opened, "the answer's POST refused");
    expect(refusal).toMatch(/"code":-32600,"message":"No request of this session waits/);
    await client.close();
  });
});
