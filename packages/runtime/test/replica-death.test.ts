// What a legacy client sees when the instance running its call is not the one its resumption
// reaches, or is gone (issue 35, "a replica killed between any two messages"): two instances
// in one process sharing a session store and an event store, as replicas behind a balancer
// that is not sticky share Redis.
import { afterEach, describe, expect, it } from "vitest";
import { MemoryEventStore } from "../src/transport/http/event-store.js";
import { MemorySessionStore } from "../src/transport/http/sessions.js";
import { within } from "../../../test/support/wait.js";
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
