import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { routingHeaders } from "../src/transport/http/headers.js";
import { serveHttp } from "../src/transport/http/server/server.js";
import { JSONRPC_ERRORS, McpError } from "../src/core/errors.js";
import { createRouter } from "../src/server/router.js";
import { within } from "../../cli/test/support/wait.js";
import { PROTOCOL, request, VALIDATORS } from "./fixture.js";

let server: { url: string; close(): Promise<void> };

/** tools/call handlers under way, by tool name: each answers when the test releases it. */
const held = new Map<string, () => void>();
let arrived = (_name: string) => undefined as void;
/** Resolves once a tools/call for `name` reached its handler. */
const arrival = (name: string) =>
  new Promise<void>((resolve) => (arrived = (n) => void (n === name && resolve())));

beforeAll(async () => {
  const router = createRouter(PROTOCOL, VALIDATORS, "client->server", {
    // Ignores its signal on purpose: the transport must answer anyway.
    "tools/call": (params: any) =>
      new Promise((resolve) => {
        held.set(params.name, () => resolve({ content: [], name: params.name }));
        arrived(params.name);
      }),
  });
  server = await serveHttp(PROTOCOL, router, { requestTimeoutMs: 400 });
});
afterEach(() => {
  vi.useRealTimers();
  for (const release of held.values()) release();
  held.clear();
});
afterAll(() => server.close());

const post = (message: any, headers: Record<string, string> = {}) =>
  fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...routingHeaders(PROTOCOL, message),
      ...headers,
    },
    body: JSON.stringify(message),
  });

describe("runtime Streamable HTTP server", () => {
  it("answers a request whose handler ignores the timeout, when the timeout fires", async () => {
    // The request's clock is a fake timer: the handler is never released, and 400 ms pass
    // when the test says so.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const stuck = arrival("stuck");
    let answered = false;
    const pending = post(request("tools/call", 1, { name: "stuck" })).finally(
      () => (answered = true),
    );
    await within(stuck, "the call reaching its handler");
    await vi.advanceTimersByTimeAsync(399);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const response = await pending;
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({
      id: 1,
      error: { code: -32603, message: "Request timed out" },
    });
  });

  it("never lets one client's notifications/cancelled abort another client's request", async () => {
    const running = arrival("victim");
    const victim = post(request("tools/call", 1, { name: "victim" }));
    await within(running, "the victim's call reaching its handler");
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    expect((await post(cancel)).status).toBe(202);
    held.get("victim")!();
    const response = await victim;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, result: { name: "victim" } });
  });

  it("accepts application/json with parameters, and nothing that merely starts like it", async () => {
    expect(
      (await post(request("ping"), { "content-type": "application/json; charset=utf-8" })).status,
    ).toBe(200);
    expect((await post(request("ping"), { "content-type": "application/jsonfoo" })).status).toBe(
      415,
    );
  });

  it("refuses Host spellings of loopback other than the plain ones", async () => {
    const port = new URL(server.url).port;
    const { request: raw } = await import("node:http");
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = raw(
          {
            host: "127.0.0.1",
            port,
            path: "/mcp",
            method: "POST",
            headers: { host, "content-type": "application/json" },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end("{}");
      });
    expect(await status(`127.1:${port}`)).toBe(403);
    expect(await status(`0x7f000001:${port}`)).toBe(403);
    expect(await status(`localhost:${port}`)).toBe(400);
  });
});

describe("Mcp-Param-* headers (2026-07-28 transports/streamable-http, Server Validation)", () => {
  let annotated: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const router = createRouter(PROTOCOL, VALIDATORS, "client->server", {
      "tools/list": () => ({
        tools: [
          {
            name: "deploy",
            inputSchema: {
              type: "object",
              properties: { region: { type: "string", "x-mcp-header": "Region" } },
            },
          },
        ],
      }),
      "tools/call": (params: any) => ({
        content: [{ type: "text", text: String(params.arguments?.region) }],
      }),
    });
    annotated = await serveHttp(PROTOCOL, router, {});
  });
  afterAll(() => annotated.close());

  it("takes a tools/call whose annotated argument's header matches, and refuses one without it or with another value (400, HeaderMismatch)", async () => {
    const call = request("tools/call", 7, { name: "deploy", arguments: { region: "eu-west" } });
    const send = (headers: Record<string, string>) =>
      fetch(annotated.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...routingHeaders(PROTOCOL, call),
          ...headers,
        },
        body: JSON.stringify(call),
      });
    const ok = await send({ "Mcp-Param-Region": "eu-west" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: 7, result: { content: [{ text: "eu-west" }] } });
    for (const [headers, message] of [
      [{}, 'missing Mcp-Param-Region header for "region"'],
      [
        { "Mcp-Param-Region": "us-east" },
        'Mcp-Param-Region header does not match the body\'s "region"',
      ],
    ] as const) {
      const refused = await send(headers);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        jsonrpc: "2.0",
        id: 7,
        error: { code: PROTOCOL.errorCodes.headerMismatch, message: `Header mismatch: ${message}` },
      });
    }
  });
});

// 2026-07-28: a malformed request gets 400 (basic, Request Metadata), an unknown method 404
// (streamable-http); what a handler answers itself, such as -32602 for a resource that does
// not exist, stays in the body with 200, as the SDK servers send it.
describe("HTTP status of error responses", () => {
  let http: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const validators = {
      ...VALIDATORS,
      validateRequestMessage: (value: unknown, direction: string, options?: unknown) =>
        (value as any).params?.name === "malformed"
          ? {
              ok: false as const,
              errors: [{ path: "/params/name", message: "expected a known name" }],
            }
          : VALIDATORS.validateRequestMessage(value, direction as never, options as never),
    };
    const router = createRouter(PROTOCOL, validators, "client->server", {
      "tools/call": (params: any) => {
        if (params.name === "missing")
          throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, "Resource not found", {
            name: params.name,
          });
        if (params.name === "needs-sampling")
          throw new McpError(PROTOCOL.errorCodes.missingClientCapability!, "needs sampling");
        return { contents: [] };
      },
    });
    http = await serveHttp(PROTOCOL, router);
  });
  afterAll(() => http.close());
  const call = (name: string, method = "tools/call") => {
    const message = request(method, 3, { name });
    return fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...routingHeaders(PROTOCOL, message),
      },
      body: JSON.stringify(message),
    });
  };

  it("a handler's invalid params: 200 with the error in the body", async () => {
    const response = await call("missing");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32602, message: "Resource not found", data: { name: "missing" } },
    });
  });

  it("the router's own invalid params (the request failed validation): 400", async () => {
    const response = await call("malformed");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 3, error: { code: -32602 } });
  });

  it("the revision's 400 codes keep 400 wherever they are raised, and an unknown method 404", async () => {
    expect((await call("needs-sampling")).status).toBe(400);
    expect((await call("x", "tools/unknown")).status).toBe(404);
    expect((await call("fine")).status).toBe(200);
  });
});
