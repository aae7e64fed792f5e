// How the HTTP client transport fails when the connection does: a dropped response stream is
// resumed like a closed one (2025-11-25 basic/transports "Resumability and Redelivery"), a
// connection that fails otherwise is a TransportError, and close() really closes.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  createHttpTransport,
  HttpTransportError,
  TransportError,
} from "../src/transport/http/client/client.js";
import { within } from "../../cli/test/support/wait.js";
import { PROTOCOL } from "./fixture.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: any) => void;
interface Seen {
  method: string;
  lastEventId?: string;
}

/** A legacy server (session s-1) whose other messages go to `handler`; records what it saw. */
async function legacyServer(handler: Handler) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const lastEventId = req.headers["last-event-id"] as string | undefined;
    seen.push({ method: body?.method ?? req.method!, ...(lastEventId ? { lastEventId } : {}) });
    if (body?.method === "initialize") {
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" });
      return res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: {} }));
    }
    if (req.method === "DELETE") return res.writeHead(200).end();
    handler(req, res, body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const stop = () => (server.closeAllConnections(), server.close());
  return { url, seen, stop };
}

async function openSession(url: string, resumeQuietMs?: number) {
  const transport = createHttpTransport(PROTOCOL, {
    url,
    ...(resumeQuietMs ? { resumeQuietMs } : {}),
  });
  transport.legacy!.reset();
  await transport.request({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
  transport.legacy!.begin("2025-11-25");
  return transport;
}

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } });
const primed = (res: ServerResponse, then?: () => void) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write("id: e1\nretry: 50\ndata: \n\n", then);
};

describe("HTTP client transport: a dropped response stream", () => {
  it("is resumed with Last-Event-ID, as a closed one is", async () => {
    const server = await legacyServer((req, res) => {
      // The connection drops once the priming event is on its way.
      if (req.method === "POST") return primed(res, () => res.destroy());
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `id: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 2, result: { ok: true } })}\n\n`,
      );
    });
    try {
      const transport = await openSession(server.url);
      expect(await transport.request(call(2))).toEqual({
        jsonrpc: "2.0",
        id: 2,
        result: { ok: true },
      });
      expect(server.seen.slice(1)).toEqual([
        { method: "tools/call" },
        { method: "GET", lastEventId: "e1" },
      ]);
    } finally {
      server.stop();
    }
  });

  it("fails with TransportError (dropped) when it cannot be resumed, after 5 resumptions that bring nothing new", async () => {
    const server = await legacyServer((_req, res) => primed(res, () => res.destroy()));
    try {
      // The shortest quiet time: the count of quiet resumptions (5) decides.
      const transport = await openSession(server.url, 1);
      const error = await transport.request(call(2)).catch((e) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ kind: "dropped" });
      expect(error.message).toMatch(/resumed with nothing new for longer than resumeQuietMs/);
      expect(server.seen.filter((s) => s.method === "GET").length).toBe(5);
    } finally {
      server.stop();
    }
  });
});

describe("HTTP client transport: an unreachable server", () => {
  it("is a TransportError (unreachable) with the network error as its cause", async () => {
    const server = await legacyServer(() => undefined);
    server.stop(); // its port is now closed
    const transport = createHttpTransport(PROTOCOL, { url: server.url });
    const error = await transport.request(call(1)).catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ kind: "unreachable" });
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.cause).toBeInstanceOf(TypeError);
    await expect(transport.notify({ jsonrpc: "2.0", method: "notifications/x" })).rejects.toThrow(
      TransportError,
    );
  });

  it("an aborted request still fails with the caller's reason", async () => {
    let arrived!: () => void;
    const atServer = new Promise<void>((resolve) => (arrived = resolve));
    const server = await legacyServer(() => arrived()); // never answers
    try {
      const transport = createHttpTransport(PROTOCOL, { url: server.url });
      const controller = new AbortController();
      const pending = transport.request(call(1), { signal: controller.signal });
      await within(atServer, "the request reaching the server");
      controller.abort(new Error("mine"));
      await expect(pending).rejects.toThrow("mine");
    } finally {
      server.stop();
    }
  });
});

describe("HTTP client transport: close()", () => {
  it("rejects the calls in flight with TransportError (closed), and refuses later ones", async () => {
    let arrived!: () => void;
    const atServer = new Promise<void>((resolve) => (arrived = resolve));
    // A stream that never answers.
    const server = await legacyServer((_req, res) => primed(res, arrived));
    try {
      const transport = await openSession(server.url);
      const inFlight = transport.request(call(2)).catch((e) => e);
      await within(atServer, "the call's stream opening");
      await transport.close!();
      const error = await inFlight;
      expect(error).toBeInstanceOf(TransportError);
      expect(error).not.toBeInstanceOf(HttpTransportError);
      expect(error).toMatchObject({ kind: "closed" });
      const seenBefore = server.seen.length;
      await expect(transport.request(call(3))).rejects.toMatchObject({
        name: "TransportError",
        kind: "closed",
      });
      await expect(
        transport.request({ jsonrpc: "2.0", id: 4, method: "initialize", params: {} }),
      ).rejects.toThrow(/transport was closed/);
      await expect(
        transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      ).rejects.toThrow(TransportError);
      expect(server.seen.slice(seenBefore)).toEqual([]);
      expect(server.seen.map((s) => s.method)).toContain("DELETE");
    } finally {
      server.stop();
    }
  });
});
