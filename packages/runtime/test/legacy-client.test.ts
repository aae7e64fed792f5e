import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { RequestTimeoutError } from "../src/client/errors.js";
import { eraOfProbeError } from "../src/client/era-probe.js";
import { McpError } from "../src/core/errors.js";
import { createHttpTransport, HttpTransportError } from "../src/transport/http/client/client.js";
import { LegacyClient, type LegacyClientOptions } from "../src/client/legacy-client.js";
import { withElicitationDefaults } from "../src/core/elicitation-content.js";
import type { ServerRequestHandler, Transport } from "../src/core/transport.js";
import { LEGACY_PROTOCOL, PROTOCOL, VALIDATORS } from "./fixture.js";

describe("era detection: what a failed probe says", () => {
  it("a recognized modern error is modern; any other answer is legacy; no answer at all is thrown", () => {
    const modern = PROTOCOL.errorCodes.unsupportedProtocolVersion!;
    expect(eraOfProbeError(PROTOCOL, new McpError(modern, "unsupported"))).toBe("modern");
    expect(eraOfProbeError(PROTOCOL, new McpError(-32601, "Method not found"))).toBe("legacy");
    expect(eraOfProbeError(PROTOCOL, new HttpTransportError(400, "Bad Request"))).toBe("legacy");
    expect(eraOfProbeError(PROTOCOL, new RequestTimeoutError("server/discover", 10))).toBe(
      "legacy",
    );
    const offline = new TypeError("fetch failed");
    expect(() => eraOfProbeError(PROTOCOL, offline)).toThrow(offline);
  });
});

describe("form elicitation defaults", () => {
  const params = {
    message: "?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", default: "Ada" },
        age: { type: "integer", default: 30 },
        note: { type: "string" },
      },
    },
  };
  it("fill the fields an accepting answer leaves out, never the ones it gives", () => {
    expect(
      withElicitationDefaults("elicitation/create", params, {
        action: "accept",
        content: { name: "Grace" },
      }),
    ).toEqual({
      action: "accept",
      content: { name: "Grace", age: 30 },
    });
  });
  it("leave declines, URL mode and other methods alone", () => {
    const decline = { action: "decline" };
    expect(withElicitationDefaults("elicitation/create", params, decline)).toBe(decline);
    const accept = { action: "accept", content: {} };
    expect(withElicitationDefaults("elicitation/create", { ...params, mode: "url" }, accept)).toBe(
      accept,
    );
    expect(withElicitationDefaults("sampling/createMessage", params, accept)).toBe(accept);
  });
});

