import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeHeaderValue } from "../src/transport/http/headers.js";
import {
  createToolHeaderChecker,
  NOT_LISTED,
  toolHeaderCheck,
  type ListTools,
} from "../src/transport/http/server/tool-header-check.js";
import { PROTOCOL } from "./fixture.js";

// The server's check of Mcp-Param-* headers against a tools/call's arguments (2026-07-28
// transports/streamable-http, "Server Validation"), with a listing of its own tools.

const tools = [
  {
    name: "deploy",
    inputSchema: {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        replicas: { type: "integer", "x-mcp-header": "Replicas" },
        dry: { type: "boolean", "x-mcp-header": "Dry" },
        note: { type: "string" },
      },
    },
  },
  { name: "plain", inputSchema: { type: "object", properties: { x: { type: "string" } } } },
];
const listing = (pages: unknown[][] = [tools]) => {
  const calls: (string | undefined)[] = [];
  const list: ListTools = async (cursor) => {
    calls.push(cursor);
    const page = cursor === undefined ? 0 : Number(cursor);
    return {
      tools: pages[page]!,
      ...(page + 1 < pages.length ? { nextCursor: String(page + 1) } : {}),
    };
  };
  return { list, calls };
};
const headers = (h: Record<string, string>) => (name: string) =>
  Object.entries(h).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

describe("Mcp-Param-* headers on the server", () => {
  it("accepts headers equal to the arguments (Base64-encoded ones decoded, integers as numbers), and asks nothing of null or absent ones", async () => {
    const checker = createToolHeaderChecker();
    const { list } = listing();
    const params = {
      name: "deploy",
      arguments: { region: "Hello, 世界", replicas: 42, dry: true, note: "x" },
    };
    const sent = headers({
      "Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
      "mcp-param-replicas": "42.0",
      "Mcp-Param-Dry": "true",
    });
    expect(await checker.check("", params, sent, list)).toBeUndefined();
    expect(
      await checker.check("", { name: "deploy", arguments: { region: null } }, headers({}), list),
    ).toBeUndefined();
    expect(
      await checker.check("", { name: "plain", arguments: { x: "y" } }, headers({}), list),
    ).toBeUndefined();
  });

  it("refuses a missing header, a different value, and malformed encodings", async () => {
    const checker = createToolHeaderChecker();
    const { list } = listing();
    const call = (h: Record<string, string>) =>
      checker.check("", { name: "deploy", arguments: { region: "Hello" } }, headers(h), list);
    expect(await call({})).toBe('missing Mcp-Param-Region header for "region"');
    expect(await call({ "Mcp-Param-Region": "Goodbye" })).toBe(
      'Mcp-Param-Region header does not match the body\'s "region"',
    );
    for (const bad of ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "caf\u00e9"])
      expect(await call({ "Mcp-Param-Region": bad }), bad).toBe(
        "Mcp-Param-Region header is not a valid value",
      );
    // Without the sentinel's both ends, a value is literal.
    expect(decodeHeaderValue("=?base64?SGVsbG8=")).toBe("=?base64?SGVsbG8=");
    expect(
      await checker.check(
        "",
        { name: "deploy", arguments: { replicas: 42 } },
        headers({ "Mcp-Param-Replicas": "forty-two" }),
        list,
      ),
    ).toMatch(/does not match/);
  });

  it("lists every page once per caller while the plans are fresh, and keeps callers apart", async () => {
    const checker = createToolHeaderChecker();
    const { list, calls } = listing([[tools[1]], [tools[0]]]);
    const params = { name: "deploy", arguments: { region: "eu" } };
    expect(await checker.check("alice", params, headers({}), list)).toMatch(/missing/);
    expect(
      await checker.check("alice", params, headers({ "Mcp-Param-Region": "eu" }), list),
    ).toBeUndefined();
    expect(calls).toEqual([undefined, "1"]);
    await checker.check("bob", params, headers({}), list);
    expect(calls).toEqual([undefined, "1", undefined, "1"]);
  });
});

describe("Mcp-Param-* headers on the server, once the caller's tools are listed", () => {
  afterEach(() => vi.useRealTimers());

  it("answers at once from the caller's fresh plans, as the listing check does, until they expire", async () => {
    vi.useFakeTimers();
    const checker = createToolHeaderChecker();
    const { list, calls } = listing();
    const params = { name: "deploy", arguments: { region: "eu", replicas: 3 } };
    const cases = [
      {},
      { "Mcp-Param-Region": "eu" },
      { "Mcp-Param-Region": "eu", "Mcp-Param-Replicas": "3" },
      { "Mcp-Param-Region": "us", "Mcp-Param-Replicas": "3" },
      { "Mcp-Param-Region": "=?base64?!!?=", "Mcp-Param-Replicas": "3" },
    ];
    expect(checker.checkListed("alice", params, headers({}))).toBe(NOT_LISTED);
    const listed: (string | undefined)[] = [];
    for (const h of cases) listed.push(await checker.check("alice", params, headers(h), list));
    expect(listed).toContain(undefined);
    expect(new Set(listed).size).toBeGreaterThan(2);
    expect(cases.map((h) => checker.checkListed("alice", params, headers(h)))).toEqual(listed);
    expect(checker.checkListed("alice", { name: "plain", arguments: {} }, headers({}))).toBe(
      undefined,
    );
    expect(checker.checkListed("alice", { arguments: {} }, headers({}))).toBe(undefined);
    // Another caller's plans are its own; a listing that has not come back is not used.
    expect(checker.checkListed("bob", params, headers({}))).toBe(NOT_LISTED);
    const pending = checker.check("bob", params, headers({}), list);
    expect(checker.checkListed("bob", params, headers({}))).toBe(NOT_LISTED);
    await pending;
    expect(calls).toEqual([undefined, undefined]);
    vi.advanceTimersByTime(30_000);
    expect(checker.checkListed("alice", params, headers({}))).toBe(NOT_LISTED);
  });

  it("the HTTP server's check returns no promise and lists nothing once the plans are in", async () => {
    let listings = 0;
    const dispatcher = {
      handle: async (message: unknown) => {
        listings++;
        return { jsonrpc: "2.0", id: (message as { id: string }).id, result: { tools } };
      },
    };
    const check = toolHeaderCheck(PROTOCOL, dispatcher);
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "deploy", arguments: { region: "eu" } },
    };
    const first = check(call, "alice", headers({}));
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe('missing Mcp-Param-Region header for "region"');
    expect(check(call, "alice", headers({}))).toBe('missing Mcp-Param-Region header for "region"');
    expect(check(call, "alice", headers({ "Mcp-Param-Region": "eu" }))).toBe(undefined);
    expect(listings).toBe(1);
    // Not a tools/call: nothing to check, and nothing to wait for.
    expect(check({ ...call, method: "tools/list" }, "alice", headers({}))).toBe(undefined);
  });
});
