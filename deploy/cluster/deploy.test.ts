// The real deployment: HAProxy (the OS package, configured by
// examples/deployment/haproxy.cfg, the file the deployment guide shows) in front of three
// processes of one generated dual-era server (deploy/cluster/replica.mjs) sharing a real redis-server (their legacy session store) and a
// request-state secret. `npm run test:deploy`; .ci/run installs haproxy and redis-server.
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../packages/cli/src/generators/emit/index.js";
import { loadRevision } from "../../packages/cli/src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "../../packages/cli/test/helpers.js";
import { within } from "../../packages/cli/test/support/wait.js";
import { missingForDeploy, REPLICA_NAMES, startCluster, type Cluster } from "./cluster.js";
import { startReplica, type Replica } from "./processes.js";

type Any = any;

const NAMES = REPLICA_NAMES;
const missing = missingForDeploy;
const WHY_SKIPPED = missing ? ` (skipped: ${missing} not installed; .ci/run installs them)` : "";

let cluster: Cluster | undefined;
let replicas: Map<string, Replica>;
let roundRobinUrl: URL;
let stickyUrl: URL;
let modernClientDir: string;
let replicaDir: string;
let replicaEnv: Readonly<Record<string, string>>;

beforeAll(async () => {
  if (missing) return;
  modernClientDir = writeGenerated(
    await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["client"]),
  );
  cluster = await startCluster();
  ({ replicas, roundRobinUrl, stickyUrl, replicaDir, replicaEnv } = cluster);
});

afterAll(async () => {
  await cluster?.stop();
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

/** The replicas still running. */
const alive = () =>
  [...replicas.values()].filter((r) => r.process.exitCode === null && !r.process.killed);

/** A promise with its resolver outside. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A v1 SDK client through `url` whose standalone GET stream the test watches: the ids of the
 * messages it carried, each GET's Last-Event-ID, and a gate that holds a reconnecting GET
 * (one with Last-Event-ID) until the test opens it. It reconnects by itself, as the v1
 * StreamableHTTPClientTransport does when its GET stream breaks, after 50 ms instead of 1 s.
 */
async function watchedLegacyClient(url: URL, name: string) {
  const client = new V1Client({ name, version: "1.0.0" });
  const seen = { listChanged: 0, updated: [] as string[], next: () => {} };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    seen.listChanged++;
    seen.next();
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
    seen.updated.push(n.params.uri);
    seen.next();
  });
  const gets: { lastEventId: string | null; status: number }[] = [];
  const ids: string[] = [];
  const opened = signal();
  const reconnecting = signal();
  const reconnect = signal();
  const watching = async (input: Any, init?: RequestInit) => {
    if (init?.method !== "GET") return fetch(input, init);
    const lastEventId = new Headers(init.headers).get("last-event-id");
    if (lastEventId !== null) {
      reconnecting.resolve();
      await reconnect.promise;
    }
    const response = await fetch(input, init);
    gets.push({ lastEventId, status: response.status });
    if (!response.ok || !response.body) return response;
    opened.resolve();
    const [mine, theirs] = response.body.tee();
    void collectIds(mine, ids);
    return new Response(theirs, { status: response.status, headers: response.headers });
  };
  const transport = new V1HttpTransport(url, {
    fetch: watching,
    reconnectionOptions: {
      initialReconnectionDelay: 50,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 5,
    },
  });
  // The broken stream is reported through onerror (the client reconnects all the same).
  const errors: string[] = [];
  await client.connect(transport);
  client.onerror = (error) => errors.push(String(error));
  /** Resolves once `ready()` holds, checked on each notification. */
  const until = (ready: () => boolean, what: string) =>
    within(
      new Promise<void>((resolve) => {
        seen.next = () => ready() && resolve();
        seen.next();
      }),
      what,
    );
  return { client, transport, seen, gets, ids, opened, reconnecting, reconnect, until, errors };
}