describe("Streamable HTTP legacy session", () => {
  it("keeps the session id, and resumes a stream that closed before its response after the server's retry delay", async () => {
    const seen: {
      method: string;
      session: string | undefined;
      version: string | undefined;
      lastEventId: string | undefined;
      at: number;
    }[] = [];
    let closedAt = 0;
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      const h = (name: string) => req.headers[name] as string | undefined;
      seen.push({
        method: body?.method ?? req.method!,
        session: h("mcp-session-id"),
        version: h("mcp-protocol-version"),
        lastEventId: h("last-event-id"),
        at: Date.now(),
      });
      if (body?.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" });
        return res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: {} }));
      }
      if (req.method === "POST") {
        // A priming event, then the stream closes without the response.
        res.writeHead(200, { "content-type": "text/event-stream" });
        return res.write("id: e-1\nretry: 150\ndata: \n\n", () => {
          closedAt = Date.now();
          res.end();
        });
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `id: e-2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 2, result: { ok: true } })}\n\n`,
      );
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const transport = createHttpTransport(PROTOCOL, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    });
    try {
      transport.legacy!.reset();
      await transport.request({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
      transport.legacy!.begin("2025-11-25");
      expect(
        await transport.request({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "x" },
        }),
      ).toEqual({ jsonrpc: "2.0", id: 2, result: { ok: true } });
      const [post, get] = seen.slice(1);
      expect(post).toMatchObject({ method: "tools/call", session: "s-1", version: "2025-11-25" });
      expect(get).toMatchObject({ method: "GET", session: "s-1", lastEventId: "e-1" });
      expect(get!.at - closedAt).toBeGreaterThanOrEqual(140);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

/**
 * A session opened over a transport that only records who answers the server's requests:
 * the handler the client registered for them, to call as the transport would.
 */
async function openSession(
  answerInput: LegacyClientOptions["answerInput"],
): Promise<ServerRequestHandler> {
  let answer!: ServerRequestHandler;
  const transport: Transport = {
    request: async () => ({}),
    notify: async () => undefined,
    legacy: {
      reset: () => undefined,
      begin: () => undefined,
      listen: async () => undefined,
      end: async () => undefined,
      onServerRequest: (handler) => void (answer = handler!),
      onNotification: () => undefined,
    },
  };
  const client = new LegacyClient({
    modern: { protocol: PROTOCOL, validators: VALIDATORS },
    eras: [{ protocol: LEGACY_PROTOCOL, validators: VALIDATORS, adapters: {} }],
    versions: ["2098-01-01"],
    transport,
    capabilities: { elicitation: {} },
    clientInfo: undefined,
    send: async () => ({
      protocolVersion: "2098-01-01",
      capabilities: {},
      serverInfo: { name: "s", version: "1" },
    }),
    onNotification: undefined,
    answerInput,
  });
  await client.open();
  return answer;
}

describe("the legacy client answering the server's requests", () => {
  /** The session's answer to a request, as a transport gives it a signal. */
  async function openAnswering(answerInput: () => Promise<unknown>) {
    const answer = await openSession(answerInput);
    return (request: Record<string, unknown>) =>
      answer(request, { signal: new AbortController().signal });
  }

  it("answers a handler's error, even one that cannot be read, with an error response", async () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const failures: unknown[] = [new McpError(-32602, "bad question"), "a string", revoked.proxy];
    let next = 0;
    const ask = await openAnswering(() => Promise.reject(failures[next++]));
    const asked = {
      jsonrpc: "2.0",
      id: "s1",
      method: "elicitation/create",
      params: { message: "?" },
    };
    expect(await ask(asked)).toEqual({
      jsonrpc: "2.0",
      id: "s1",
      error: { code: -32602, message: "bad question" },
    });
    expect(await ask(asked)).toEqual({
      jsonrpc: "2.0",
      id: "s1",
      error: { code: -32603, message: "a string" },
    });
    expect(await ask(asked)).toEqual({
      jsonrpc: "2.0",
      id: "s1",
      error: { code: -32603, message: "Internal error" },
    });
  });
});

describe("the server cancels a request it sent on a Streamable HTTP legacy session", () => {
  it("aborts the handler's signal and POSTs no response for it; unknown, malformed and late cancellations are ignored", async () => {
    // A raw-protocol server: the tools/call stream asks e1, cancels it, sends cancellations for
    // an unknown id and a malformed one, then asks e2; once e2 is answered it cancels e2
    // (finished by then) and, a moment later, answers tools/call with the responses received.
    const received: unknown[] = [];
    let stream: { res: import("node:http").ServerResponse; id: unknown } | undefined;
    const event = (res: import("node:http").ServerResponse, message: object) =>
      res.write(`data: ${JSON.stringify(message)}\n\n`);
    const cancelled = (params: object) => ({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params,
    });
    const ask = (id: string) => ({
      jsonrpc: "2.0",
      id,
      method: "elicitation/create",
      params: { message: "?" },
    });
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      if (req.method !== "POST") return void res.writeHead(405).end();
      if (body.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" });
        return res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: {} }));
      }
      if (body.method === "tools/call") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        stream = { res, id: body.id };
        for (const message of [
          ask("e1"),
          cancelled({ requestId: "e1", reason: "no longer needed" }),
          cancelled({ requestId: "unknown" }),
          cancelled({}),
          ask("e2"),
        ])
          event(res, message);
        return;
      }
      res.writeHead(202).end();
      if (body.method !== undefined) return;
      received.push(body.id);
      if (body.id !== "e2" || !stream) return;
      const { res: open, id } = stream;
      event(open, cancelled({ requestId: "e2" }));
      setTimeout(
        () => (event(open, { jsonrpc: "2.0", id, result: { received } }), open.end()),
        300,
      );
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const transport = createHttpTransport(PROTOCOL, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    });
    const signals = new Map<unknown, AbortSignal>();
    transport.legacy!.onServerRequest(async (request, context) => {
      // Read with care: a transport that passes no signal fails the assertions, not the handler.
      const signal = context?.signal;
      if (signal) signals.set(request["id"], signal);
      // e1 answers anyway once aborted, or after 300 ms: a response the transport must not send.
      if (request["id"] === "e1")
        await new Promise(
          (resolve) => (signal?.addEventListener("abort", resolve), setTimeout(resolve, 300)),
        );
      else await new Promise((resolve) => setTimeout(resolve, 50));
      return { jsonrpc: "2.0", id: request["id"], result: { action: "decline" } };
    });
    try {
      transport.legacy!.reset();
      await transport.request({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
      transport.legacy!.begin("2025-11-25");
      const response = await transport.request({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "x" },
      });
      expect(response).toEqual({ jsonrpc: "2.0", id: 2, result: { received: ["e2"] } });
      expect(signals.get("e1")?.aborted).toBe(true);
      expect((signals.get("e1")?.reason as Error).message).toBe("no longer needed");
      expect(signals.get("e2")?.aborted).toBe(false);
    } finally {
      await transport.close!();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("the legacy client's input handler signal", () => {
  it("is the signal of the server's request: it reaches answerInput, and aborts when the server cancels", async () => {
    const given: AbortSignal[] = [];
    const answer = await openSession((_method, _params, _key, signal) => {
      if (!signal) throw new Error("answerInput was given no signal");
      given.push(signal);
      return new Promise((resolve) =>
        signal.addEventListener("abort", () => resolve({ action: "cancel" })),
      );
    });
    const controller = new AbortController();
    const asked = answer(
      { jsonrpc: "2.0", id: "s1", method: "elicitation/create", params: { message: "?" } },
      { signal: controller.signal },
    );
    expect(given).toEqual([controller.signal]);
    controller.abort(new Error("cancelled by the server"));
    expect(await asked).toMatchObject({ id: "s1", result: { action: "cancel" } });
  });
});
