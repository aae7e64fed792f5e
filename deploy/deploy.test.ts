// The real deployment: HAProxy (the OS package, configured by
// examples/deployment/haproxy.cfg, the file the deployment guide shows) in front of three
// processes of one generated dual-era server (deploy/replica.mjs) sharing a real redis-server (their legacy session store) and a
// request-state secret. `npm run test:deploy`; .ci/run installs haproxy and redis-server.
import type { ChildProcess } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generators/index.js";
import { loadRevision } from "../schema/index.js";
import { SPEC_DIR, writeGenerated } from "../test/helpers.js";
import { redisServerPath, startRedis, type RunningRedis } from "../test/support/redis.js";
import { within } from "../test/support/wait.js";
import { freePort, haproxyPath, startHaproxy, startReplica, type Replica } from "./processes.js";

type Any = any;

const NAMES = ["a", "b", "c"] as const;
const missing = [haproxyPath() ? "" : "haproxy", redisServerPath() ? "" : "redis-server"]
  .filter(Boolean)
  .join(", ");
const WHY_SKIPPED = missing ? ` (skipped: ${missing} not installed; .ci/run installs them)` : "";

let redis: RunningRedis;
let haproxy: ChildProcess | undefined;
const replicas = new Map<string, Replica>();
let roundRobinUrl: URL;
let stickyUrl: URL;
let modernClientDir: string;

beforeAll(async () => {
  if (missing) return;
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const dir = writeGenerated(files);
  copyFileSync(join(import.meta.dirname, "replica.mjs"), join(dir, "replica.mjs"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  modernClientDir = writeGenerated(
    await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["client"]),
  );
  redis = await startRedis();
  const env = { STATE_SECRET: "a secret every replica shares!!", REDIS_URL: redis.url };
  for (const [name, replica] of await Promise.all(
    NAMES.map(async (name) => [name, await startReplica(dir, name, env)] as const),
  ))
    replicas.set(name, replica);
  const [rr, sticky] = [await freePort(), await freePort()];
  haproxy = await startHaproxy(
    join(import.meta.dirname, "..", "examples", "deployment", "haproxy.cfg"),
    {
      MCP_RR_PORT: String(rr),
      MCP_STICKY_PORT: String(sticky),
      MCP_A: replicas.get("a")!.address,
      MCP_B: replicas.get("b")!.address,
      MCP_C: replicas.get("c")!.address,
    },
  );
  roundRobinUrl = new URL(`http://127.0.0.1:${rr}/mcp`);
  stickyUrl = new URL(`http://127.0.0.1:${sticky}/mcp`);
});

afterAll(async () => {
  haproxy?.kill("SIGKILL");
  for (const replica of replicas.values()) replica.process.kill("SIGKILL");
  await redis?.stop();
});

/** The generated modern client, through `url`, answering the two-rounds tool's questions. */
async function modernClient(url: URL) {
  const [client, http] = await Promise.all(
    ["client.js", "http-client.js"].map((m) => import(join(modernClientDir, m))),
  );
  const answers: Record<string, string> = { "First?": "one", "Second?": "two" };
  return client.createClient({
    transport: http.createHttpTransport({ url: url.href }),
    inputHandlers: {
      "elicitation/create": async (p: Any) => ({
        action: "accept",
        content: { v: answers[p.message] },
      }),
    },
  });
}

/**
 * A v1 SDK (1.32.2) client connected through `url`, answering elicitations, counting
 * list_changed notifications; `streamOpen` resolves when its GET stream is answered.
 */
async function legacyClient(url: URL, name: string) {
  const client = new V1Client({ name, version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (r) => ({
    action: "accept",
    content: { v: r.params.message === "First?" ? "uno" : "dos" },
  }));
  const listChanged: { count: number; next?: () => void } = { count: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged.count++;
    listChanged.next?.();
  });
  let streamOpened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (streamOpened = resolve));
  const watching = async (input: Any, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (init?.method === "GET" && response.ok) streamOpened();
    return response;
  };
  const transport = new V1HttpTransport(url, { fetch: watching });
  await client.connect(transport);
  return { client, transport, listChanged, streamOpen };
}

const parsed = (result: Any) => JSON.parse(result.content[0].text);