/** Collects the ids of the SSE events carrying a message on `body`. */
async function collectIds(body: ReadableStream<Uint8Array>, ids: string[]): Promise<void> {
  let text = "";
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      const blocks = text.split("\n\n");
      text = blocks.pop()!;
      for (const block of blocks) {
        const id = /^id: (.*)$/m.exec(block)?.[1];
        if (id !== undefined && /^data: ./m.test(block)) ids.push(id);
      }
    }
  } catch {
    // the connection broke: the replica died
  }
}

/** Calls `tool` on `replica` directly (not through the balancer) with a modern client. */
async function callOn(replica: Replica, tool: string, args?: object) {
  const direct = await modernClient(new URL(`http://${replica.address}/mcp`));
  return parsed(await direct.callTool({ name: tool, ...(args ? { arguments: args } : {}) }));
}

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

  // Before the tests that kill replicas for good: this one starts the one it kills again.
  it("the replica holding a legacy GET stream dies: the client resumes elsewhere, nothing missed or twice", async () => {
    const uri = "test://watched";
    const watched = await watchedLegacyClient(roundRobinUrl, "v1-resumer");
    const { client, seen, gets, ids } = watched;
    await within(watched.opened.promise, "the v1 client's GET stream");
    await client.subscribeResource({ uri });
    // Which replica holds the stream: the one where an announcement reaches a session here.
    let holder: Replica | undefined;
    for (const replica of alive())
      if ((await callOn(replica, "announce")).here > 0) holder = replica;
    await watched.until(() => seen.listChanged === 3, "three list changes before the kill");
    expect(holder).toBeDefined();
    const lastBefore = ids.at(-1)!;
    expect(ids).toHaveLength(3);

    holder!.process.kill("SIGKILL");
    await within(watched.reconnecting.promise, "the client reconnecting with Last-Event-ID");
    // While the client is away (its GET held back by the test): notices from the others.
    const others = alive();
    expect(others).toHaveLength(2);
    for (const replica of others) {
      await callOn(replica, "announce");
      await callOn(replica, "update-resource", { uri });
      await callOn(replica, "update-resource", { uri: "test://not-watched" });
    }
    watched.reconnect.resolve();
    await watched.until(
      () => seen.listChanged === 5 && seen.updated.length === 2,
      "what was sent while away, on the resumed stream",
    );
    // The reconnection went through the balancer, with the last id the client had, and was
    // answered by a replica that never wrote the stream before.
    expect(gets.map((g) => g.lastEventId)).toEqual([null, lastBefore]);
    expect(gets.map((g) => g.status)).toEqual([200, 200]);
    // After the resumption the stream is live on its new replica: notices from each one left.
    for (const replica of others) {
      await callOn(replica, "announce");
      await callOn(replica, "update-resource", { uri });
    }
    await watched.until(
      () => seen.listChanged === 7 && seen.updated.length === 4,
      "notices on the resumed stream",
    );
    // Exactly these, each once: 7 list changes and 4 updates of the watched resource, every
    // message with its own id, all on the one stream the client first opened.
    expect(seen.listChanged).toBe(7);
    expect(seen.updated).toEqual([uri, uri, uri, uri]);
    expect(ids).toHaveLength(11);
    expect(new Set(ids).size).toBe(11);
    expect(new Set(ids.map((id) => id.split(":")[0]))).toEqual(new Set([lastBefore.split(":")[0]]));
    await watched.transport.terminateSession();
    await client.close();

    // The dead replica comes back where HAProxy looks for it, for the tests after this one.
    const port = holder!.address.split(":").at(-1)!;
    const again = await startReplica(replicaDir, holder!.name, { ...replicaEnv, PORT: port });
    replicas.set(holder!.name, again);
    const modern = await modernClient(roundRobinUrl);
    const back = async () => {
      for (;;)
        if (parsed(await modern.callTool({ name: "whoami" })).instance === again.name) return;
    };
    await within(back(), `HAProxy sending to replica ${again.name} again`, 20_000);
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
