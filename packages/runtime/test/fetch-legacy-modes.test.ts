import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../src/fetch.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import type { FetchHandlerOptions } from "../src/transport/http/server/fetch.js";
import { dualEras, LEGACY_PROTOCOL, PROTOCOL } from "./fixture.js";
import { legacyModeWarnings } from "./legacy-mode-warnings.js";

// The legacy serving modes through the web-standard host (createFetchHandler, as Workers,
// Deno, Bun and Next.js call it), Request in and Response out, in process. Stateless serving
// is what a Workers deployment needs for legacy clients: each request may reach another
// isolate, here another handler with its own dispatcher, and none holds a session.

type Json = Record<string, any>;
const LEGACY = { ...LEGACY_PROTOCOL, protocolVersion: "2025-11-25" };
const BOTH = "application/json, text/event-stream";
const URL_ = "http://localhost:8787/mcp";

/** `chatty` sends progress before answering; `ask` asks the client for a name. */
const dispatcher = () =>
  createEraDispatcher(dualEras(LEGACY), {
    "tools/list": () => ({ tools: [{ name: "chatty", inputSchema: { type: "object" } }] }),
    "tools/call": async (params: { name: string }, ctx: any) => {
      if (params.name === "chatty") {
        await ctx.sendProgress(1, 2);
        return { content: [{ type: "text", text: "done" }] };
      }
      return inputRequired(PROTOCOL, ctx, {
        inputRequests: { who: { method: "elicitation/create", params: { message: "Name?" } } },
      });
    },
  });

const warnings = legacyModeWarnings();

const post = (message: Json, headers: Record<string, string> = {}) =>
  new Request(URL_, {
    method: "POST",
    headers: { "content-type": "application/json", accept: BOTH, ...headers },
    body: JSON.stringify(message),
  });

const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: {} },
    clientInfo: { name: "c", version: "1" },
  },
};
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const call = (name: string, id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, _meta: { progressToken: "t" } },
});
const VERSION = { "mcp-protocol-version": "2025-11-25" };

/** Two instances (isolates) of one deployment, each with its own dispatcher. */
function instances(legacy: NonNullable<FetchHandlerOptions["legacy"]>) {
  return [
    createFetchHandler(PROTOCOL, dispatcher(), { legacy }),
    createFetchHandler(PROTOCOL, dispatcher(), { legacy }),
  ] as const;
}

describe("createFetchHandler, stateless with JSON responses", () => {
  it("serves each request on its own, on either instance, with one JSON body and no session id", async () => {
    const [a, b] = instances({ sessions: false, responses: "json" });
    // Said once per instance, as it is created, with the handler that loses its back-channel.
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/legacy.sessions: false, legacy.responses: "json"/);
    expect(warnings[0]).toMatch(
      /\n {2}tools\/call: asks the client for input, sends notifications/,
    );

    const opened = await a(post(initialize));
    expect(opened.status).toBe(200);
    expect(opened.headers.get("mcp-session-id")).toBeNull();
    expect(opened.headers.get("content-type")).toBe("application/json");
    expect((await opened.json()).result.protocolVersion).toBe("2025-11-25");
    expect((await b(post(initialized, VERSION))).status).toBe(202);

    const listed = await b(post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, VERSION));
    expect((await listed.json()).result.tools.map((t: Json) => t.name)).toEqual(["chatty"]);

    // An Mcp-Session-Id sent anyway names nothing: ignored, not refused.
    const called = await a(post(call("chatty", 2), { ...VERSION, "mcp-session-id": "stale" }));
    expect(called.headers.get("content-type")).toBe("application/json");
    expect(called.headers.get("mcp-session-id")).toBeNull();
    expect(await called.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "done" }] },
    });

    const asked = await (await b(post(call("ask", 3), VERSION))).json();
    expect(asked.error.code).toBe(-32603);
    expect(asked.error.message).toMatch(/legacy.responses: "json"/);
  });

  it("answers GET and DELETE with 405: there is no session to stream or end", async () => {
    const [a] = instances({ sessions: false, responses: "json" });
    for (const method of ["GET", "DELETE"]) {
      const headers = { accept: "text/event-stream", "mcp-session-id": "x", ...VERSION };
      expect((await a(new Request(URL_, { method, headers }))).status).toBe(405);
    }
  });
});

describe("createFetchHandler, stateless with SSE", () => {
  it("streams a request's progress on its own response, on another instance than initialize", async () => {
    const [a, b] = instances({ sessions: false });
    const opened = await a(post(initialize));
    expect(opened.headers.get("mcp-session-id")).toBeNull();
    const called = await b(post(call("chatty", 2), VERSION));
    expect(called.headers.get("content-type")).toBe("text/event-stream");
    const sent = (await called.text())
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)) as Json);
    expect(sent.map((m) => m.method ?? m.result?.content?.[0]?.text)).toEqual([
      "notifications/progress",
      "done",
    ]);
  });
});
