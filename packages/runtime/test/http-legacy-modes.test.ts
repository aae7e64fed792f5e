import { afterAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import { routingHeaders } from "../src/transport/http/headers.js";
import { serveHttp, type ServeHttpOptions } from "../src/transport/http/server/server.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { dualEras, LEGACY_PROTOCOL, PROTOCOL, request } from "./fixture.js";
import { legacyModeWarnings } from "./legacy-mode-warnings.js";

// The serving modes of legacy clients on Streamable HTTP (HttpCoreOptions.legacy): JSON
// responses and stateless serving, each with what it cannot carry refused by name, and the
// client's Accept honoured in every mode (2025-11-25 basic/transports, "Sending Messages to
// the Server" and "Session Management"). Modern requests are served as they always are.

type Json = Record<string, any>;
/** The legacy revision at a version the v1 SDK client speaks. */
const LEGACY = { ...LEGACY_PROTOCOL, protocolVersion: "2025-11-25" };
const BOTH = "application/json, text/event-stream";

/** `chatty` sends progress before answering; `ask` asks the client for a name. */
const dispatcher = () =>
  createEraDispatcher(dualEras(LEGACY), {
    "tools/call": async (params: { name: string }, ctx: any) => {
      if (params.name === "chatty") {
        await ctx.sendProgress(1, 2);
        return { content: [{ type: "text", text: "done" }] };
      }
      if (ctx.inputResponse("who", "elicitation/create"))
        return { content: [{ type: "text", text: "thanks" }] };
      return inputRequired(PROTOCOL, ctx, {
        inputRequests: { who: { method: "elicitation/create", params: { message: "Name?" } } },
      });
    },
  });

const servers: { url: string; close(): Promise<void> }[] = [];
const warnings = legacyModeWarnings();
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(options: ServeHttpOptions = {}) {
  const server = await serveHttp(PROTOCOL, dispatcher(), options);
  servers.push(server);
  const post = (message: Json, headers: Record<string, string> = {}) =>
    fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: BOTH, ...headers },
      body: JSON.stringify(message),
    });
  /** Initializes (elicitation declared); the headers later requests send. */
  const open = async (accept = BOTH) => {
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "c", version: "1" },
      },
    };
    const r = await post(init, { accept });
    expect((await r.json()).result.protocolVersion).toBe("2025-11-25");
    const id = r.headers.get("mcp-session-id");
    const headers: Record<string, string> = {
      "mcp-protocol-version": "2025-11-25",
      ...(id === null ? {} : { "mcp-session-id": id }),
    };
    expect(
      (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status,
    ).toBe(202);
    return { id, headers };
  };
  const call = (name: string, id = 1) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, _meta: { progressToken: "t" } },
  });
  return { url: server.url, post, open, call };
}

/** The messages of an SSE body. */
const events = (text: string): Json[] =>
  text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)));

describe("default legacy serving (sessions, SSE)", () => {
  it("streams progress before the answer, unchanged, and says nothing at creation", async () => {
    const s = await start();
    expect(warnings).toEqual([]);
    const { id, headers } = await s.open();
    expect(id).not.toBeNull();
    const r = await s.post(s.call("chatty"), headers);
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    const sent = events(await r.text());
    expect(sent.map((m) => m.method ?? "answer")).toEqual(["notifications/progress", "answer"]);
  });

  it("answers Accept: application/json alone with one JSON body: progress dropped, asking refused by reason", async () => {
    const s = await start();
    const { headers } = await s.open();
    const json = { ...headers, accept: "application/json" };
    const r = await s.post(s.call("chatty"), json);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(await r.json()).toMatchObject({ id: 1, result: { content: [{ text: "done" }] } });
    const asked = await (await s.post(s.call("ask", 2), json)).json();
    expect(asked.error.code).toBe(-32603);
    expect(asked.error.message).toMatch(
      /elicitation\/create .*Accept header lists application\/json but not text\/event-stream/,
    );
  });

  it("refuses with 406 an Accept that admits neither JSON nor SSE", async () => {
    const s = await start();
    const { headers } = await s.open();
    const r = await s.post(s.call("chatty"), { ...headers, accept: "text/html" });
    expect(r.status).toBe(406);
    expect((await r.json()).error.message).toMatch(/Not Acceptable/);
  });
});

