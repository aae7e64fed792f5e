// A shared session store that stalls or fails (Redis paused, or away), without Redis: a store
// whose calls never settle, or reject, while the test says so. Legacy requests that need it
// get 503 with Retry-After and a JSON-RPC error within requestTimeoutMs, never a hang or a
// 500, and the outage is reported once; the store back, they are served again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { type SessionStore } from "../src/transport/http/server/sessions.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { within } from "../../cli/test/support/wait.js";
import { dualEras, LEGACY_INITIALIZE } from "./fixture.js";
import { serveSessions } from "./session-server.js";

type Mode = "up" | "stalled" | "failing";

/** A session store in memory that can be made to stall (never answer) or fail (reject). */
function faultyStore(): { store: SessionStore; mode: Mode } {
  const memory = new MemorySessionStore();
  const state = { mode: "up" as Mode, store: undefined as unknown as SessionStore };
  const call =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      state.mode === "stalled"
        ? new Promise<R>(() => undefined)
        : state.mode === "failing"
          ? Promise.reject(new Error("connection refused"))
          : method.apply(memory, args);
  state.store = {
    create: call(memory.create),
    get: call(memory.get),
    update: call(memory.update),
    touch: call(memory.touch),
    delete: call(memory.delete),
    count: call(memory.count),
  };
  return state;
}

describe("a session store that stalls or fails", () => {
  const faulty = faultyStore();
  const reported: string[] = [];
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const dispatcher = createEraDispatcher(dualEras(), { "tools/call": () => ({ content: [] }) });
    server = await serveSessions(dispatcher, {
      sessionStore: faulty.store,
      requestTimeoutMs: 200,
      onError: (line: string) => void reported.push(line),
    });
  });
  afterAll(() => server.close());

  const send = (method: string, body?: object, session?: string) =>
    fetch(server.url, {
      method,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session ? { "mcp-session-id": session } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const PING = { jsonrpc: "2.0", id: 5, method: "ping" };

  /** What the client gets for each request needing the store. */
  async function answers(session: string) {
    const requests = [
      send("POST", LEGACY_INITIALIZE),
      send("POST", PING, session),
      send("GET", undefined, session),
      send("DELETE", undefined, session),
    ];
    return Promise.all(
      requests.map(async (request) => {
        const response = await within(request, "an answer", 10_000);
        const body = (await response.json()) as { error?: { code: number } };
        return [response.status, response.headers.get("retry-after"), body.error?.code];
      }),
    );
  }

  for (const mode of ["stalled", "failing"] as const)
    it(`${mode}: 503 with Retry-After and a JSON-RPC error, reported once; then served`, async () => {
      reported.length = 0;
      faulty.mode = "up";
      const opened = await send("POST", LEGACY_INITIALIZE);
      const session = opened.headers.get("mcp-session-id")!;
      expect(opened.status).toBe(200);
      faulty.mode = mode;
      expect(await answers(session)).toEqual(Array(4).fill([503, "2", -32603]));
      expect(reported.filter((line) => /session store is unavailable/.test(line))).toHaveLength(1);
      faulty.mode = "up";
      const ping = await send("POST", PING, session);
      expect([ping.status, ((await ping.json()) as { result?: object }).result]).toEqual([200, {}]);
    });
});