describe.skipIf(Boolean(missing))(`three replicas behind HAProxy with Redis${WHY_SKIPPED}`, () => {
  it("modern clients are spread round robin, multi round-trip rounds on several replicas", async () => {
    const client = await modernClient(roundRobinUrl);
    const served = new Set<string>();
    for (let i = 0; i < 6; i++)
      served.add(parsed(await client.callTool({ name: "whoami" })).instance);
    expect(served).toEqual(new Set(NAMES));
    const result = parsed(await client.callTool({ name: "two-rounds" }));
    expect([result.first, result.second]).toEqual(["one", "two"]);
    // Three rounds, each on the next replica: the request state sealed on one opens on another.
    expect(new Set(result.rounds).size).toBeGreaterThan(1);
  });

  it("a legacy session with sticky routing stays on one replica, its elicitations included", async () => {
    const { client, transport } = await legacyClient(stickyUrl, "v1-sticky");
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const who = parsed(await client.callTool({ name: "whoami", arguments: {} }));
      expect(who.client).toBe("v1-sticky");
      served.add(who.instance);
    }
    expect(served.size).toBe(1);
    const result = parsed(await client.callTool({ name: "two-rounds", arguments: {} }));
    expect([result.first, result.second]).toEqual(["uno", "dos"]);
    expect(new Set(result.rounds)).toEqual(served);
    await transport.terminateSession();
    await client.close();
  });

  it("a legacy session with plain round robin is served by every replica (the Redis store)", async () => {
    const { client, transport, listChanged, streamOpen } = await legacyClient(
      roundRobinUrl,
      "v1-roaming",
    );
    await client.setLoggingLevel("warning");
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const who = parsed(await client.callTool({ name: "whoami", arguments: {} }));
      // Each replica knows the client from the session record in Redis.
      expect(who.client).toBe("v1-roaming");
      served.add(who.instance);
    }
    expect(served).toEqual(new Set(NAMES));
    const listed = await client.listTools();
    // A list change announced on each replica in turn (called directly, not through the
    // balancer) reaches the client's GET stream, open on one of them: the Redis bus.
    await within(streamOpen, "the v1 client's GET stream");
    for (const [i, replica] of [...replicas.values()].entries()) {
      const direct = await modernClient(new URL(`http://${replica.address}/mcp`));
      const arrived = new Promise<void>((resolve) => (listChanged.next = resolve));
      await direct.callTool({ name: "announce" });
      await within(arrived, `list_changed announced on replica ${replica.name}`);
      expect(listChanged.count).toBe(i + 1);
    }
    expect(listed.tools.map((t) => t.name)).toContain("whoami");
    await transport.terminateSession();
    await client.close();
  });

  // Last so that the others run with three replicas. A request already sent to a replica
  // that dies is not sent again (it may have had effects): HAProxy answers 502 when the
  // replica dies before answering, and the client surfaces that as an error.
  it("a replica killed in the middle of a call: the client gets an error, not a hang", async () => {
    const client = await modernClient(roundRobinUrl);
    const started = Promise.race([...replicas.values()].map((r) => r.callStarted.then(() => r)));
    const call = client.callTool({ name: "never-answers" }).then(
      () => "answered",
      (error: Error) => error,
    );
    const victim = await within(started, "the call reaching a replica");
    victim.process.kill("SIGKILL");
    const outcome = await within(call, "the client's outcome after the kill");
    expect(outcome).toBeInstanceOf(Error);
    // HAProxy resets the client's connection when the replica's goes (ECONNRESET), or
    // answers 502 when the replica was not reached: either way an error.
    expect(String((outcome as Error).message)).toMatch(/ECONNRESET|502/);
    // The balancer takes the dead replica out; later calls go to the two left.
    const served = new Set<string>();
    for (let i = 0; i < 4; i++)
      served.add(parsed(await client.callTool({ name: "whoami" })).instance);
    expect(served.has(victim.name)).toBe(false);
    expect(served.size).toBe(2);
  });

  it("a legacy session's replica killed mid-call: an error, and the session goes on elsewhere", async () => {
    const alive = [...replicas.values()].filter(
      (r) => r.process.exitCode === null && !r.process.killed,
    );
    const { client } = await legacyClient(stickyUrl, "v1-survivor");
    const home = parsed(await client.callTool({ name: "whoami", arguments: {} })).instance;
    const victim = alive.find((r) => r.name === home)!;
    const call = client.callTool({ name: "never-answers", arguments: {} }).then(
      () => "answered",
      (error: Error) => error,
    );
    await within(victim.callStarted, "the call reaching the session's replica");
    victim.process.kill("SIGKILL");
    const outcome = await within(call, "the client's outcome after the kill", 20_000);
    expect(outcome).toBeInstanceOf(Error);
    // The v1 SDK's POST fails as its connection is reset ("fetch failed").
    expect(String(outcome)).toMatch(/fetch failed|502/);
    // The stick-table names a dead replica: HAProxy redispatches, and the session, in Redis,
    // is served by a replica that never saw it before.
    const next = parsed(await client.callTool({ name: "whoami", arguments: {} }));
    expect(next).toMatchObject({ client: "v1-survivor" });
    expect(next.instance).not.toBe(home);
    await client.close();
  });
});
