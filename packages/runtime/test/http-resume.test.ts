// Resumable SSE streams of legacy sessions over real HTTP (2025-11-25 basic/transports,
// "Resumability and Redelivery"): event ids on POST response streams and the standalone GET
// stream, the priming event, replay after Last-Event-ID (nothing twice, nothing missed), the
// refusals, and modern streams staying without ids.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type EventStore } from "../src/transport/http/server/event-store.js";
import { MemoryEventStore } from "../src/stores/memory/event-store.js";
import { request } from "./fixture.js";
import { within } from "../../cli/test/support/wait.js";
import { note, observedStore } from "./event-store-support.js";
import {
  call,
  gates,
  get,
  messages,
  open,
  post,
  rawText,
  readAll,
  readUntil,
  resetGates,
  start,
  type Any,
  type Server,
} from "./resume-support.js";

describe("resumable streams of legacy sessions", () => {
  let server: Server;
  beforeAll(async () => (server = await start()));
  afterAll(() => server.close());

  it("a POST stream opens with a priming event and every message carries an id", async () => {
    const session = await open(server.url);
    const r = await post(server.url, call("chatty"), { "mcp-session-id": session });
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    const events = await readAll(r);
    // The first event has an id and empty data (2025-11-25 transports: priming).
    expect(events[0]).toMatchObject({ data: "", id: expect.stringMatching(/^p\./) });
    const sent = messages(events);
    expect(sent.map((m) => m.message.method ?? "result")).toEqual([
      "notifications/progress",
      "result",
    ]);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    // One stream: every id names the same stream, as the cursor within it.
    expect(new Set(ids.map((id) => id!.split(":")[0])).size).toBe(1);
  });

  it("a client that drops a POST stream resumes it with GET: the rest, nothing twice", async () => {
    resetGates();
    const session = await open(server.url);
    const r = await post(server.url, call("slow"), { "mcp-session-id": session });
    // Read the priming event and progress 1, then drop the connection.
    const dropped = server.dropped();
    const first = await readUntil(r, (events) => messages(events).length === 1);
    await gates.started.opened;
    await dropped;
    const last = first.at(-1)!.id!;
    // The handler goes on although the client went away (not a cancellation).
    gates.more.open();
    const resumed = await get(server.url, session, last);
    expect(resumed.status).toBe(200);
    const rest = messages(await readAll(resumed));
    expect(rest.map((m) => m.message.params?.n ?? m.message.result.content[0].text)).toEqual([
      2,
      3,
      "slow done",
    ]);
    expect(rest.every((m) => m.id!.startsWith(last.split(":")[0]!))).toBe(true);
    // Resuming again after the response: nothing left, the stream is over, and 204 says so
    // (an SSE client does not reconnect after it).
    const again = await get(server.url, session, rest.at(-1)!.id!);
    expect(again.status).toBe(204);
  });

  it("the standalone stream records what is sent while the client is away and replays it", async () => {
    const session = await open(server.url);
    const g = await get(server.url, session);
    expect(g.status).toBe(200);
    // The priming event, then the client goes away.
    let dropped = server.dropped();
    const [primed] = await readUntil(g, (events) => events.length === 1);
    expect(primed!.id).toMatch(/^g\./);
    await dropped;
    server.d.notifySessions(note(1));
    dropped = server.dropped();
    const [first] = messages(
      await readUntil(await get(server.url, session, primed!.id!), (e) => messages(e).length === 1),
    );
    expect(first!.message.params.n).toBe(1);
    await dropped;
    // Sent while the client is away again.
    server.d.notifySessions(note(2));
    server.d.notifySessions(note(3));
    const back = await get(server.url, session, first!.id!);
    let replayed: Any[] = [];
    // After the replay the stream goes on live on the same connection.
    const done = readUntil(back, (events) => {
      replayed = messages(events);
      if (replayed.length === 2) server.d.notifySessions(note(4));
      return replayed.length === 3;
    });
    await done;
    expect(replayed.map((m) => m.message.params.n)).toEqual([2, 3, 4]);
  });

  it("refuses a Last-Event-ID that is not this session's, or no longer kept, with 400", async () => {
    const alice = await open(server.url);
    const bob = await open(server.url);
    const r = await post(server.url, call("chatty"), { "mcp-session-id": alice });
    const aliceId = (await readAll(r))[0]!.id!;
    const foreign = await get(server.url, bob, aliceId);
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).error.message).toMatch(/not an event id of this session/);
    const malformed = await get(server.url, alice, "nonsense");
    expect(malformed.status).toBe(400);
    const [stream] = aliceId.split(":");
    const unknown = await get(server.url, alice, `${stream}:999`);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.message).toMatch(/not kept/);
  });
});

