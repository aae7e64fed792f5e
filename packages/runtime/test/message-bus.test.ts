// Session notices across instances: each "instance" here is a dispatcher stand-in recording
// what its own sessions were sent, sharing one in-process bus.
import { describe, expect, it } from "vitest";
import {
  InProcessMessageBus,
  MAX_NOTICE_CHARS,
  shareSessionNotices,
  type MessageBus,
} from "../src/server/message-bus.js";

/** A dispatcher's notice methods, recording deliveries to "its sessions" (two of them). */
function instance() {
  const delivered: string[] = [];
  const dispatcher = {
    notifySessions(notification: object, filter?: (session: never) => boolean) {
      delivered.push(JSON.stringify(notification) + (filter ? " (filtered)" : ""));
      return 2;
    },
    resourceUpdated(uri: string) {
      delivered.push(`updated ${uri}`);
      return 1;
    },
  };
  return { dispatcher, delivered };
}

/** Resolves once the bus has delivered what was published before (it delivers a turn later). */
const settled = () => new Promise<void>((resolve) => queueMicrotask(() => queueMicrotask(resolve)));

describe("shareSessionNotices on the in-process bus", () => {
  it("a notice on one instance reaches every instance once, its own at once", async () => {
    const bus = new InProcessMessageBus();
    const [a, b, c] = [instance(), instance(), instance()];
    const shares = await Promise.all([a, b, c].map((i) => shareSessionNotices(i.dispatcher, bus)));
    const listChanged = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
    expect(a.dispatcher.notifySessions(listChanged)).toBe(2);
    expect(a.delivered).toEqual([JSON.stringify(listChanged)]);
    expect(b.delivered).toEqual([]);
    await settled();
    for (const i of [a, b, c]) expect(i.delivered).toEqual([JSON.stringify(listChanged)]);
    expect(b.dispatcher.resourceUpdated("file:///x")).toBe(1);
    await settled();
    for (const i of [a, b, c]) expect(i.delivered.slice(1)).toEqual(["updated file:///x"]);
    await Promise.all(shares.map((s) => s.close()));
  });

  it("keeps a filtered notice on its instance, and close() restores the dispatcher", async () => {
    const bus = new InProcessMessageBus();
    const [a, b] = [instance(), instance()];
    const original = a.dispatcher.notifySessions;
    const share = await shareSessionNotices(a.dispatcher, bus);
    await shareSessionNotices(b.dispatcher, bus);
    a.dispatcher.notifySessions({ method: "m" }, () => true);
    await settled();
    expect(a.delivered).toEqual(['{"method":"m"} (filtered)']);
    expect(b.delivered).toEqual([]);
    await share.close();
    expect(a.dispatcher.notifySessions).toBe(original);
    b.dispatcher.notifySessions({ method: "n" });
    await settled();
    expect(a.delivered).toHaveLength(1);
  });

  it("reports what is not a notice, and refuses an oversized one", async () => {
    const bus = new InProcessMessageBus();
    const errors: unknown[] = [];
    const a = instance();
    await shareSessionNotices(a.dispatcher, bus, { channel: "c", onError: (e) => errors.push(e) });
    for (const junk of ["not json", "[]", '{"from":1}', '{"from":"x","notification":[1]}'])
      await bus.publish("c", junk);
    await bus.publish("c", JSON.stringify({ from: "x", pad: "y".repeat(MAX_NOTICE_CHARS) }));
    expect(errors).toHaveLength(5);
    expect(a.delivered).toEqual([]);
    a.dispatcher.notifySessions({ method: "big", params: { pad: "z".repeat(MAX_NOTICE_CHARS) } });
    expect(errors).toHaveLength(6);
    expect(String(errors[5])).toMatch(/over 65536 characters/);
  });

  it("is refused on a dispatcher without legacy sessions", async () => {
    const bus: MessageBus = new InProcessMessageBus();
    await expect(shareSessionNotices({}, bus)).rejects.toThrow(/no legacy sessions/);
  });
});
