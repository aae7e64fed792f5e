import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";

// A server's capabilities are decided once for both eras (runtime server-capabilities.ts):
// what a generated dual-era dispatcher answers a 2026-07-28 client's server/discover and a
// legacy client's initialize agree, logging included. It once did not: initialize always
// declared logging, server/discover only with the `capabilities` option, although the same
// handlers (`ctx.log`) logged to clients of both eras.

type Any = any;

let d: Any;
beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["dispatcher"], {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25"), loadRevision(SPEC_DIR, "2025-03-26")],
  });
  d = await import(join(writeGenerated(files), "dispatcher.js"));
}, 120_000);

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** What server/discover and initialize (at `version`) declare, from one dispatcher. */
async function declared(handlers: object, options: object = {}, version = "2025-11-25") {
  const server = d.createServerDispatcher(handlers, options);
  const discover = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } };
  const discovered = await server.handle(discover);
  const initialize = {
    jsonrpc: "2.0",
    id: 2,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } },
  };
  const initialized = await server.handle(initialize, { channel: {} });
  expect(initialized.result.protocolVersion).toBe(version);
  return { modern: discovered.result.capabilities, legacy: initialized.result.capabilities };
}

const logs = {
  "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
  "tools/call": async (_params: unknown, ctx: Any) => {
    await ctx.log("info", "called");
    return { content: [] };
  },
};

describe("the capabilities a dual-era server declares", () => {
  it("agree between server/discover and initialize for handlers that log, with no option: logging in both", async () => {
    for (const version of ["2025-11-25", "2025-03-26"]) {
      const { modern, legacy } = await declared(logs, {}, version);
      expect(modern, version).toEqual({ tools: {}, logging: {} });
      expect(legacy, version).toEqual(modern);
    }
  });

  it("agree with the capabilities option laid over them, in both eras", async () => {
    const options = { capabilities: { tools: { listChanged: true }, logging: {} } };
    const { modern, legacy } = await declared(logs, options);
    expect(modern).toEqual({ tools: { listChanged: true }, logging: {} });
    expect(legacy).toEqual(modern);
  });

  it("agree for a server with no handler: logging alone", async () => {
    const { modern, legacy } = await declared({});
    expect(modern).toEqual({ logging: {} });
    expect(legacy).toEqual(modern);
  });
});
