import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { lintJson, lintRevision, lintText } from "../src/lint/index.js";
import { listExamples } from "../src/lint/rules/examples.js";
import { loadRevision } from "../src/schema/index.js";
import { ROOT, SPEC_DIR, SPEC_REVISIONS } from "./helpers.js";

// `mcp-gen lint` over the spec itself: docs/guide/spec-findings.md quotes its counts and
// findings for one revision (checked here, in `npm test`), and every revision lints without
// a crash to the same output twice.

const GUIDE = join(ROOT, "docs", "guide", "spec-findings.md");

interface JsonReport {
  revision: string;
  rules: { id: string; severity: string; count: number }[];
  findings: { file: string; line: number; column: number }[];
}

/** The guide's rows of counts, as `--format json`'s `rules`. */
function guideRows(page: string): JsonReport["rules"] {
  return [...page.matchAll(/^\| \[`([a-z-]+)`\]\([^)]*\) \| (\w+) \| (\d+) \|$/gm)].map((m) => ({
    id: m[1]!,
    severity: m[2]!,
    count: Number(m[3]),
  }));
}

/** The lines of the guide's `text` blocks that quote the command's output. */
function quotedLines(page: string): string[] {
  const blocks = [...page.matchAll(/^```text\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split("\n"))
    .filter((l) => l.startsWith("schema/") || l.startsWith("mcp-gen lint:"));
}

describe("docs/guide/spec-findings.md", () => {
  it("quotes the command's counts and findings for its revision", async () => {
    const page = readFileSync(GUIDE, "utf8");
    const revision = /^mcp-gen lint: (\S+):/m.exec(page)?.[1];
    expect(revision).toBeDefined();
    const loaded = loadRevision(SPEC_DIR, revision);
    const report = await lintRevision(loaded);
    const json = lintJson(report, SPEC_DIR) as JsonReport;
    expect(guideRows(page)).toEqual(json.rules);
    const output = new Set(lintText(report, (file) => relative(SPEC_DIR, file)));
    const quoted = quotedLines(page);
    expect(quoted.length).toBeGreaterThan(5);
    expect(quoted.filter((line) => !output.has(line))).toEqual([]);
    // The numbers in its prose: the examples checked and the types both schema files declare.
    const examples = listExamples(loaded.revision.examplesDir).length;
    expect(/the revision's (\d+) examples/.exec(page)?.[1]).toBe(String(examples));
    const types = loaded.model.declarations.filter((d) => d.kind !== "const").length;
    expect(/declare the same (\d+) types/.exec(page)?.[1]).toBe(String(types));
  });
});

/**
 * A revision with examples generates its validators to check them (seconds of CPU a lint):
 * tagged corpus. The others lint in well under a second and stay in `npm test`.
 */
const tagsFor = (revision: string) => ({
  tags: listExamples(join(SPEC_DIR, "schema", revision, "examples")).length > 0 ? ["corpus"] : [],
});

describe.each(SPEC_REVISIONS)("mcp-gen lint on %s", (revision) => {
  it(
    "lints to the same output twice, every finding inside the revision",
    tagsFor(revision),
    async () => {
      const once = async () =>
        lintJson(await lintRevision(loadRevision(SPEC_DIR, revision)), SPEC_DIR) as JsonReport;
      const first = await once();
      expect(JSON.stringify(await once())).toBe(JSON.stringify(first));
      expect(first.revision).toBe(revision);
      for (const f of first.findings) {
        expect(f.file.startsWith(`schema/${revision}/`)).toBe(true);
        expect(f.line).toBeGreaterThanOrEqual(1);
        expect(f.column).toBeGreaterThanOrEqual(1);
      }
    },
  );
});