describe("retention and configuration", () => {
  it("an event dropped by retention cannot be resumed from: 400, never a silent gap", async () => {
    const server = await start({ eventStore: new MemoryEventStore({ maxEventsPerStream: 2 }) });
    try {
      const session = await open(server.url);
      const events = await readAll(
        await post(server.url, call("chatty"), { "mcp-session-id": session }),
      );
      // priming, progress, result: the priming event was dropped (two kept).
      expect((await get(server.url, session, events[0]!.id!)).status).toBe(400);
      const kept = await get(server.url, session, events[1]!.id!);
      expect(messages(await readAll(kept)).map((m) => m.id)).toEqual([events[2]!.id]);
    } finally {
      await server.close();
    }
  });

  it("eventStore: false writes no ids", async () => {
    const server = await start({ eventStore: false });
    try {
      const session = await open(server.url);
      const events = await readAll(
        await post(server.url, call("chatty"), { "mcp-session-id": session }),
      );
      expect(events.map((e) => e.id)).toEqual([undefined, undefined]);
    } finally {
      await server.close();
    }
  });

  it("a store that fails: the stream still flows, without ids, and the failure is reported", async () => {
    const reported: string[] = [];
    const failing: EventStore = {
      append: () => Promise.reject(new Error("store down")),
      replayAfter: () => Promise.reject(new Error("store down")),
      deleteStream: () => Promise.resolve(),
    };
    const server = await start({
      eventStore: failing,
      onError: (line: string) => reported.push(line),
    });
    try {
      const session = await open(server.url);
      const events = await readAll(
        await post(server.url, call("chatty"), { "mcp-session-id": session }),
      );
      expect(messages(events).map((m) => m.id)).toEqual([undefined, undefined]);
      expect(reported.join("\n")).toMatch(/no longer resumable: store down/);
      const resumed = await get(server.url, session, `p.x.y:1`);
      expect(resumed.status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it("rejects a bad sseRetryMs", async () => {
    await expect(start({ sseRetryMs: -1 })).rejects.toThrow(
      /sseRetryMs must be a positive integer/,
    );
  });

  it("modern requests' streams are not resumable: no ids", async () => {
    const server = await start();
    try {
      const r = await post(server.url, request("tools/call", 1, { name: "chatty" }), {
        "mcp-method": "tools/call",
        "mcp-name": "chatty",
        "mcp-protocol-version": "2099-01-01",
      });
      const events = await readAll(r);
      expect(events.length).toBe(2);
      expect(events.map((e) => e.id)).toEqual([undefined, undefined]);
    } finally {
      await server.close();
    }
  });
});

describe("resumable streams under the session rules (one standalone stream, DELETE)", () => {
  it("a newer GET closes the older, a resumption goes on with its stream, DELETE forgets it", async () => {
    const forgotten: string[] = [];
    const eventStore = observedStore(new MemoryEventStore(), {
      onDelete: (stream) => forgotten.push(stream),
    });
    const server = await start({ eventStore });
    try {
      const session = await open(server.url);
      // The older stream is read until the server ends it: a newer GET replaces it.
      let newer: Promise<Response> | undefined;
      const older = await readUntil(await get(server.url, session), () => {
        newer ??= get(server.url, session);
        return false;
      });
      expect(older[0]!.id).toMatch(/^g\./);
      let dropped = server.dropped();
      const current = await readUntil(await newer!, (events) => {
        if (events.length === 1) server.d.notifySessions(note(1));
        return messages(events).length === 1;
      });
      const [first] = messages(current);
      const streamId = first!.id!.split(":")[0]!;
      // The newer stream is another one, and its messages carry ids.
      expect(streamId).toMatch(/^g\./);
      expect(streamId).not.toBe(older[0]!.id!.split(":")[0]);
      expect(first!.message.params.n).toBe(1);
      await dropped;
      // Sent while the client is away: recorded, and replayed on resumption.
      server.d.notifySessions(note(2));
      dropped = server.dropped();
      let deleting: Promise<Response> | undefined;
      const resumed = await readUntil(await get(server.url, session, first!.id!), (events) => {
        deleting ??= fetch(server.url, {
          method: "DELETE",
          headers: { "mcp-session-id": session },
        });
        return messages(events).length > 1;
      });
      // DELETE ended the resumed stream (readUntil returned) and forgot its events.
      expect(messages(resumed).map((m) => m.message.params.n)).toEqual([2]);
      expect((await deleting!).status).toBe(200);
      expect(forgotten).toContain(streamId);
      expect((await get(server.url, session, first!.id!)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe("a resumed standalone stream keeps the limits of a new one", () => {
  // Fake interval timers and clock: the keep-alive and the idle limit run when the test moves
  // time, while the HTTP traffic runs for real.
  beforeEach(() => void vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] }));
  afterEach(() => void vi.useRealTimers());

  it("gets keep-alive comments and is closed after streamIdleTimeoutMs; the session stays", async () => {
    const server = await start({ sseKeepAliveMs: 1000, streamIdleTimeoutMs: 5000 });
    try {
      const session = await open(server.url);
      const dropped = server.dropped();
      const [primed] = await readUntil(await get(server.url, session), (e) => e.length === 1);
      await within(dropped, "the first GET dropped");
      server.d.notifySessions(note(1));
      const resumed = rawText(await get(server.url, session, primed!.id!));
      await within(resumed.seen('"n":1'), "the replayed notification");
      await vi.advanceTimersByTimeAsync(1000);
      await within(resumed.seen(": keep-alive"), "a keep-alive on the resumed stream");
      await vi.advanceTimersByTimeAsync(1000);
      await within(resumed.seen(": keep-alive", 2), "a second keep-alive");
      expect(resumed.state.ended).toBe(false);
      // A message restarts the idle clock, as on a new stream.
      server.d.notifySessions(note(2));
      await within(resumed.seen('"n":2'), "a live notification");
      await vi.advanceTimersByTimeAsync(4000);
      expect(resumed.state.ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1000);
      await within(resumed.ended, "the idle resumed stream closed");
      // The stream was closed, not ended: it records on, and the client can resume again.
      server.d.notifySessions(note(3));
      const ids = [...resumed.state.text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!);
      const again = await get(server.url, session, ids.at(-1)!);
      const [third] = messages(await readUntil(again, (e) => messages(e).length === 1));
      expect(third!.message.params.n).toBe(3);
    } finally {
      await server.close();
    }
  });
});
