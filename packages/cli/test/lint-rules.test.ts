import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintRevision, RULES } from "../src/lint/index.js";
import { loadRevision } from "../src/schema/index.js";
import { fixture, ROOT, tempDir } from "./helpers.js";

// Each rule on its fixture (packages/cli/test/fixtures/lint/README.md): the fixture's
// findings are exactly the places listed here, and the clean fixture has none at all.

const REVISION = "2099-01-01";

/** A spec checkout: fixtures/lint/clean with the named fixture's files laid over it. */
function lintFixture(name: string | undefined): string {
  const spec = tempDir("mcp-gen-lint-");
  const dir = join(spec, "schema", REVISION);
  cpSync(fixture("lint/clean"), dir, { recursive: true });
  if (name === undefined) return spec;
  const overlay = fixture(`lint/${name}`);
  const append = join(overlay, "append.ts");
  cpSync(overlay, dir, { recursive: true, filter: (src) => src !== append });
  if (existsSync(append)) {
    const schema = join(dir, "schema.ts");
    writeFileSync(schema, readFileSync(schema, "utf8") + readFileSync(append, "utf8"));
  }
  return spec;
}

/** Where a finding must point: the first line of `file` (in the revision's folder) containing `at`. */
interface Place {
  file: string;
  at: string;
}

function lineOf(spec: string, { file, at }: Place): string {
  const path = join(spec, "schema", REVISION, file);
  const index = readFileSync(path, "utf8")
    .split("\n")
    .findIndex((line) => line.includes(at));
  if (index === -1) throw new Error(`${file} has no line with ${at}`);
  return `${file}:${index + 1}`;
}

const CASES: { rule: string; places: Place[]; message?: RegExp }[] = [
  {
    rule: "undocumented-type",
    places: [
      { file: "schema.ts", at: "interface Bare " },
      { file: "schema.ts", at: "type BareAlias" },
    ],
  },
  {
    rule: "undocumented-field",
    places: [
      { file: "schema.ts", at: "bare: string" },
      { file: "schema.ts", at: "inner: number" },
    ],
    message: /^field Fields\.(bare|nested\.inner) has no description$/,
  },
  {
    rule: "union-without-discriminant",
    places: [
      { file: "schema.ts", at: "type Blob" },
      { file: "schema.ts", at: "type Loose" },
    ],
  },
  {
    rule: "request-without-result",
    places: [{ file: "schema.ts", at: "interface SubscribeRequest" }],
    message: /resources\/subscribe \(SubscribeRequest\).*SubscribeResult.*EmptyResult/,
  },
  {
    rule: "irregular-method-name",
    places: [
      { file: "schema.ts", at: "interface ListAllRequest" },
      { file: "schema.ts", at: "interface ShoutRequest" },
    ],
  },
  {
    rule: "deprecated-without-reference",
    places: [
      { file: "schema.ts", at: "interface OldResult" },
      { file: "schema.ts", at: "old?: string" },
    ],
  },
  {
    rule: "invalid-example",
    places: [
      { file: "examples/Nothing/empty.json", at: "{" },
      { file: "examples/PingRequest/comment.json", at: "//" },
      { file: "schema.ts", at: "interface PingRequest" },
    ],
    message: /not JSON|names no type|string-id\.json does not validate as PingRequest: \/id/,
  },
  {
    rule: "json-def-missing",
    places: [
      { file: "schema.json", at: '"OnlyInJson"' },
      { file: "schema.ts", at: "type OnlyInTs" },
    ],
  },
  {
    rule: "json-required-mismatch",
    places: [
      { file: "schema.ts", at: "interface PingRequest" },
      { file: "schema.ts", at: "interface PingResult" },
    ],
    message: /(PingRequest.*schema\.ts only: id\))|(PingResult.*schema\.ts only: status\))/,
  },
  {
    rule: "json-fields-mismatch",
    places: [{ file: "schema.ts", at: "interface PingResult" }],
    message: /schema\.json only: uptime/,
  },
];

describe("lint rules on their fixtures", () => {
  it("covers every rule with a fixture", () => {
    expect(CASES.map((c) => c.rule).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it("documents every rule, with its severity, in docs/reference/lint.md, in the table's order", () => {
    const page = readFileSync(join(ROOT, "docs", "reference", "lint.md"), "utf8");
    const documented = [...page.matchAll(/^## ([a-z-]+)\n\n\*\*(\w+)\.\*\*/gm)].map((m) => ({
      id: m[1],
      severity: m[2],
    }));
    expect(documented).toEqual(RULES.map((r) => ({ id: r.id, severity: r.severity })));
  });

  it("finds nothing on the clean fixture", async () => {
    const spec = lintFixture(undefined);
    const report = await lintRevision(loadRevision(spec, REVISION));
    expect(report.findings).toEqual([]);
    rmSync(spec, { recursive: true, force: true });
  });

  it.each(CASES)("$rule points at its places", async ({ rule, places, message }) => {
    const spec = lintFixture(rule);
    const { findings } = await lintRevision(loadRevision(spec, REVISION));
    const mine = findings.filter((f) => f.rule === rule);
    const at = (file: string) => file.slice(join(spec, "schema", REVISION).length + 1);
    expect(mine.map((f) => `${at(f.loc.file)}:${f.loc.line}`).sort()).toEqual(
      places.map((p) => lineOf(spec, p)).sort(),
    );
    const severity = RULES.find((r) => r.id === rule)!.severity;
    for (const f of mine) {
      expect(f.severity).toBe(severity);
      if (message) expect(f.message).toMatch(message);
    }
    rmSync(spec, { recursive: true, force: true });
  });
});
