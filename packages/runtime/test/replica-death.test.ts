// What a legacy client sees when the instance running its call is not the one its resumption
// reaches, or is gone (issue 35, "a replica killed between any two messages"): two instances
// in one process sharing a session store and an event store, as replicas behind a balancer
// that is not sticky share Redis.
import { afterEach, describe, expect, it } from "vitest";
import { MemoryEventStore } from "../src/stores/memory/event-store.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { InProcessMessageBus, type MessageBus } from "../src/server/message-bus.js";
import { note } from "./event-store-support.js";
import { callTool, instances, openSession, type Instance } from "./session-relay-support.js";
import { within } from "../../cli/test/support/wait.js";
import {
  call,
  gates,
  get,
  messages,
  open,
  post,
  rawText,
  readUntil,
  resetGates,
  start,
  type Server,
} from "./resume-support.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Two instances sharing a session store and an event store; `options` for both. */
async function pair(options: object = {}) {
  const shared = { sessionStore: new MemorySessionStore(), eventStore: new MemoryEventStore() };
  const a = await start({ ...shared, ...options });
  const b = await start({ ...shared, ...options });
  servers.push(a, b);
  return [a, b] as const;
}

describe("a resumption with nothing to replay", () => {
  it("keeps the client's position: the closing stream carries the last event id", async () => {
    resetGates();
    const [a, b] = await pair();
    const session = await open(a.url);
    const r = await post(a.url, call("slow"), { "mcp-session-id": session });
    const first = await readUntil(r, (events) => messages(events).length === 1);
    await gates.started.opened;
    const last = first.at(-1)!.id!;
    // B does not run the call, and nothing came since: it asks the client to poll again...
    const polled = await get(b.url, session, last);
    expect(polled.status).toBe(200);
    const text = rawText(polled);
    await within(text.ended, "the poll on B closed");
    // ...and re-sends the id, so that a client that keeps the id of the last event it got
    // (the v1 SDK) resumes from it, not with a plain GET that drops the call's result.
    expect(text.state.text).toMatch(/^retry: \d+$/m);
    expect(text.state.text).toContain(`id: ${last}\n`);
    gates.more.open();
  });

  it("sends its headers and the position at once (F10), not at the first keep-alive", async () => {
    const [a] = await pair({ sseKeepAliveMs: 3_600_000 });
    const session = await open(a.url);
    const g = await get(a.url, session);
    const [primed] = await readUntil(g, (events) => events.length === 1);
    const resumed = await within(get(a.url, session, primed!.id!), "the resumption's headers");
    expect(resumed.status).toBe(200);
    const text = rawText(resumed);
    // The server closing ends the stream; its reader lets go then.
    text.ended.catch(() => undefined);
    await within(text.seen(`id: ${primed!.id!}\n`), "the resumed position written");
  });
});

/** A bus for one instance whose subscriptions end when it "dies" (as a process's would). */
function mortalBus(bus: MessageBus) {
  const subscriptions: (() => Promise<void>)[] = [];
  return {
    bus: {
      publish: (channel, message) => bus.publish(channel, message),
      async subscribe(channel, listener) {
        const unsubscribe = await bus.subscribe(channel, listener);
        subscriptions.push(unsubscribe);
        return unsubscribe;
      },
    } satisfies MessageBus,
    die: () => Promise.all(subscriptions.map((unsubscribe) => unsubscribe())),
  };
}

describe("an answer no handler waits for", () => {
  let running: Instance[] = [];
  afterEach(async () => {
    await Promise.all(running.map((i) => i.server.close()));
    running = [];
  });

  it("is refused with 400 when the instance that asked died, not taken with 202", async () => {
    const shared = new InProcessMessageBus();
    const mortal = mortalBus(shared);
    const [a, b] = (running = await instances(
      ["a", "b"],
      (name) => (name === "a" ? mortal.bus : shared),
      { forwardedAnswerTimeoutMs: 300 },
    ));
    const session = await openSession(a!.server.url);
    const headers = { "mcp-session-id": session };
    const call = await post(a!.server.url, callTool("ask", 1), headers);
    const events = await within(
      readUntil(call, (e) => messages(e).at(-1)?.message.method === "elicitation/create"),
      "the elicitation",
    );
    const elicitation = messages(events).at(-1)!.message;
    await mortal.die();
    const answer = { jsonrpc: "2.0", id: elicitation.id, result: { action: "decline" } };
    const refused = await within(post(b!.server.url, answer, headers), "the answer refused");
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: expect.stringMatching(/no request .* waits/i) },
    });
  });

  it("is refused with 400 on the instance it reaches when nothing there waits for it", async () => {
    const [a] = await pair();
    const session = await open(a.url);
    const stray = { jsonrpc: "2.0", id: 42, result: { action: "accept", content: {} } };
    const refused = await post(a.url, stray, { "mcp-session-id": session });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe(-32600);
  });
});

describe("a session deleted through another instance", () => {
  let running: Instance[] = [];
  afterEach(async () => {
    await Promise.all(running.map((i) => i.server.close()));
    running = [];
  });

  it("stops taking notices at once on the instance holding its stream", async () => {
    const bus = new InProcessMessageBus();
    const [a, b] = (running = await instances(["a", "b"], () => bus));
    const session = await openSession(a!.server.url);
    const stream = rawText(await get(a!.server.url, session));
    await within(stream.seen("stream open"), "the stream open on A");
    expect(a!.server.d.notifySessions(note(1))).toBe(1);
    const deleted = await fetch(b!.server.url, {
      method: "DELETE",
      headers: { "mcp-session-id": session },
    });
    expect(deleted.status).toBe(200);
    expect(a!.server.d.notifySessions(note(2))).toBe(0);
    await within(stream.ended, "A closed the session's stream");
  });
});