describe('JSON responses (legacy: { responses: "json" })', () => {
  it("keeps sessions, answers with one JSON body, drops progress, refuses asking by the mode's name", async () => {
    const s = await start({ legacy: { responses: "json" } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /legacy.responses: "json".*progress and log notifications .* dropped/,
    );
    const { id, headers } = await s.open();
    expect(id).not.toBeNull();
    const r = await s.post(s.call("chatty"), headers);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(await r.json()).toMatchObject({ id: 1, result: { content: [{ text: "done" }] } });
    const asked = await (await s.post(s.call("ask", 2), headers)).json();
    expect(asked.error).toMatchObject({ code: -32603 });
    expect(asked.error.message).toMatch(/elicitation\/create.*legacy.responses: "json"/);
  });

  it("refuses with 406 a client that accepts only SSE", async () => {
    const s = await start({ legacy: { responses: "json" } });
    const { headers } = await s.open();
    const r = await s.post(s.call("chatty"), { ...headers, accept: "text/event-stream" });
    expect(r.status).toBe(406);
  });
});

describe("stateless legacy serving (legacy: { sessions: false })", () => {
  it("issues no session id, serves each request on its own with its SSE progress, refuses asking by the mode's name", async () => {
    const s = await start({ legacy: { sessions: false } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/legacy.sessions: false.*sampling, elicitation, roots/);
    const { id, headers } = await s.open();
    expect(id).toBeNull();
    const r = await s.post(s.call("chatty"), headers);
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    const sent = events(await r.text());
    expect(sent.map((m) => m.method ?? "answer")).toEqual(["notifications/progress", "answer"]);
    // Refused at once, although the client's capabilities are unknown to a stateless request.
    const asked = await (await s.post(s.call("ask", 2), headers)).json();
    expect(asked.error).toMatchObject({ code: -32603 });
    expect(asked.error.message).toMatch(/legacy.sessions: false.*elicitation/);
  });

  it("answers GET and DELETE with 405, and an unsupported MCP-Protocol-Version with 400", async () => {
    const s = await start({ legacy: { sessions: false } });
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(s.url, {
        method,
        headers: { accept: "text/event-stream", "mcp-session-id": "anything" },
      });
      expect(r.status).toBe(405);
    }
    const r = await s.post(s.call("chatty"), { "mcp-protocol-version": "2024-01-01" });
    expect(r.status).toBe(400);
    expect((await r.json()).error.message).toMatch(/2024-01-01/);
  });

  it("with JSON responses too: one JSON body, the two modes named in one warning", async () => {
    const s = await start({ legacy: { sessions: false, responses: "json" } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/legacy.sessions: false, legacy.responses: "json"/);
    const { headers } = await s.open();
    const r = await s.post(s.call("chatty"), headers);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(await r.json()).toMatchObject({ result: { content: [{ text: "done" }] } });
  });

  it("refuses at creation session options it would ignore, and bad mode values", async () => {
    const d = dispatcher();
    const store = new MemorySessionStore();
    await expect(
      serveHttp(PROTOCOL, d, { legacy: { sessions: false }, sessionStore: store }),
    ).rejects.toThrow(/sessionStore configure legacy sessions/);
    await expect(serveHttp(PROTOCOL, d, { legacy: { responses: "sse" as never } })).rejects.toThrow(
      /legacy.responses must be "stream" or "json"/,
    );
  });
});

describe("a legacy session told the request has no back-channel", () => {
  it("refuses a request to the client at once, with the transport's reason, sending nothing", async () => {
    const d = dispatcher();
    const channel = {};
    const sent: Json[] = [];
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} } },
    };
    await d.handle(init, { channel });
    const session = d.session(channel)!;
    const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x" } };
    const context = { notify: (m: object) => void sent.push(m as Json), backChannelRefusal: "why" };
    const asked = session.serving(call, context, () =>
      session.request("elicitation/create", { message: "?" }, () => undefined, undefined, 5),
    );
    await expect(asked).rejects.toThrow(
      "Cannot send elicitation/create to the client during this request: why",
    );
    expect(sent).toEqual([]);
    // The refusal is the request's: forgotten once it is served.
    expect(session.backChannelRefusal(5)).toBeUndefined();
  });
});

describe("modern requests in every mode", () => {
  it("are served as before: progress streamed over SSE", async () => {
    const s = await start({ legacy: { sessions: false, responses: "json" } });
    const message = request("tools/call", 7, {
      name: "chatty",
      _meta: { v: "2099-01-01", caps: {}, progressToken: "m" },
    });
    const r = await s.post(message, routingHeaders(PROTOCOL, message));
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    expect(events(await r.text()).map((m) => m.method ?? "answer")).toEqual([
      "notifications/progress",
      "answer",
    ]);
  });
});

describe("the v1 SDK client (1.32.2) in each mode", () => {
  const modes: [string, ServeHttpOptions["legacy"]][] = [
    ["sessions, SSE", {}],
    ["JSON responses", { responses: "json" }],
    ["stateless", { sessions: false }],
    ["stateless, JSON responses", { sessions: false, responses: "json" }],
  ];
  it.each(modes)("calls a tool: %s", async (_name, legacy) => {
    const s = await start({ legacy: legacy! });
    const client = new V1Client({ name: "v1", version: "1" });
    const transport = new V1HttpTransport(new URL(s.url));
    await client.connect(transport);
    try {
      expect(transport.sessionId === undefined).toBe(legacy?.sessions === false);
      const progress: number[] = [];
      const result = await client.callTool({ name: "chatty" }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
      });
      expect(result).toMatchObject({ content: [{ type: "text", text: "done" }] });
      expect(progress).toEqual(legacy?.responses === "json" ? [] : [1]);
    } finally {
      await client.close();
    }
  });
});
