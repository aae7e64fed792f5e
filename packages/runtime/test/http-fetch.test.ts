import { afterEach, describe, expect, it, vi } from "vitest";
import { createFetchHandler } from "../src/fetch.js";
import { routingHeaders } from "../src/transport/http/headers.js";
import type { MessageHandler } from "../src/transport/http/server/options.js";
import { readSseMessages } from "../src/transport/sse.js";
import { PROTOCOL, request } from "./fixture.js";

// The web-standard host of the HTTP core, called with Request objects as Workers, Deno, Bun
// and Next.js call it: no server, no socket.

type Context = Parameters<MessageHandler["handle"]>[1];

/** A dispatcher whose tools/call does what the test's `run` does with the context. */
function dispatcher(run: (message: any, context: Context) => Promise<unknown> | unknown) {
  return {
    handle: async (message: any, context: Context) => {
      const result = await run(message, context);
      return message.id === undefined ? undefined : { jsonrpc: "2.0", id: message.id, result };
    },
  } satisfies MessageHandler;
}

const URL_ = "http://localhost:8787/mcp";

type Init = Omit<RequestInit, "headers"> & { headers?: Record<string, string>; duplex?: "half" };

function post(message: any, init: Init = {}) {
  return new Request(URL_, {
    method: "POST",
    ...init,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...routingHeaders(PROTOCOL, message),
      ...init.headers,
    },
    body: init.body ?? JSON.stringify(message),
  });
}

afterEach(() => void vi.useRealTimers());

describe("createFetchHandler", () => {
  it("answers a request with JSON, and a notification with 202", async () => {
    const handler = createFetchHandler(
      PROTOCOL,
      dispatcher((m) => ({ echoed: m.params.name })),
    );
    const response = await handler(post(request("tools/call", 7, { name: "echo" })));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { echoed: "echo" } });
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    expect((await handler(post(note))).status).toBe(202);
  });

  it("streams notifications sent before the answer as SSE on a ReadableStream", async () => {
    const handler = createFetchHandler(
      PROTOCOL,
      dispatcher(async (_m, context) => {
        context.notify!({ jsonrpc: "2.0", method: "notifications/progress", params: { n: 1 } });
        await new Promise((resolve) => setImmediate(resolve));
        context.notify!({ jsonrpc: "2.0", method: "notifications/progress", params: { n: 2 } });
        return { done: true };
      }),
    );
    const response = await handler(post(request("tools/call", 1, { name: "slow" })));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const messages: any[] = [];
    for await (const message of readSseMessages(response.body!, 1 << 20)) messages.push(message);
    expect(messages.map((m) => m.params?.n ?? m.result)).toEqual([1, 2, { done: true }]);
  });

  it("aborts the handler's signal when request.signal aborts (the client went away)", async () => {
    const client = new AbortController();
    let reason: unknown;
    const handler = createFetchHandler(
      PROTOCOL,
      dispatcher(
        (_m, context) =>
          new Promise((resolve) => {
            context.signal!.addEventListener("abort", () => {
              reason = context.signal!.reason;
              resolve({});
            });
            client.abort();
          }),
      ),
    );
    await handler(post(request("tools/call", 1, { name: "x" }), { signal: client.signal }));
    expect(String(reason)).toContain("client went away");
  });

  it("times out a body that never ends: 408 once requestTimeoutMs passes, the read included", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const handler = createFetchHandler(
      PROTOCOL,
      dispatcher(() => ({})),
      {
        requestTimeoutMs: 5_000,
      },
    );
    const stalled = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode('{"jsonrpc":')),
    });
    const message = request("tools/call", 1, { name: "x" });
    const pending = handler(post(message, { body: stalled, duplex: "half" }));
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    vi.advanceTimersByTime(5_000);
    const response = await pending;
    expect(response.status).toBe(408);
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
  });

  it("refuses a body over maxBodyBytes (413), a non-JSON type (415) and a used body (500, one log line)", async () => {
    const lines: string[] = [];
    const handler = createFetchHandler(
      PROTOCOL,
      dispatcher(() => ({})),
      {
        maxBodyBytes: 64,
        onError: (line) => lines.push(line),
      },
    );
    const big = request("tools/call", 1, { name: "x".repeat(100) });
    expect((await handler(post(big))).status).toBe(413);
    const small = request("ping");
    const text = post(small, { headers: { "content-type": "text/plain" } });
    expect((await handler(text)).status).toBe(415);
    const used = post(small);
    await used.text();
    const response = await handler(used);
    expect(response.status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/POST \/mcp: 500, the request body was read before/);
  });

  it("answers 404 naming the endpoint for another path, and checks Host", async () => {
    const handler = createFetchHandler(
      PROTOCOL,
      dispatcher(() => ({})),
    );
    const elsewhere = new Request("http://localhost/other", { method: "POST" });
    const notFound = await handler(elsewhere);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({
      error: { message: expect.stringMatching("/mcp") },
    });
    const foreign = new Request("http://evil.example/mcp", { method: "POST" });
    expect((await handler(foreign)).status).toBe(403);
    const allowed = createFetchHandler(
      PROTOCOL,
      dispatcher(() => ({ ok: 1 })),
      {
        allowedHosts: ["mcp.example.com"],
        path: "/api/mcp",
      },
    );
    const routed = new Request("https://mcp.example.com/api/mcp", post(request("ping")));
    expect((await allowed(routed)).status).toBe(200);
  });

  it("ignores Mcp-Session-Id on a server without legacy eras (2026-07-28: no sessions)", async () => {
    const handler = createFetchHandler(
      PROTOCOL,
      dispatcher(() => ({ ok: 1 })),
    );
    const response = await handler(
      post(request("ping"), { headers: { "mcp-session-id": "stale" } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
  });
});

describe("CORS", () => {
  const APP = "https://app.example.com";
  const options = { allowedOrigins: [APP], cors: true };
  const handler = createFetchHandler(
    PROTOCOL,
    dispatcher(() => ({ ok: 1 })),
    options,
  );
  const preflight = (origin: string, headers: string) =>
    handler(
      new Request(URL_, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": headers,
        },
      }),
    );

  it("answers a preflight with the MCP request headers it asked for, Mcp-Param-* included", async () => {
    const response = await preflight(
      APP,
      "content-type, mcp-method, mcp-name, mcp-protocol-version, mcp-param-region, x-unknown",
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe(
      "content-type, mcp-method, mcp-name, mcp-protocol-version, mcp-param-region",
    );
    expect(response.headers.get("access-control-max-age")).toBe("600");
  });

  it("exposes Mcp-Session-Id and WWW-Authenticate to the allowed origin; another origin gets 403", async () => {
    const response = await handler(post(request("ping"), { headers: { origin: APP } }));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-expose-headers")).toBe(
      "Mcp-Session-Id, WWW-Authenticate",
    );
    expect((await preflight("https://evil.example", "content-type")).status).toBe(403);
    const evil = await handler(
      post(request("ping"), { headers: { origin: "https://evil.example" } }),
    );
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is off unless asked: OPTIONS gets 405 and answers carry no CORS headers", async () => {
    const plain = createFetchHandler(
      PROTOCOL,
      dispatcher(() => ({})),
      { allowedOrigins: [APP] },
    );
    const options = new Request(URL_, {
      method: "OPTIONS",
      headers: { origin: APP, "access-control-request-method": "POST" },
    });
    expect((await plain(options)).status).toBe(405);
    const response = await plain(post(request("ping"), { headers: { origin: APP } }));
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
