// A call whose instance died, on the Redis event store (a real redis-server): three
// instances in one process, each with its own RedisEventStore (its own connection and lease,
// as three replicas have), sharing a session store. "Killing" A closes its server and its
// Redis connection: its lease is no longer renewed, as when its process dies.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectRedisEventStore, RedisEventStore } from "../src/redis.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { within } from "../../cli/test/support/wait.js";
import { redisMissing, startRedis, type RunningRedis } from "../../cli/test/support/redis.js";
import {
  call,
  gates,
  get,
  messages,
  open,
  post,
  readAll,
  readUntil,
  resetGates,
  start,
  type Any,
  type Server,
} from "./resume-support.js";

const WHY_SKIPPED = redisMissing ? ` (skipped: ${redisMissing})` : "";
/** Short leases, so that a dead instance is found out within the tests' deadlines. */
const LEASE = { leaseMs: 600, leaseRefreshMs: 150 };
const RETRY_MS = 50;

type Store = Awaited<ReturnType<typeof connectRedisEventStore>>;

describe.skipIf(redisMissing !== undefined)(`a call whose instance died${WHY_SKIPPED}`, () => {
  let redis: RunningRedis;
  const running: { server: Server; store: Store }[] = [];
  beforeAll(async () => (redis = await startRedis()));
  afterAll(() => redis?.stop());
  afterEach(async () => {
    gates.more.open();
    const stopping = running.splice(0);
    await Promise.all(stopping.map(({ server }) => server.close()));
    await Promise.all(stopping.map(({ store }) => store.close().catch(() => undefined)));
  });

  async function instances(count: number) {
    const sessionStore = new MemorySessionStore();
    const started = [];
    for (let i = 0; i < count; i++) {
      const store = await connectRedisEventStore({ url: redis.url, ...LEASE });
      const server = await start({ sessionStore, eventStore: store, sseRetryMs: RETRY_MS });
      const instance = { server, store };
      running.push(instance);
      started.push(instance);
    }
    return started;
  }

  /** A "slow" call on `on`, read up to its first progress: the id the client holds then. */
  async function callUntilProgress(on: Server, session: string): Promise<string> {
    resetGates();
    const r = await post(on.url, call("slow", 7), { "mcp-session-id": session });
    const first = await readUntil(r, (events) => messages(events).length === 1);
    await gates.started.opened;
    return first.at(-1)!.id!;
  }

  /** Kills an instance: no server, no Redis connection, no lease renewed. */
  async function kill(instance: { server: Server; store: Store }) {
    running.splice(running.indexOf(instance), 1);
    await instance.server.close();
    await instance.store.close();
  }

  /**
   * Resumes after `lastEventId` through `url` as a client following the spec does: each
   * time the server closes with `retry`, waits that long and resumes after the last id it
   * got. Until a response comes, or 204 (nothing more comes).
   */
  async function pollUntilOver(url: string, session: string, lastEventId: string) {
    const received: { id: string | undefined; message: Any }[] = [];
    let last = lastEventId;
    for (;;) {
      const r = await get(url, session, last);
      if (r.status === 204) return received;
      expect(r.status).toBe(200);
      const events = await readAll(r);
      received.push(...messages(events));
      if (received.some((m) => m.message.id !== undefined && !m.message.method)) return received;
      last = events.filter((e) => e.id).at(-1)?.id ?? last;
      await new Promise((resolve) => setTimeout(resolve, events.at(-1)?.retry ?? RETRY_MS));
    }
  }

  it("ends with an error the client sees on its next resumptions, anywhere", async () => {
    const [a, b, c] = await instances(3);
    const session = await open(a!.server.url);
    const last = await callUntilProgress(a!.server, session);
    // A lives: B tells the client to poll, and ends nothing.
    const alive = await get(b!.server.url, session, last);
    const polled = await readAll(alive);
    expect(messages(polled)).toEqual([]);
    expect(polled.some((e) => e.retry === RETRY_MS)).toBe(true);
    await kill(a!);
    const received = await within(
      pollUntilOver(b!.server.url, session, last),
      "the call ended once A's lease lapsed",
    );
    expect(received.map((m) => m.message)).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32603, message: expect.stringMatching(/instance .* stopped/) },
      },
    ]);
    // Resumed after the error (the v1 SDK does): over, and 204 says so.
    expect((await get(c!.server.url, session, received[0]!.id!)).status).toBe(204);
  });

  it("ends once: two instances resuming at the same time record one error", async () => {
    const [a, b, c] = await instances(3);
    const session = await open(a!.server.url);
    const last = await callUntilProgress(a!.server, session);
    await kill(a!);
    const both = await within(
      Promise.all([b, c].map((i) => pollUntilOver(i!.server.url, session, last))),
      "the call ended on both",
    );
    const errors = new Set(both.flat().map((m) => m.id));
    expect(errors.size).toBe(1);
    // What the stream holds after the client's position: exactly one error.
    const kept = messages(await readAll(await get(b!.server.url, session, last)));
    expect(kept.map((m) => m.message.error?.code)).toEqual([-32603]);
  });

  it("settles once: of two instances settling a dead holder's stream at once, one ends it", async () => {
    const stores = await Promise.all(
      [0, 1, 2].map(() => connectRedisEventStore({ url: redis.url, ...LEASE })),
    );
    const [holder, b, c] = stores as [Store, Store, Store];
    try {
      await holder.hold("p.x.once", { jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" } });
      const primed = await holder.append("p.x.once", undefined);
      expect(await b.settle("p.x.once")).toBe("held");
      // The holder dies: its lease is not renewed, and lapses (deleted here, not waited for).
      holder.stopLease();
      const raw = holder as unknown as { client: { sendCommand(a: string[]): Promise<unknown> } };
      const leases = (await raw.client.sendCommand(["KEYS", "mcp:events:lease:*"])) as string[];
      await raw.client.sendCommand(["DEL", ...leases]);
      const fates = await Promise.all([b.settle("p.x.once"), c.settle("p.x.once")]);
      expect(fates.sort()).toEqual(["ended", "over"]);
      const replayed: object[] = [];
      await b.replayAfter(primed, (_id, message) => replayed.push(message));
      expect(replayed).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" } }]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("validates the lease options", () => {
    const client = { sendCommand: async () => null };
    expect(() => new RedisEventStore({ client, leaseMs: 0 })).toThrow(/leaseMs/);
    expect(() => new RedisEventStore({ client, leaseMs: 1000, leaseRefreshMs: 1000 })).toThrow(
      /less than leaseMs/,
    );
  });
});
