import { beforeAll, describe, expect, it } from "vitest";
import { generatedFiles, importGenerated } from "./helpers.js";

type Error = { path: string; message: string; expected?: string };
type Result = { ok: true; value: unknown } | { ok: false; errors: Error[] };
type Validators = Record<string, (value: unknown, ...rest: any[]) => any>;

let v: Validators;
beforeAll(async () => {
  v = await importGenerated<Validators>(await generatedFiles("2026-07-28"), "validators.js");
});

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function callTool(params: Record<string, unknown>): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "echo", _meta: meta, ...params },
  };
}

/** Runs both entry points; neither may throw, and they must agree. */
function check(type: string, value: unknown): Result {
  let is: boolean | undefined;
  let result: Result | undefined;
  expect(() => (is = v[`is${type}`]!(value) as boolean)).not.toThrow();
  expect(() => (result = v[`validate${type}`]!(value) as Result)).not.toThrow();
  expect(result!.ok).toBe(is);
  if (!result!.ok) {
    expect(result!.errors.length).toBeGreaterThan(0);
    for (const e of result!.errors) expect(e.path === "" || e.path.startsWith("/")).toBe(true);
  }
  return result!;
}

const errorsOf = (r: Result) => (r.ok ? [] : r.errors);

describe("hostile input never throws and never overflows the stack", () => {
  it("cyclic objects where the schema allows anything are accepted", () => {
    const args: Record<string, unknown> = {};
    args["self"] = args;
    expect(check("CallToolRequest", callTool({ arguments: args })).ok).toBe(true);
  });

  it("cyclic objects inside JSON values are rejected at a depth limit, with a path", () => {
    const loop: Record<string, unknown> = {};
    loop["again"] = loop;
    const r = check("ClientCapabilities", { experimental: { x: loop } });
    expect(r.ok).toBe(false);
    expect(errorsOf(r)[0]!.path).toMatch(/^\/experimental\/x(\/again)+$/);
    expect(errorsOf(r)[0]!.message).toMatch(/nested more than \d+ levels deep/);
  });

  it("nesting 100,000 deep", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = check("JSONValue", deep);
    expect(r.ok).toBe(false);
    expect(errorsOf(r)[0]!.path).toMatch(/^(\/0)+$/);
    let deepObject: unknown = {};
    for (let i = 0; i < 100_000; i++) deepObject = { a: deepObject };
    expect(check("JSONObject", deepObject).ok).toBe(false);
    // Where the schema allows any value, depth does not matter: nothing is walked.
    expect(check("CallToolRequest", callTool({ arguments: { deep: deepObject } })).ok).toBe(true);
  });

  it("__proto__, constructor and prototype keys", () => {
    const parsed = JSON.parse('{"__proto__": {"a": 1}, "constructor": 1, "prototype": "x"}');
    expect(check("JSONObject", parsed).ok).toBe(true);
    // The own value of "__proto__" is what gets validated, not Object.prototype.
    const bad = JSON.parse('{"experimental": {"__proto__": 5}}');
    const r = check("ClientCapabilities", bad);
    expect(r.ok).toBe(false);
    expect(errorsOf(r)[0]).toMatchObject({ path: "/experimental/__proto__", expected: "object" });
    expect(
      check("Implementation", JSON.parse('{"name": "n", "version": "1", "__proto__": null}')).ok,
    ).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("objects with throwing getters", () => {
    const value = callTool({});
    Object.defineProperty(value, "method", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const r = check("CallToolRequest", value);
    expect(r.ok).toBe(false);
    expect(errorsOf(r)[0]).toMatchObject({ path: "", message: "could not be read: boom" });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(check("Implementation", revoked.proxy).ok).toBe(false);
  });

  it("Map, Date and class instances", () => {
    expect(errorsOf(check("Implementation", new Map([["name", "x"]])))[0]!.message).toMatch(
      /required property "name" is missing/,
    );
    expect(check("Implementation", new Date()).ok).toBe(false);
    class Impl {
      name = "n";
      version = "1";
    }
    // A plain object in JSON Schema's sense: its own properties are what count.
    expect(check("Implementation", new Impl()).ok).toBe(true);
    expect(check("MetaObject", new Date()).ok).toBe(true);
  });

  it("arrays with holes", () => {
    const r = check("StringSchema", { type: "string" });
    expect(r.ok).toBe(true);
    // eslint-disable-next-line no-sparse-arrays -- the hole is what is tested
    const holes = ["a", , "c"];
    const list = check("ListRootsResult", {
      roots: holes.map((x) => (x ? { uri: `file:///${x}` } : x)),
    });
    expect(errorsOf(list)).toEqual([
      { path: "/roots/1", message: "expected object, found nothing", expected: "object" },
    ]);
  });

  it("NaN, Infinity and -0", () => {
    const progress = (p: number) => ({ progressToken: 1, progress: p });
    expect(check("ProgressNotificationParams", progress(0.5)).ok).toBe(true);
    expect(check("ProgressNotificationParams", progress(NaN)).ok).toBe(false);
    expect(check("ProgressNotificationParams", progress(Infinity)).ok).toBe(false);
    expect(errorsOf(check("ProgressNotificationParams", progress(-Infinity)))[0]).toMatchObject({
      path: "/progress",
      message: "expected number, found number -Infinity",
    });
    expect(check("ProgressNotificationParams", progress(-0)).ok).toBe(true);
    // -0 is an integer; NaN and Infinity are not.
    expect(check("RequestId", -0).ok).toBe(true);
    expect(check("RequestId", Infinity).ok).toBe(false);
    expect(check("RequestId", NaN).ok).toBe(false);
  });

  it("BigInt, symbols and functions", () => {
    expect(errorsOf(check("RequestId", 1n))[0]!.message).toBe(
      "expected string | integer, found bigint",
    );
    expect(errorsOf(check("RequestId", Symbol("x")))[0]!.message).toBe(
      "expected string | integer, found symbol",
    );
    expect(errorsOf(check("Implementation", () => 1))[0]!.message).toBe(
      "expected object, found function",
    );
    expect(
      check("CallToolRequest", callTool({ arguments: { f: () => 1, s: Symbol("s"), b: 2n } })).ok,
    ).toBe(true);
  });

  it("strings of 10 MB, in plain and format-checked fields", () => {
    const big = "a".repeat(10 * 1024 * 1024);
    expect(check("Implementation", { name: big, version: "1" }).ok).toBe(true);
    const uri = check("ResourceContents", { uri: `https://example.com/${big}` });
    expect(uri.ok).toBe(true);
    const notUri = check("ResourceContents", { uri: ` ${big}` });
    expect(errorsOf(notUri)[0]).toMatchObject({ path: "/uri", expected: "format uri" });
    expect(errorsOf(notUri)[0]!.message.length).toBeLessThan(200);
    expect(
      check("ImageContent", {
        type: "image",
        data: "QUJD".repeat(1024 * 1024),
        mimeType: "image/png",
      }).ok,
    ).toBe(true);
  });

  it("never mutates its input", () => {
    const value = callTool({ arguments: { a: [1, 2, { b: null }] }, extra: "kept" });
    const copy = structuredClone(value);
    const frozen = structuredClone(value);
    deepFreeze(frozen);
    expect(check("CallToolRequest", frozen).ok).toBe(true);
    expect(v["validateCallToolRequest"]!(value)).toEqual({ ok: true, value: copy });
    expect(v["validateCallToolRequest"]!(value).value).toBe(value);
  });
});

describe("readable failures", () => {
  it("a bad tools/call request reports the errors of the tools/call branch only", () => {
    const r = v["validateRequestMessage"]!(
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: 42, _meta: meta, arguments: [] },
      },
      "client->server",
    ) as Result;
    expect(errorsOf(r)).toEqual([
      { path: "/params/name", message: "expected string, found number 42", expected: "string" },
      { path: "/params/arguments", message: "expected object, found array", expected: "object" },
    ]);
    const union = check("ClientRequest", {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "x", _meta: {} },
    });
    expect(errorsOf(union).map((e) => e.path)).toEqual([
      "/params/_meta/io.modelcontextprotocol~1protocolVersion",
      "/params/_meta/io.modelcontextprotocol~1clientCapabilities",
    ]);
  });

  it("an unknown method names the method and the direction", () => {
    const r = v["validateRequestMessage"]!(
      { jsonrpc: "2.0", id: 1, method: "tools/frobnicate", params: {} },
      "client->server",
    ) as Result;
    expect(errorsOf(r)).toEqual([
      { path: "/method", message: 'unknown method "tools/frobnicate" for client->server requests' },
    ]);
    const union = check("ClientRequest", { jsonrpc: "2.0", id: 1, method: "nope" });
    expect(errorsOf(union)[0]!.path).toBe("/method");
    expect(errorsOf(union)[0]!.expected).toMatch(/^"server\/discover" \| .*"tools\/call"/);
  });

  it("a failed non-discriminated union reports the closest branch", () => {
    const r = check("ReadResourceResult", {
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      contents: [{ uri: "file:///a", blob: 5 }],
    });
    expect(errorsOf(r)).toEqual([
      { path: "/contents/0/blob", message: "expected string, found number 5", expected: "string" },
    ]);
    const none = check("ContentBlock", 5);
    expect(errorsOf(none)).toHaveLength(1);
    expect(errorsOf(none)[0]!.message).toBe("expected object, found number 5");
  });

  it("messages are classified by shape and validated by method and direction", () => {
    expect(v["classifyMessage"]!({ jsonrpc: "2.0", id: 3, method: "tools/list" })).toEqual({
      kind: "request",
      method: "tools/list",
      id: 3,
    });
    expect(v["classifyMessage"]!({ jsonrpc: "2.0", method: "notifications/cancelled" })).toEqual({
      kind: "notification",
      method: "notifications/cancelled",
    });
    expect(v["classifyMessage"]!({ jsonrpc: "2.0", id: 3, result: {} })).toEqual({
      kind: "result",
      id: 3,
    });
    expect(
      v["classifyMessage"]!({ jsonrpc: "2.0", id: null, error: { code: 1, message: "x" } }),
    ).toEqual({ kind: "error", id: null });
    expect(v["classifyMessage"]!([1])).toBeUndefined();
    const progress = {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 1 },
    };
    expect((v["validateMessage"]!(progress, "server->client") as Result).ok).toBe(true);
    expect(
      errorsOf(v["validateMessage"]!(progress, "client->server") as Result)[0]!.message,
    ).toMatch(/unknown method "notifications\/progress" for client->server notifications/);
  });

  it("results are validated against the method's result type, input_required where the method allows it", () => {
    const interim = { resultType: "input_required", requestState: "abc" };
    expect((v["validateMethodResult"]!("tools/call", interim) as Result).ok).toBe(true);
    expect(
      (v["validateMethodResult"]!("tools/call", { resultType: "input_required" }) as Result).ok,
    ).toBe(true);
    expect(
      (
        v["validateMethodResult"]!("tools/list", {
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "private",
          tools: [],
        }) as Result
      ).ok,
    ).toBe(true);
    const wrong = v["validateMethodResult"]!("tools/call", {
      resultType: "complete",
      content: "nope",
    }) as Result;
    expect(errorsOf(wrong)).toEqual([
      { path: "/content", message: 'expected array, found string "nope"', expected: "array" },
    ]);
    expect(errorsOf(v["validateMethodResult"]!("nope", {}) as Result)[0]!.message).toBe(
      'unknown method "nope" for results',
    );
    expect(
      (
        v["validateInputResult"]!("elicitation/create", {
          action: "accept",
          content: { a: 1 },
        }) as Result
      ).ok,
    ).toBe(true);
  });
});

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
