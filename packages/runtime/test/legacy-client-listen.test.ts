// A legacy client's standalone GET stream against a real server (node:http, the runtime's
// handler): a dropped connection is reopened with Last-Event-ID and the notices go on; a
// server that restarted and forgot the session gets a new initialize, without a call.
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LegacyClient } from "../src/client/legacy-client.js";
import { createHttpHandler } from "../src/transport/http/server/server.js";
import { createHttpTransport } from "../src/transport/http/client/client.js";
import { dispatcher } from "./resume-support.js";
import { LEGACY_PROTOCOL, PROTOCOL, VALIDATORS } from "./fixture.js";

type Any = any;

/** A server on `port` (0: a free one) counting the requests it gets, by verb and method. */
async function serve(port = 0) {
  const d = dispatcher();
  const handler = createHttpHandler(PROTOCOL, d, {});
  const seen: string[] = [];
  const server: NodeServer = createServer((req, res) => {
    seen.push(`${req.method} ${req.headers["last-event-id"] ?? ""}`.trim());
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { d: d as Any, server, seen, port: (server.address() as AddressInfo).port, stop };
}

const notice = (n: number) => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { level: "info", data: n },
});

function legacyClient(url: string) {
  const heard: unknown[] = [];
  const transport = createHttpTransport(PROTOCOL, {
    url,
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    onNotification: (n) => heard.push((n["params"] as { data: unknown }).data),
  });
  let id = 0;
  const client = new LegacyClient({
    modern: { protocol: PROTOCOL, validators: VALIDATORS },
    eras: [{ protocol: LEGACY_PROTOCOL, validators: VALIDATORS, adapters: {} }],
    versions: ["2098-01-01"],
    transport,
    capabilities: {},
    clientInfo: undefined,
    send: async (method, params, signal) => {
      const message = { jsonrpc: "2.0", id: ++id, method, params };
      const response = (await transport.request(message, signal ? { signal } : {})) as Any;
      if (response.error) throw new Error(response.error.message);
      return response.result;
    },
    onNotification: undefined,
    answerInput: () => undefined,
  });
  return { client, transport, heard };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the legacy client's standalone stream", () => {
  it("is reopened with Last-Event-ID after its connection drops, and hears what comes after", async () => {
    const server = await serve();
    cleanups.push(server.stop);
    const { client, heard } = legacyClient(`http://127.0.0.1:${server.port}/mcp`);
    cleanups.push(() => client.close());
    await client.open();
    expect(server.d.notifySessions(notice(1))).toBe(1);
    await vi.waitFor(() => expect(heard).toEqual([1]), { timeout: 10_000 });

    server.server.closeAllConnections();
    await vi.waitFor(
      () => expect(server.seen.filter((s) => s.startsWith("GET "))).toHaveLength(1),
      {
        timeout: 10_000,
      },
    );
    expect(server.d.notifySessions(notice(2))).toBe(1);
    await vi.waitFor(() => expect(heard).toEqual([1, 2]), { timeout: 10_000 });
    // One initialize, the first GET, and one reopening naming the last event it got.
    expect(server.seen.filter((s) => s.startsWith("GET"))).toHaveLength(2);
    expect(server.seen.filter((s) => s === "POST")).toHaveLength(2); // initialize, initialized
  });

  it("initializes again, without a call, when the server restarted and forgot the session", async () => {
    const first = await serve();
    const { client, heard } = legacyClient(`http://127.0.0.1:${first.port}/mcp`);
    cleanups.push(() => client.close());
    await client.open();
    await first.stop();
    const second = await serve(first.port);
    cleanups.push(second.stop);

    // The reopened GET gets 404; the client initializes, then opens its new session's stream.
    await vi.waitFor(() => expect(second.seen.filter((s) => s === "GET")).toHaveLength(1), {
      timeout: 10_000,
    });
    expect(second.seen.filter((s) => s.startsWith("GET "))).toHaveLength(1); // the 404
    expect(second.seen.filter((s) => s === "POST")).toHaveLength(2); // initialize, initialized
    await vi.waitFor(() => expect(second.d.notifySessions(notice(3))).toBe(1), {
      timeout: 10_000,
    });
    await vi.waitFor(() => expect(heard).toEqual([3]), { timeout: 10_000 });
  });

  it("initializes once when a call and the stream find the session gone together", async () => {
    const first = await serve();
    const { client } = legacyClient(`http://127.0.0.1:${first.port}/mcp`);
    cleanups.push(() => client.close());
    await client.open();
    await first.stop();
    const second = await serve(first.port);
    cleanups.push(second.stop);

    await Promise.all([client.reopen(), client.reopen(), client.reopen()]);
    await vi.waitFor(() => expect(second.seen.filter((s) => s === "GET")).toHaveLength(1), {
      timeout: 10_000,
    });
    expect(second.seen.filter((s) => s === "POST")).toHaveLength(2); // initialize, initialized
  });
});
