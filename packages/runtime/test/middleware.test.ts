import { afterEach, describe, expect, it, vi } from "vitest";
import { McpError } from "../src/core/errors.js";
import {
  forTools,
  type Middleware,
  type Outcome,
  type RequestCall,
} from "../src/server/middleware.js";
import {
  InsufficientScopeError,
  refusedScopes,
  requireScopes,
} from "../src/server/require-scopes.js";
import { createRouter } from "../src/server/router.js";
import type { DispatcherOptions, Handlers } from "../src/server/router-types.js";
import { PROTOCOL, request, VALIDATORS } from "./fixture.js";

// The middleware around handlers (server/middleware.ts): onion order, refusals, what the
// `after` hooks see, and the same hooks in both eras, on the era dispatcher that serves a
// modern request and a legacy session's request alike.

afterEach(() => void vi.useRealTimers());

const text = (value: string) => ({ content: [{ type: "text", text: value }] });
const echo: Handlers = { "tools/call": (params: { name: string }) => text(params.name) };

function router(handlers: Handlers, options: DispatcherOptions) {
  return createRouter(PROTOCOL, VALIDATORS, "client->server", handlers, options);
}

/** A middleware that logs `label:before` and `label:after` into `log`. */
const logging = (label: string, log: string[]): Middleware => ({
  name: label,
  before: () => void log.push(`${label}:before`),
  after: (_call, outcome) => void log.push(`${label}:after:${outcome.ok ? "ok" : "error"}`),
});

describe("middleware order", () => {
  it("runs the first registered outermost: befores in order, the handler, afters in reverse", async () => {
    const log: string[] = [];
    const handlers: Handlers = {
      "tools/call": () => (log.push("handler"), text("done")),
    };
    const middleware = [logging("a", log), logging("b", log), logging("c", log)];
    const reply = await router(handlers, { middleware }).handle(
      request("tools/call", 1, { name: "t" }),
    );
    expect(reply).toMatchObject({ result: text("done") });
    expect(log).toEqual([
      "a:before",
      "b:before",
      "c:before",
      "handler",
      "c:after:ok",
      "b:after:ok",
      "a:after:ok",
    ]);
  });

  it("runs around every request, the router's own ping too, with the method and principal", async () => {
    const seen: [string, string | undefined, string | undefined][] = [];
    const middleware: Middleware[] = [
      { before: (call) => void seen.push([call.method, call.principal, call.tool?.name]) },
    ];
    const r = router(echo, { middleware });
    await r.handle(request("ping", 1), { principal: "alice" });
    await r.handle(request("tools/call", 2, { name: "add", arguments: { a: 1 } }), {
      principal: "bob",
    });
    expect(seen).toEqual([
      ["ping", "alice", undefined],
      ["tools/call", "bob", "add"],
    ]);
  });

  it("forTools runs only around tools/call, with the tool's name and arguments", async () => {
    const seen: unknown[] = [];
    const middleware = [
      forTools({
        before: (call) => void seen.push([call.tool.name, call.tool.arguments]),
        after: (call, outcome) => void seen.push([call.tool.name, outcome.ok]),
      }),
    ];
    const r = router(echo, { middleware });
    await r.handle(request("ping", 1));
    await r.handle(request("tools/call", 2, { name: "add", arguments: { a: 1 } }));
    expect(seen).toEqual([
      ["add", { a: 1 }],
      ["add", true],
    ]);
  });
});

