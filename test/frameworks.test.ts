// The deployment recipes on Node.js (examples/deployment, shown in docs/guide/deployment.md),
// each serving one generated dual-era server (2026-07-28 handlers, 2025-11-25 .. 2025-03-26
// through initialize) and reached by the real SDK clients over both eras
// (test/support/platform-clients.ts): node:http; Express 5 with express.json() before the
// route and a mount path; Fastify 5 with its JSON parser and a hijacked reply; Hono on
// @hono/node-server through the web-standard fetch handler. platforms/ runs the others.
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typecheck } from "./helpers.js";
import {
  exampleSources,
  prepareDeployment,
  startRecipe,
  stopRecipes,
  type PreparedExample,
} from "./support/deployment-example.js";
import { expectBothEras } from "./support/platform-clients.js";

const children: ChildProcess[] = [];
let example: PreparedExample;
beforeAll(async () => {
  example = await prepareDeployment();
});
afterAll(() => stopRecipes(children));

describe("examples/deployment", () => {
  it("type-checks with its generated code, every recipe (Deno, Bun, Workers, Next.js too)", () => {
    const sources = exampleSources(example.sources);
    expect(sources).toEqual([
      "bun.ts",
      "cors.ts",
      "deno.ts",
      "express.ts",
      "fastify.ts",
      "hono-node.ts",
      "hono.ts",
      "next/app/layout.ts",
      "next/app/mcp/route.ts",
      "node-http.ts",
      "redis-sessions.ts",
      "server.ts",
      "shutdown.ts",
      "worker.ts",
    ]);
    expect(typecheck(sources.map((f) => join(example.sources, f)))).toEqual([]);
  }, 180_000);

  for (const recipe of ["node-http", "express", "fastify", "hono-node"])
    it(`${recipe}.ts: the v1 and v2 SDK clients over both eras`, async () => {
      const url = await startRecipe(
        process.execPath,
        [join(example.js, `${recipe}.js`)],
        example.js,
        children,
      );
      await expectBothEras(url, expect);
    });
});
