import { describe, expect, it } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import type { Middleware } from "../src/server/middleware.js";
import { requireScopes } from "../src/server/require-scopes.js";
import { dualEras, LEGACY_INITIALIZE, PROTOCOL } from "./fixture.js";

// The same middleware in both eras of one era dispatcher: a modern (per-request) client and a
// legacy session's client call a tool that asks for input once (multi round-trip). A modern
// client sends each round as its own request, so the hooks run once per round and see the
// input_required result of the first; in a legacy session the server asks the client itself,
// inside the one request, so the hooks run once around every round and see the final result.

const ASK = {
  resultType: "input_required",
  inputRequests: {
    ask: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: {} } },
  },
};
const text = (value: string) => ({ content: [{ type: "text", text: value }] });

/** The era dispatcher with one tool asking once, and the hooks' log of what they saw. */
function serve() {
  const seen: Record<string, unknown>[] = [];
  const middleware: Middleware[] = [
    {
      before: (call) =>
        void seen.push({
          hook: "before",
          tool: call.tool?.name,
          principal: call.principal,
          answered: call.ctx.inputResponses,
        }),
      after: (call, outcome) =>
        void seen.push({
          hook: "after",
          tool: call.tool?.name,
          result: outcome.ok ? outcome.result : outcome.error,
        }),
    },
    requireScopes({ deploy: ["mcp:deploy"] }),
  ];
  const dispatcher = createEraDispatcher(
    dualEras(),
    {
      "tools/call": (params: { name: string }, ctx: { inputResponses: Record<string, unknown> }) =>
        ctx.inputResponses["ask"] === undefined ? ASK : text(`${params.name}: confirmed`),
    },
    { middleware },
  );
  return { dispatcher, seen };
}

const modernCall = (id: number, name: string, more: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name,
    ...more,
    _meta: { v: PROTOCOL.protocolVersion, caps: { elicitation: {} } },
  },
});
const ACCEPTED = { action: "accept", content: {} };

describe("middleware in both eras", () => {
  it("modern: the hooks run once per round, the first seeing input_required", async () => {
    const { dispatcher, seen } = serve();
    const context = { principal: "alice" };
    const first = await dispatcher.handle(modernCall(1, "publish"), context);
    expect(first).toMatchObject({ result: { resultType: "input_required" } });
    const again = modernCall(2, "publish", { inputResponses: { ask: ACCEPTED } });
    expect(await dispatcher.handle(again, context)).toMatchObject({
      result: text("publish: confirmed"),
    });
    expect(seen).toEqual([
      { hook: "before", tool: "publish", principal: "alice", answered: {} },
      { hook: "after", tool: "publish", result: ASK },
      { hook: "before", tool: "publish", principal: "alice", answered: { ask: ACCEPTED } },
      { hook: "after", tool: "publish", result: text("publish: confirmed") },
    ]);
  });

  it("legacy session: the hooks run once around every round, seeing the final result", async () => {
    const { dispatcher, seen } = serve();
    const channel = {};
    let asked!: (request: { id: number; method: string }) => void;
    const elicitation = new Promise<{ id: number; method: string }>((r) => (asked = r));
    const context = {
      channel,
      principal: "alice",
      notify: (message: object) => void asked(message as { id: number; method: string }),
    };
    const initialize = {
      ...LEGACY_INITIALIZE,
      params: { ...LEGACY_INITIALIZE.params, capabilities: { elicitation: {} } },
    };
    expect(await dispatcher.handle(initialize, context)).toMatchObject({ result: {} });
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "publish" } };
    const reply = dispatcher.handle(call, context);
    const request = await elicitation;
    expect(request.method).toBe("elicitation/create");
    // The client's answer, on the session.
    await dispatcher.handle({ jsonrpc: "2.0", id: request.id, result: ACCEPTED }, context);
    expect(await reply).toEqual({ jsonrpc: "2.0", id: 2, result: text("publish: confirmed") });
    expect(seen).toEqual([
      { hook: "before", tool: "publish", principal: "alice", answered: {} },
      { hook: "after", tool: "publish", result: text("publish: confirmed") },
    ]);
  });

  it("refuses alike in both eras: the same JSON-RPC error, the handler never asked", async () => {
    const { dispatcher, seen } = serve();
    const modern = await dispatcher.handle(modernCall(1, "deploy"), {
      authInfo: { subject: "alice", scopes: ["mcp:read"] },
    });
    const channel = {};
    const legacyContext = { channel, authInfo: { subject: "alice", scopes: ["mcp:read"] } };
    await dispatcher.handle(LEGACY_INITIALIZE, legacyContext);
    const legacy = await dispatcher.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy" } },
      legacyContext,
    );
    const refusal = {
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32600,
        message: "Forbidden: insufficient scope",
        data: { scopes: ["mcp:deploy"] },
      },
    };
    expect(modern).toEqual(refusal);
    expect(legacy).toEqual(refusal);
    expect(seen.filter((s) => s["hook"] === "after")).toHaveLength(2);
  });
});
