// What the resumable-stream tests share: a dual-era dispatcher of the fixture revision whose
// tools notify (one waits on a gate the test opens), a node:http server that says when a
// client dropped a response, and raw HTTP helpers for sessions and SSE.
import { createServer } from "node:http";
import { expect } from "vitest";
import type { AddressInfo } from "node:net";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { createHttpHandler } from "../src/transport/http/server/server.js";
import { readSseEvents, type SseEvent } from "../src/transport/sse.js";
import { LEGACY_PROTOCOL as LEGACY, PROTOCOL, VALIDATORS } from "./fixture.js";

export type Any = any;

/** A promise and its resolver: a handler waits on one the test opens. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** What the "slow" tool waits for (`more`), and tells it passed its first notification (`started`). */
export const gates = { more: gate(), started: gate() };
export function resetGates(): void {
  gates.more = gate();
  gates.started = gate();
}

export function dispatcher() {
  const eras = {
    modern: { protocol: PROTOCOL, validators: VALIDATORS },
    legacy: [{ protocol: LEGACY, validators: VALIDATORS, adapters: {} }],
  };
  return createEraDispatcher(eras, {
    "tools/call": async (params: { name: string }, ctx: Any) => {
      if (params.name === "slow") {
        await ctx.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { n: 1 } });
        gates.started.open();
        await gates.more.opened;
        await ctx.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { n: 2 } });
        await ctx.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { n: 3 } });
        return { content: [{ type: "text", text: "slow done" }] };
      }
      if (params.name === "chatty") {
        await ctx.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { n: 1 } });
        return { content: [] };
      }
      return { content: [] };
    },
  });
}

export interface Server {
  url: string;
  close(): Promise<void>;
  d: ReturnType<typeof dispatcher>;
  /** Resolves when the server sees the client drop a response it had not ended. */
  dropped(): Promise<void>;
}

/** Serves `d` (default: a new dispatcher) on a free port; `options` are the handler's. */
export async function start(options: Any = {}, d = dispatcher()): Promise<Server> {
  const handler = createHttpHandler(PROTOCOL, d, options);
  let drop = gate();
  const server = createServer((req, res) => {
    res.on("close", () => {
      if (res.writableEnded) return;
      drop.open();
      drop = gate();
    });
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    d,
    dropped: () => drop.opened,
  };
}

export const post = (url: string, body: object, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });

export async function open(url: string): Promise<string> {
  const r = await post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2098-01-01",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    },
  });
  expect(r.status).toBe(200);
  return r.headers.get("mcp-session-id")!;
}

export const call = (name: string, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name },
});

/** Reads events of a response until `stop` says so (then lets go: the connection closes). */
export async function readUntil(response: Response, stop: (events: SseEvent[]) => boolean) {
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(response.body!, 1 << 20)) {
    events.push(event);
    if (stop(events)) break;
  }
  return events;
}
export const readAll = (response: Response) => readUntil(response, () => false);
/** The JSON messages among events, with their ids. */
export const messages = (events: SseEvent[]) =>
  events.filter((e) => e.data !== "").map((e) => ({ id: e.id, message: JSON.parse(e.data) }));

export const get = (url: string, session: string, lastEventId?: string) =>
  fetch(url, {
    method: "GET",
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": session,
      ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
    },
  });

/**
 * The raw text of an SSE response as it arrives (comments included, which `readSseEvents`
 * skips): `seen` resolves once the text holds a part, `ended` once the server ended it.
 */
export function rawText(response: Response) {
  const state = { text: "", ended: false };
  const waiters = new Set<() => void>();
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) {
      state.text += decoder.decode(chunk, { stream: true });
      for (const check of [...waiters]) check();
    }
    state.ended = true;
  })();
  return {
    state,
    ended: done,
    /** Resolves once the text received holds `part` `count` times. */
    seen(part: string, count = 1): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (state.text.split(part).length - 1 < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
  };
}
