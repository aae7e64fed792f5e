import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { runtimeImports } from "../src/generators/emit/runtime.js";
import { validatorsGenerator } from "../src/generators/emit/validators.js";
import type { LoadedRevision } from "../src/schema/index.js";
import { MAX_INHERITANCE } from "../src/schema/nesting.js";
import { buildProtocol } from "../src/schema/protocol.js";
import { readSchemaText } from "../src/schema/reader.js";
import { findRevision } from "../src/schema/revisions.js";
import {
  cli,
  fakeSpec,
  importGenerated,
  readFixture,
  SPEC_DIR,
  tempDir,
  typecheck,
  writeFiles,
} from "./helpers.js";
import { itCompiles } from "./support/compile.js";

// Validators flattened inheritance: every interface repeated the checks of every property it
// inherits, so a chain of n interfaces gave validators.ts of size n²/2 (36 MB at 500 levels,
// a RangeError at 3,000). Now an interface's validators call its bases' where that checks the
// same, and `extends` chains have a located depth limit.

type Result =
  { ok: true; value: unknown } | { ok: false; errors: { path: string; message: string }[] };
type Validators = Record<string, (value: unknown, options?: { firstError?: boolean }) => any>;

function loaded(extra: string): LoadedRevision {
  const model = readSchemaText("fixture.ts", `${readFixture("mini-schema.ts")}\n${extra}\n`);
  return {
    revision: { ...findRevision(SPEC_DIR, "latest"), name: "2099-01-01" },
    model,
    protocol: buildProtocol(model),
  };
}

/** `L0` .. `L<depth>`, each extending the one before and adding a property. */
function chain(depth: number): string {
  const lines = ["export interface L0 {\n  p0: string;\n}"];
  for (let i = 1; i <= depth; i++)
    lines.push(`export interface L${i} extends L${i - 1} {\n  p${i}: { n: number };\n}`);
  return lines.join("\n");
}

/** A valid `L<depth>`. */
function value(depth: number): Record<string, unknown> {
  const v: Record<string, unknown> = { p0: "x" };
  for (let i = 1; i <= depth; i++) v[`p${i}`] = { n: i };
  return v;
}

const GENERATORS = ["types", "methods", "validators"];
const validatorsSize = (extra: string) =>
  validatorsGenerator.emit({
    loaded: loaded(extra),
    header: "",
    legacy: [],
    auth: false,
    headerFor: () => "",
    runtime: runtimeImports("package"),
  })[0]!.code.length;

function compiles(files: OutputFile[]): string[] {
  const dir = tempDir();
  writeFiles(dir, files);
  return typecheck(files.map((f) => join(dir, f.path)));
}

describe("an extends chain", () => {
  it("grows validators.ts linearly with its depth", () => {
    const [at0, at100, at200] = [0, 100, 200].map((d) => validatorsSize(chain(d)));
    // Before: 2.0 MB at 100 levels, 7.7 MB at 200 (the second hundred cost three times the first).
    expect(at200! - at100!).toBeLessThan(1.1 * (at100! - at0!));
    // About 2 kB a level (the first few levels' `$is` also write in their small bases' checks).
    expect(at200! - at0!).toBeLessThan(200 * 2_100);
  });

  itCompiles("compiles at depth 40", async () => {
    expect(compiles(await generate(loaded(chain(40)), GENERATORS))).toEqual([]);
  });

  it("validates as the flattened type, errors at the inherited property's path", async () => {
    const files = await generate(loaded(chain(40)), GENERATORS);
    const v = await importGenerated<Validators>(files, "validators.js");
    expect(v["isL40"]!(value(40))).toBe(true);
    const { p0: _, ...missing } = value(40);
    expect(v["isL40"]!(missing)).toBe(false);
    expect(v["isL40"]!({ ...value(40), p7: { n: "7" } })).toBe(false);
    expect(v["isL40"]!(5)).toBe(false);
    const r = v["validateL40"]!({ ...missing, p7: { n: "7" } }) as Result;
    expect(r.ok ? [] : r.errors.map((e) => [e.path, e.message])).toEqual([
      ["/p0", 'required property "p0" is missing'],
      ["/p7/n", 'expected integer, found string "7"'],
    ]);
    const first = v["validateL40"]!({ ...missing, p7: { n: "7" } }, { firstError: true }) as Result;
    expect(first.ok ? [] : first.errors).toEqual(r.ok ? [] : r.errors.slice(0, 1));
    const notObject = v["validateL40"]!([]) as Result;
    expect(notObject.ok ? [] : notObject.errors.map((e) => e.message)).toEqual([
      "expected object, found array",
    ]);
  });

  it("is flattened where calling the base would check something else", async () => {
    const schema = `
export interface Base { a: string | number; b?: string }
export interface Narrowed extends Base { a: string }
export interface Keyed { [key: string]: number }
export interface MoreKeys extends Keyed { k: number }
export interface Left extends Base { l?: string }
export interface Right extends Base { r?: string }
export interface Both extends Left, Right {}`;
    const files = await generate(loaded(schema), GENERATORS);
    const code = files.find((f) => f.path === "validators.ts")!.content;
    const body = (name: string, kind = "is") =>
      /function \$\w+[^]*?\n}\n/.exec(code.slice(code.indexOf(`function $${kind}_${name}(`)))![0];
    expect(body("Narrowed")).not.toContain("$is_Base(");
    expect(body("MoreKeys")).not.toContain("$is_Keyed(");
    // Base is small: its checks are written into Left's check and collector (same errors).
    expect(body("Left")).not.toContain("$is_Base(");
    expect(body("Left", "va")).not.toContain("$va_Base(");
    expect(body("Both")).not.toMatch(/\$is_(Left|Right)\(/);
    const v = await importGenerated<Validators>(files, "validators.js");
    expect(v["isNarrowed"]!({ a: 1 })).toBe(false);
    expect(v["isBase"]!({ a: 1 })).toBe(true);
    expect(v["isMoreKeys"]!({ k: 1, x: "no" })).toBe(false);
    // A property both bases inherit is reported once.
    const r = v["validateBoth"]!({ a: true }) as Result;
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(["/a"]);
  });
});

describe(`extends chains deeper than ${MAX_INHERITANCE} levels`, () => {
  const TOO_DEEP = new RegExp(
    `^fixture\\.ts:\\d+:\\d+: unsupported construct: 'L${MAX_INHERITANCE + 1}' extends interfaces more than ${MAX_INHERITANCE} levels deep \\(mcp-gen's limit\\)$`,
  );

  it(`${MAX_INHERITANCE} levels read, one more is one located line`, () => {
    expect(() => readSchemaText("fixture.ts", chain(MAX_INHERITANCE))).not.toThrow();
    expect(() => readSchemaText("fixture.ts", chain(MAX_INHERITANCE + 1))).toThrow(TOO_DEEP);
  });

  it("from the command line, 10,000 levels: exit 1, one located line, nothing written", () => {
    const spec = fakeSpec(`${readFixture("mini-schema.ts")}\n${chain(10_000)}\n`);
    const out = join(tempDir(), "out");
    const r = cli(["generate", "--spec", spec, "--revision", "2030-01-01", "--out", out]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^mcp-gen: \S+schema\.ts:\d+:\d+: unsupported construct: 'L201' extends interfaces more than 200 levels deep/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
