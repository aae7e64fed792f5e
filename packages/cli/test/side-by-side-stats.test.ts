// The numbers of docs/guide/side-by-side.md are counted from examples/side-by-side, never
// typed: the page's table must be what tooling/docs/side-by-side-stats.mjs counts now (run
// it with --write after changing either file), and the counter must count what it says.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  fileStats,
  pageTable,
  sideBySideStats,
  statsTable,
} from "../../../tooling/docs/side-by-side-stats.mjs";
import { tempDir } from "./helpers.js";

describe("docs/guide/side-by-side.md's numbers", () => {
  it("are the ones counted from the example's two files", () => {
    const table = pageTable();
    expect(table, "the page has no table between its markers").toBeDefined();
    expect(table, "run: node tooling/docs/side-by-side-stats.mjs --write").toBe(
      statsTable(sideBySideStats()),
    );
  });

  it("count lines with code, per region, and each escape from the type checker", () => {
    const file = join(tempDir("mcp-gen-stats-"), "counted.ts");
    const regions = ["search", "order", "divide", "serve"].map(
      (name) => `// #region ${name}\nconst ${name} = 1;\n// #endregion ${name}\n`,
    );
    writeFileSync(
      file,
      [
        "/* a comment",
        "   over two lines */",
        "const a = JSON.parse('1') as number; // a cast, and a comment after code",
        "",
        "const b = [1] as const; // not a cast",
        "const c = <string>(a as unknown);",
        "let d: any = a;",
        "d = document.body!.textContent!;",
        "const url = `http://example.com/${a}/b`; // a template with // inside",
        ...regions,
      ].join("\n"),
    );
    expect(fileStats(file)).toEqual({
      lines: 6 + regions.length,
      regions: { search: 1, order: 1, divide: 1, serve: 1 },
      casts: 3,
      nonNull: 2,
      any: 1,
    });
  });
});

describe("what the page says of the numbers", () => {
  const { mcpGen, sdk } = sideBySideStats();

  it("the first two tools take as many lines in both; the SDK file is the longer", () => {
    expect(sdk.regions["search"]).toBe(mcpGen.regions["search"]);
    expect(sdk.regions["order"]).toBe(mcpGen.regions["order"]);
    expect(sdk.regions["divide"]).toBeGreaterThan(mcpGen.regions["divide"]);
    expect(sdk.regions["serve"]).toBeGreaterThan(mcpGen.regions["serve"]);
    expect(sdk.lines).toBeGreaterThan(mcpGen.lines);
  });

  it("neither file has a cast, a non-null assertion or an any", () => {
    for (const stats of [mcpGen, sdk])
      expect([stats.casts, stats.nonNull, stats.any]).toEqual([0, 0, 0]);
  });
});
