// The in-memory event store: replay after an id (exactly what came after it, on its stream
// only), and each retention bound (events, bytes, age per stream; streams and bytes overall),
// on a clock the test moves.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETENTION,
  formatEventId,
  parseEventId,
  resolveRetention,
  utf8Length,
} from "../src/transport/http/server/event-store.js";
import { MemoryEventStore } from "../src/stores/memory/event-store.js";
import { note, replay } from "./event-store-support.js";

describe("MemoryEventStore", () => {
  it("replays what came after an event, on that stream only, each once, oldest first", async () => {
    const store = new MemoryEventStore();
    const priming = await store.append("a", undefined);
    const ids = [];
    for (let n = 1; n <= 3; n++) {
      ids.push(await store.append("a", note(n)));
      await store.append("b", note(100 + n));
    }
    expect(await replay(store, priming)).toMatchObject({ stream: "a", ns: [1, 2, 3] });
    const after1 = await replay(store, ids[0]!);
    expect(after1.ns).toEqual([2, 3]);
    expect(after1.sent.map(([id]) => id)).toEqual(ids.slice(1));
    expect((await replay(store, ids[2]!)).ns).toEqual([]);
    // Ids are unique, and name their stream.
    expect(new Set([priming, ...ids]).size).toBe(4);
    expect(ids.map((id) => parseEventId(id)?.streamId)).toEqual(["a", "a", "a"]);
  });

  it("keeps a message as it was sent, though the sender changes the object later", async () => {
    const store = new MemoryEventStore();
    const start = await store.append("a", undefined);
    const message = note(1);
    await store.append("a", message);
    message.params.n = 99;
    expect((await replay(store, start)).ns).toEqual([1]);
  });

  it("an unknown stream, cursor or malformed id replays nothing", async () => {
    const store = new MemoryEventStore();
    const id = await store.append("a", note(1));
    for (const bad of ["b:1", "a:2", "a:0", "a:x", "a", ":1", "a:1:2", `${id}\n`]) {
      const r = await replay(store, bad);
      expect(r, bad).toEqual({ stream: undefined, sent: [], ns: [] });
    }
  });

  it("maxEventsPerStream: the oldest go, and resuming from a dropped event is refused", async () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 3 });
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.append("a", note(n)));
    expect((await replay(store, ids[0]!)).stream).toBeUndefined();
    expect((await replay(store, ids[1]!)).stream).toBeUndefined();
    expect((await replay(store, ids[2]!)).ns).toEqual([4, 5]);
  });

  it("maxBytesPerStream: the oldest go until the stream fits; the newest always stays", async () => {
    const one = utf8Length(JSON.stringify(note(1, "x".repeat(100))));
    const store = new MemoryEventStore({ maxBytesPerStream: one * 2 });
    const ids = [];
    for (let n = 1; n <= 3; n++) ids.push(await store.append("a", note(n, "x".repeat(100))));
    expect((await replay(store, ids[0]!)).stream).toBeUndefined();
    expect((await replay(store, ids[1]!)).ns).toEqual([3]);
    const big = await store.append("a", note(4, "y".repeat(one * 3)));
    expect((await replay(store, ids[2]!)).stream).toBeUndefined();
    expect(await replay(store, big)).toMatchObject({ stream: "a", ns: [] });
    expect(store.size.bytes).toBe(utf8Length(JSON.stringify(note(4, "y".repeat(one * 3)))));
  });

  it("maxAgeMs: old events go, and so does a stream not written to for as long", async () => {
    let now = 1_000_000;
    const store = new MemoryEventStore({ maxAgeMs: 1000, now: () => now });
    const first = await store.append("a", note(1));
    now += 600;
    const second = await store.append("a", note(2));
    now += 500; // the first is 1100 ms old, the second 500
    expect((await replay(store, first)).stream).toBeUndefined();
    expect((await replay(store, second)).stream).toBe("a");
    now += 501;
    expect((await replay(store, second)).stream).toBeUndefined();
    await store.append("b", note(3));
    expect(store.size.streams).toBe(1);
  });

  it("maxStreams and maxTotalBytes: the least recently written give way, never the one written", async () => {
    const store = new MemoryEventStore({ maxStreams: 2 });
    const a = await store.append("a", note(1));
    const b = await store.append("b", note(1));
    await store.append("a", note(2)); // a is now the most recently written
    await store.append("c", note(1));
    expect((await replay(store, b)).stream).toBeUndefined();
    expect((await replay(store, a)).ns).toEqual([2]);

    const size = utf8Length(JSON.stringify(note(1)));
    const small = new MemoryEventStore({ maxTotalBytes: size * 3 });
    const x = await small.append("x", note(1));
    await small.append("x", note(2));
    const y = await small.append("y", note(1));
    await small.append("y", note(2)); // 4 events: x's oldest goes
    expect(small.size.bytes).toBe(size * 3);
    expect((await replay(small, x)).stream).toBeUndefined();
    expect((await replay(small, y)).ns).toEqual([2]);
  });

  it("maxStreamsPerSession: a session's least recently written stream goes, no other's", async () => {
    // Stream ids `p.<session>.<rest>` and `g.<session>.<rest>` (the HTTP transport's) count per
    // session; others, like "n.a.b", count for none.
    const store = new MemoryEventStore({ maxStreamsPerSession: 2 });
    const first = await store.append("p.s1.r1", note(1));
    const second = await store.append("g.s1.r2", note(2));
    const other = await store.append("p.s2.r1", note(3));
    await store.append("p.s1.r1", note(4)); // r1 is now the session's most recently written
    await store.append("p.s1.r3", note(5));
    expect((await replay(store, second)).stream).toBeUndefined();
    expect((await replay(store, first)).ns).toEqual([4]);
    expect((await replay(store, other)).stream).toBe("p.s2.r1");
    await store.deleteStream("p.s1.r1");
    await store.append("p.s1.r4", note(6));
    for (const n of [1, 2, 3]) await store.append(`n.s1.${n}`, note(n));
    expect(store.size.streams).toBe(6);
  });

  it("deleteStream forgets a stream and its bytes", async () => {
    const store = new MemoryEventStore();
    const id = await store.append("a", note(1));
    await store.deleteStream("a");
    expect((await replay(store, id)).stream).toBeUndefined();
    expect(store.size).toEqual({ streams: 0, bytes: 0 });
  });

  it("validates its options and stream ids", () => {
    expect(resolveRetention()).toEqual(DEFAULT_RETENTION);
    for (const bad of [0, -1, 1.5, Number.NaN, "10"])
      expect(() => new MemoryEventStore({ maxEventsPerStream: bad as number })).toThrow(
        /maxEventsPerStream must be a positive integer/,
      );
    expect(() => new MemoryEventStore({ maxStreams: 0 })).toThrow(/maxStreams/);
    expect(() => new MemoryEventStore({ maxTotalBytes: 0 })).toThrow(/maxTotalBytes/);
    expect(() => new MemoryEventStore({ maxStreamsPerSession: 0 })).toThrow(
      /maxStreamsPerSession must be a positive integer/,
    );
    expect(() => formatEventId("a:b", "1")).toThrow(/stream id/);
    expect(() => formatEventId("", "1")).toThrow(/stream id/);
  });

  it("counts UTF-8 bytes", () => {
    for (const text of ["plain", "é", "€", "😀", "a😀é€"])
      expect(utf8Length(text), text).toBe(new TextEncoder().encode(text).length);
  });
});
