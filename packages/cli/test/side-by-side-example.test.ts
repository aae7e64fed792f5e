// examples/side-by-side as its reader would use it: the protocol code generated from its own
// mcp-gen.config.json (four revisions), every file type-checked with it under the strict
// flags (mistakes.ts's `@ts-expect-error` must meet its error, the SDK's mistake must
// compile), the compiler's message for mcp-gen's mistake as docs/guide/side-by-side.md shows
// it, then main.ts run against each server (the v2 SDK client 2.4.0 calling every tool).
// packages/cli/test/side-by-side.test.ts runs the same files in `npm test`, without the type-check.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, typecheck } from "./helpers.js";
import { prepareExample, runScript, transpiledExample } from "./support/example-project.js";

const PAGE = join(ROOT, "docs", "guide", "side-by-side.md");

describe("examples/side-by-side", () => {
  it("type-checks with its generated code, and both servers answer main.ts's calls alike", async () => {
    const { dir, sources } = await prepareExample("side-by-side");
    expect(sources).toEqual([
      "calls.ts",
      "main.ts",
      "mistakes.ts",
      "shop.ts",
      "with-mcp-gen.ts",
      "with-sdk.ts",
    ]);
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);

    // mcp-gen's mistake without its @ts-expect-error: the one error the page quotes.
    const mistakes = join(dir, "mistakes.ts");
    const source = readFileSync(mistakes, "utf8");
    const unmarked = source.replace(/^ *\/\/ @ts-expect-error.*\n/m, "");
    expect(unmarked).not.toBe(source);
    writeFileSync(mistakes, unmarked);
    const errors = typecheck([mistakes]).map((e) => e.slice(dir.length + 1));
    expect(errors).toHaveLength(1);
    expect(readFileSync(PAGE, "utf8")).toContain(`\n${errors[0]}\n`);
    writeFileSync(mistakes, source);

    const js = transpiledExample(dir);
    const runs = [];
    // main.js serves on PORT (a free one: 0), which the scripts it runs inherit.
    const port = process.env["PORT"];
    process.env["PORT"] = "0";
    try {
      for (const which of ["mcp-gen", "sdk"]) {
        const run = await runScript(join(js, "main.js"), [which]);
        expect(run.stderr, which).toBe("");
        expect(run.status, which).toBe(0);
        runs.push(run.stdout.trimEnd().split("\n"));
      }
    } finally {
      if (port === undefined) delete process.env["PORT"];
      else process.env["PORT"] = port;
    }
    const [mcpGen, sdk] = runs as [string[], string[]];
    const { VALID, INVALID } = (await import(join(js, "calls.js"))) as {
      VALID: unknown[];
      INVALID: unknown[];
    };
    expect(mcpGen[0]).toMatch(/^MCP server listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(sdk[0]).toMatch(/^MCP server listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // The tools and every valid call's answer, the same; each invalid call refused by both.
    const agreed = 1 + VALID.length;
    expect(mcpGen[1]).toBe("tools: search_books, order_pizza, divide");
    expect(sdk.slice(1, 1 + agreed)).toEqual(mcpGen.slice(1, 1 + agreed));
    for (const lines of [mcpGen, sdk]) {
      const refusals = lines.slice(1 + agreed);
      expect(refusals).toHaveLength(INVALID.length);
      for (const line of refusals) expect(line).toMatch(/Input validation error.*"isError":true/);
    }
    // A strict type-check of the generated code with both SDKs' types: about a minute.
  }, 300_000);
});