describe("refusal by a before hook", () => {
  it("answers its McpError; the handler and the inner layers never run; the outer afters see it", async () => {
    const log: string[] = [];
    const outcomes: Outcome[] = [];
    const handler = vi.fn(() => text("never"));
    const refusing: Middleware = {
      before: (call) => {
        log.push("refuse:before");
        if (call.tool?.name === "deploy") throw new McpError(-32001, "Rate limited", { retry: 1 });
      },
      after: () => void log.push("refuse:after"),
    };
    const middleware = [
      { ...logging("outer", log), after: (_c: RequestCall, o: Outcome) => void outcomes.push(o) },
      refusing,
      logging("inner", log),
    ];
    const reply = await router({ "tools/call": handler }, { middleware }).handle(
      request("tools/call", 3, { name: "deploy" }),
    );
    expect(reply).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32001, message: "Rate limited", data: { retry: 1 } },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(log).toEqual(["outer:before", "refuse:before"]);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ ok: false, error: { code: -32001 } });
  });

  it("answers any other error of a hook with -32603 (for tools/call too), told to onError", async () => {
    const errors: unknown[] = [];
    const middleware: Middleware[] = [
      {
        name: "broken",
        before: () => {
          throw new TypeError("bug in a hook");
        },
      },
    ];
    const reply = await router(echo, { middleware, onError: (e) => errors.push(e) }).handle(
      request("tools/call", 4, { name: "t" }),
    );
    expect(reply).toMatchObject({ error: { code: -32603, message: "Internal error" } });
    expect(String(errors[0])).toMatch(/middleware broken: its before hook failed/);
    expect((errors[0] as Error).cause).toBeInstanceOf(TypeError);
  });

  it("requireScopes refuses a tool whose scopes the caller's token lacks, naming them", async () => {
    const r = router(echo, {
      middleware: [
        requireScopes({ deploy: ["mcp:deploy", "mcp:write"] }, { methods: { ping: ["mcp:ping"] } }),
      ],
    });
    const call = (name: string, scopes?: string[]) =>
      r.handle(
        request("tools/call", 5, { name }),
        scopes ? { authInfo: { subject: "alice", scopes } } : {},
      );
    expect(await call("echo")).toMatchObject({ result: text("echo") });
    const refused = await call("deploy", ["mcp:deploy"]);
    expect(refused).toMatchObject({
      error: {
        code: -32600,
        message: "Forbidden: insufficient scope",
        data: { scopes: ["mcp:deploy", "mcp:write"] },
      },
    });
    // The HTTP server finds the scopes on the reply, for its 403 challenge.
    expect(refusedScopes(refused)).toEqual(["mcp:deploy", "mcp:write"]);
    expect(await call("deploy")).toMatchObject({ error: { code: -32600 } });
    expect(await call("deploy", ["mcp:write", "mcp:deploy"])).toMatchObject({
      result: text("deploy"),
    });
    expect(await r.handle(request("ping", 6))).toMatchObject({
      error: { data: { scopes: ["mcp:ping"] } },
    });
    expect(new InsufficientScopeError(["x"])).toBeInstanceOf(McpError);
  });
});

describe("after hooks", () => {
  it("see the result, or the handler's error, and the duration since the outermost before", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    const outcomes: Outcome[] = [];
    const slow = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const failure = new McpError(-32602, "Unknown tool: nope");
    const handlers: Handlers = {
      "tools/call": async (params: { name: string }) => {
        await slow(250);
        if (params.name === "nope") throw failure;
        return text("ok");
      },
    };
    const middleware: Middleware[] = [{ after: (_call, outcome) => void outcomes.push(outcome) }];
    const r = router(handlers, { middleware });
    const done = r.handle(request("tools/call", 1, { name: "fine" }));
    await vi.advanceTimersByTimeAsync(250);
    await done;
    const failed = r.handle(request("tools/call", 2, { name: "nope" }));
    await vi.advanceTimersByTimeAsync(250);
    expect(await failed).toMatchObject({ error: { code: -32602 } });
    expect(outcomes).toEqual([
      { ok: true, result: text("ok"), durationMs: 250 },
      { ok: false, error: failure, durationMs: 250 },
    ]);
  });

  it("cannot change the answer: a failing after hook is told to onError", async () => {
    const errors: unknown[] = [];
    const middleware: Middleware[] = [
      {
        name: "audit",
        after: () => {
          throw new Error("audit log down");
        },
      },
    ];
    const reply = await router(echo, { middleware, onError: (e) => errors.push(e) }).handle(
      request("tools/call", 1, { name: "t" }),
    );
    expect(reply).toMatchObject({ result: text("t") });
    expect(String(errors[0])).toMatch(/middleware audit: its after hook failed/);
  });

  it("rejects middleware that is not a list of hook objects, when the router is made", () => {
    expect(() => router(echo, { middleware: [null as never] })).toThrow(/middleware\[0\]/);
    expect(() => router(echo, { middleware: [{ before: 1 as never }] })).toThrow(
      /middleware\[0\]\.before: expected a function/,
    );
  });
});
