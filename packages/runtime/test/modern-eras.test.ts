import { describe, expect, it } from "vitest";
import { olderRevisions } from "../src/client/versions.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import type { RouterExtension } from "../src/server/extensions.js";
import { adaptResult, createModernRouter } from "../src/server/modern-router.js";
import type { ProtocolDescriptor } from "../src/core/protocol.js";
import type { AdaptedEra } from "../src/core/era.js";
import { LEGACY_PROTOCOL, PROTOCOL, VALIDATORS } from "./fixture.js";

// The fixture's stateless revision (2099-01-01) as the newest, and a previous stateless one
// (2098-06-01) without tools/list, whose tools/call result lacks `cost`.
const { "tools/list": _listOnlyNewest, ...previousMethods } = PROTOCOL.methods;
void _listOnlyNewest;
const PREVIOUS: AdaptedEra = {
  protocol: {
    ...PROTOCOL,
    revision: "previous",
    protocolVersion: "2098-06-01",
    methods: previousMethods,
  },
  validators: VALIDATORS,
  adapters: { "tools/call": { dropResultFields: ["cost"] } },
};
const MODERN = { protocol: PROTOCOL, validators: VALIDATORS };
const NEW = "2099-01-01";
const OLD = "2098-06-01";

const at = (
  version: string,
  method: string,
  params: Record<string, unknown> = {},
  id: number | string = 1,
) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: { v: version, caps: {}, ...(params["_meta"] as object) } },
});

const handlers = {
  "tools/call": (_params: unknown, ctx: any) => ({
    content: [{ type: "text", text: ctx.protocolVersion }],
    cost: 2,
  }),
  "tools/list": () => ({ tools: [] }),
};

describe("modern eras: older stateless revisions served per request", () => {
  it("routes a request by the version its _meta names, adapting the result to that revision", async () => {
    const router = createModernRouter(MODERN, [PREVIOUS], handlers);
    expect(await router.handle(at(OLD, "tools/call"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: OLD }], resultType: "complete" },
    });
    expect(await router.handle(at(NEW, "tools/call"))).toMatchObject({
      result: { content: [{ text: NEW }], cost: 2 },
    });
  });

  it("answers method not found for a method the older revision lacks, and serves it at the newest", async () => {
    const router = createModernRouter(MODERN, [PREVIOUS], handlers);
    expect(await router.handle(at(OLD, "tools/list"))).toMatchObject({ error: { code: -32601 } });
    expect(await router.handle(at(NEW, "tools/list"))).toMatchObject({ result: { tools: [] } });
  });

  it("refuses a version no revision speaks with every version served, newest first, from any router", async () => {
    const router = createModernRouter(MODERN, [PREVIOUS], handlers);
    const refused = await router.handleText(JSON.stringify(at("1999-01-01", "tools/call")));
    expect(refused).toMatchObject({
      error: { code: -32022, data: { supported: [NEW, OLD], requested: "1999-01-01" } },
    });
    // A server that chose to stop serving the previous revision refuses it too.
    const narrowed = createModernRouter(MODERN, [PREVIOUS], handlers, { supportedVersions: [NEW] });
    expect(await narrowed.handle(at(OLD, "tools/call"))).toMatchObject({
      error: { code: -32022, data: { supported: [NEW] } },
    });
  });

  it("cancels a request in flight at the older revision by a cancellation that names no version, calling the cancel handler once", async () => {
    let cancels = 0;
    let seen: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const router = createModernRouter(MODERN, [PREVIOUS], {
      "tools/call": (_p: unknown, ctx: any) =>
        new Promise((resolve) => {
          seen = ctx.signal;
          started();
          ctx.signal.addEventListener("abort", () => resolve({ content: [] }));
        }),
      "notifications/cancelled": () => void cancels++,
    });
    const channel = {};
    const pending = router.handle(at(OLD, "tools/call", {}, 7), { channel });
    await running;
    await router.handle(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } },
      { channel },
    );
    expect(seen?.aborted).toBe(true);
    expect(await pending).toBeUndefined();
    expect(cancels).toBe(1);
  });

  it("serves extensions at the newest revision only: an older request's handler does not see them declared", async () => {
    const extension: RouterExtension = {
      id: "example.com/ext",
      settings: {},
      requests: {},
      nameParams: {},
      resultMethods: [],
      validateResult: () => [],
      attach: () => undefined,
    };
    const declared = (version: string) =>
      at(version, "tools/call", {
        _meta: { caps: { extensions: { "example.com/ext": {}, "other/ext": {} } } },
      });
    const router = createModernRouter(
      MODERN,
      [PREVIOUS],
      {
        "tools/call": (_p: unknown, ctx: any) => ({
          content: [
            { type: "text", text: Object.keys(ctx.clientCapabilities.extensions).join(",") },
          ],
        }),
      },
      { extensions: [extension] },
    );
    expect(await router.handle(declared(OLD))).toMatchObject({
      result: { content: [{ text: "other/ext" }] },
    });
    expect(await router.handle(declared(NEW))).toMatchObject({
      result: { content: [{ text: "example.com/ext,other/ext" }] },
    });
  });

  it("drops resultType only for a revision without it", () => {
    const legacy: AdaptedEra = {
      protocol: { ...PROTOCOL, resultType: false } as ProtocolDescriptor,
      validators: VALIDATORS,
      adapters: {},
    };
    expect(adaptResult(legacy, "tools/call", { content: [], resultType: "complete" })).toEqual({
      content: [],
    });
    expect(
      adaptResult(PREVIOUS, "tools/call", { content: [], resultType: "complete", cost: 1 }),
    ).toEqual({ content: [], resultType: "complete" });
  });

  it("in the era dispatcher: every version served is listed, and a request naming an older version is not an initialize", async () => {
    const legacy = { protocol: LEGACY_PROTOCOL, validators: VALIDATORS, adapters: {} };
    const dispatcher = createEraDispatcher(
      { modern: MODERN, previous: [PREVIOUS], legacy: [legacy] },
      {
        ...handlers,
        initialize: () => ({}),
      },
    );
    expect(dispatcher.supportedVersions).toEqual([NEW, OLD, "2098-01-01"]);
    const channel = {};
    expect(await dispatcher.handle(at(OLD, "tools/call"), { channel })).toMatchObject({
      result: { content: [{ text: OLD }] },
    });
    expect(await dispatcher.handle(at(OLD, "initialize"), { channel })).toMatchObject({
      error: { code: -32601 },
    });
    expect(dispatcher.session(channel)).toBeUndefined();
  });
});

describe("client: older stateless revisions it speaks", () => {
  it("offers their versions, refuses a method the revision in use lacks, and reads its results in the newest shape", () => {
    const older = olderRevisions([
      { ...PREVIOUS, adapters: { "tools/call": { dropResultFields: ["ttlMs", "cost"] } } },
    ]);
    expect(older.versions).toEqual([OLD]);
    expect(() => older.check(OLD, "tools/list")).toThrow(
      /tools\/list does not exist for a server speaking MCP 2098-06-01/,
    );
    expect(() => older.check(OLD, "tools/call")).not.toThrow();
    expect(() => older.check(NEW, "tools/list")).not.toThrow();
    // ttlMs gets the value that keeps the older meaning; cost, optional, stays absent.
    expect(older.adapt(OLD, "tools/call", { content: [] })).toEqual({
      content: [],
      resultType: "complete",
      ttlMs: 0,
    });
    expect(older.adapt(NEW, "tools/call", { content: [] })).toEqual({ content: [] });
  });
});
