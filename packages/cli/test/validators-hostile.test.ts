import { join } from "node:path";
import { runtimeImports } from "../src/generators/emit/runtime.js";
import { describe, expect, it } from "vitest";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { buildProtocol } from "../src/schema/protocol.js";
import { readSchemaText } from "../src/schema/reader.js";
import { findRevision } from "../src/schema/revisions.js";
import { buildValidationSchemas, type VSchema } from "../src/schema/validation.js";
import { ValidatorWriter } from "../src/generators/emit/validator-code.js";
import { validatorsFiles, validatorsGenerator } from "../src/generators/emit/validators.js";
import type { LoadedRevision } from "../src/schema/index.js";
import {
  cli,
  fakeSpec,
  importGenerated,
  readFixture,
  snapshotTree,
  SPEC_DIR,
  tempDir,
  typecheck,
  writeFiles,
} from "./helpers.js";
import { itCompiles } from "./support/compile.js";

// Schemas written to break the validator generator: property names Object.prototype also
// has, type names shaped like internal helpers, deep nesting, formats and patterns it cannot
// honour. Each gives compiling, correct validators or one located error.

type Result =
  { ok: true; value: unknown } | { ok: false; errors: { path: string; message: string }[] };
type Validators = Record<string, (value: unknown, options?: { firstError?: boolean }) => any>;

/** The mini fixture (it carries the protocol conventions) plus extra declarations. */
function loaded(extra: string): LoadedRevision {
  const model = readSchemaText("fixture.ts", `${readFixture("mini-schema.ts")}\n${extra}\n`);
  return {
    revision: { ...findRevision(SPEC_DIR, "latest"), name: "2099-01-01" },
    model,
    protocol: buildProtocol(model),
  };
}

const GENERATORS = ["types", "methods", "validators"];

/** Generated files type-check under the strict flags. */
function compiles(files: OutputFile[]): string[] {
  const dir = tempDir();
  writeFiles(dir, files);
  return typecheck(files.map((f) => join(dir, f.path)));
}

const validatorsOf = (files: OutputFile[]) =>
  files.find((f) => f.path === "validators.ts")!.content;

describe("own properties only", () => {
  const schema = `
export interface Own {
  constructor?: string;
  toString?: string;
  __proto__?: string;
  hasOwnProperty?: number;
  valueOf: string;
}
export interface Bag {
  [key: string]: string;
}`;

  it("Object.prototype's names are neither present on {} nor in the way of valid objects", async () => {
    const v = await importGenerated<Validators>(
      await generate(loaded(schema), GENERATORS),
      "validators.js",
    );
    expect(v["isOwn"]!({ valueOf: "v" })).toBe(true);
    expect(v["isOwn"]!({ valueOf: "v", constructor: "c", toString: "t", hasOwnProperty: 1 })).toBe(
      true,
    );
    expect(v["isOwn"]!(JSON.parse('{"valueOf": "v", "__proto__": "p"}'))).toBe(true);
    expect(v["isOwn"]!(JSON.parse('{"valueOf": "v", "__proto__": 5}'))).toBe(false);
    expect(v["isOwn"]!({ valueOf: "v", constructor: 5 })).toBe(false);
    expect(v["isOwn"]!({})).toBe(false);
    const missing = v["validateOwn"]!({}) as Result;
    expect(missing.ok ? [] : missing.errors).toEqual([
      { path: "/valueOf", message: 'required property "valueOf" is missing' },
    ]);
    expect((v["validateOwn"]!({ valueOf: "v" }) as Result).ok).toBe(true);
  });

  it("inherited enumerable keys are not checked against an index signature", async () => {
    const v = await importGenerated<Validators>(
      await generate(loaded(schema), GENERATORS),
      "validators.js",
    );
    const inheriting = Object.create({ inherited: 5 }) as Record<string, unknown>;
    inheriting["own"] = "x";
    expect(v["isBag"]!(inheriting)).toBe(true);
    expect(v["isBag"]!({ own: 5 })).toBe(false);
  });
});

describe("internal names", () => {
  const extra = [
    "export interface Request_5 { x: string }",
    "export interface Request_6 { y: number }",
    "export type $1 = { z: boolean };",
  ].join("\n");

  itCompiles(
    "a type named like a helper of another type (Request_5): its functions compile",
    async () => {
      expect(compiles(await generate(loaded(extra), GENERATORS))).toEqual([]);
    },
  );

  it("a type named like a helper of another type (Request_5) gives distinct functions", async () => {
    const files = await generate(loaded(extra), GENERATORS);
    const code = validatorsOf(files);
    const names = [...code.matchAll(/^function (\S+)\(/gm)].map((m) => m[1]);
    expect(new Set(names).size).toBe(names.length);
    const v = await importGenerated<Validators>(files, "validators.js");
    expect(v["isRequest_5"]!({ x: "a" })).toBe(true);
    expect(v["isRequest_5"]!({ x: 1 })).toBe(false);
    expect(v["isRequest"]!({ method: "m", params: {} })).toBe(true);
    expect(v["isRequest"]!({ method: "m", params: 5 })).toBe(false);
    expect(v["is$1"]!({ z: true })).toBe(true);
  });
});

/** `export interface Deep { a: { a: ... { leaf: string } ... } }`, `depth` levels of anonymous objects. */
function nested(depth: number): string {
  let type = "{ leaf: string }";
  for (let i = 0; i < depth; i++) type = `{ a: ${type}; b?: number }`;
  return `export interface Deep ${type}`;
}

function deepValue(depth: number, leaf: unknown): unknown {
  let value: unknown = { leaf };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe("nesting", () => {
  it("output grows linearly with the depth of anonymous object types", async () => {
    // validators.ts alone: types.ts (another generator) is not the subject here.
    const size = (depth: number) =>
      validatorsGenerator.emit({
        loaded: loaded(nested(depth)),
        header: "",
        legacy: [],
        auth: false,
        headerFor: () => "",
        runtime: runtimeImports("package"),
      })[0]!.code.length;
    // Up to the nesting limit (200, packages/cli/src/schema/nesting.ts).
    const [base, at100, at200] = [size(0), size(100), size(200)];
    // Before: 20,100 helpers and 4.7 MB at depth 200. Now a constant cost per level.
    expect(at200 - base).toBeLessThan(2.5 * (at100 - base));
    expect(at200 - base).toBeLessThan(200 * 2000);
  });

  itCompiles("depth 200 compiles", async () => {
    expect(compiles(await generate(loaded(nested(200)), GENERATORS))).toEqual([]);
  });

  it("depth 200 validates and points errors at the leaf", async () => {
    const files = await generate(loaded(nested(200)), GENERATORS);
    const v = await importGenerated<Validators>(files, "validators.js");
    expect(v["isDeep"]!(deepValue(200, "x"))).toBe(true);
    const r = v["validateDeep"]!(deepValue(200, 5)) as Result;
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual([`${"/a".repeat(200)}/leaf`]);
    expect(v["isDeep"]!(deepValue(199, "x"))).toBe(false);
  });
});

describe("depth 1,000", () => {
  // A schema.ts may nest at most 200 levels (packages/cli/src/schema/nesting.ts: TypeScript's own parser
  // overflows its stack ~500 deep), so this depth is reached through the validation model
  // directly: the validator writer and the validators it writes have no depth limit of their own.
  it("one helper pair per level, and the validators run", async () => {
    let schema: VSchema = {
      kind: "object",
      properties: [{ name: "leaf", required: true, schema: { kind: "types", types: ["string"] } }],
      additional: undefined,
    };
    for (let i = 0; i < 1000; i++) {
      schema = {
        kind: "object",
        properties: [
          { name: "a", required: true, schema },
          { name: "b", required: false, schema: { kind: "types", types: ["integer"] } },
        ],
        additional: undefined,
      };
    }
    const writer = new ValidatorWriter(new Map([["Deep", schema]]), new Set());
    const functions = [
      writer.isFunction("Deep"),
      writer.validateFunction("Deep"),
      ...writer.helpers,
    ];
    expect(writer.helpers).toHaveLength(2 * 1000);
    const body = [
      ...functions,
      "export const isDeep = (v: unknown) => $is_Deep(v, 0);",
      `export const validateDeep = (v: unknown) => ${writer.rt.$result}(v, $va_Deep, undefined);`,
    ];
    const emitted = validatorsFiles(
      "// depth 1,000",
      body,
      runtimeImports("package"),
      writer.uses.used,
    );
    const files = emitted.map((f) => ({ path: f.path, content: f.code }));
    const v = await importGenerated<Validators>(files, "validators.js");
    expect(v["isDeep"]!(deepValue(1000, "x"))).toBe(true);
    expect(v["isDeep"]!(deepValue(1000, 1))).toBe(false);
    const r = v["validateDeep"]!(deepValue(1000, 1)) as Result;
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual([`${"/a".repeat(1000)}/leaf`]);
  });
});

describe("formats and patterns are checked at generation", () => {
  const withTag = (tag: string) => `export interface Tagged {\n  /** ${tag} */\n  s: string;\n}`;
  const build = (tag: string) => () =>
    buildValidationSchemas(readSchemaText("fixture.ts", withTag(tag)));

  it("an unknown @format is a located error, not any string", () => {
    expect(build("@format email")).toThrow(
      /^fixture\.ts:3:6: unsupported construct: @format email \(supported: uri, byte, uri-template\)$/,
    );
    expect(build("@format date-time")).toThrow(
      /^fixture\.ts:3:6: unsupported construct: @format date-time/,
    );
    expect(build("@format uri")).not.toThrow();
  });

  it("an invalid @pattern is a located error", () => {
    expect(build("@pattern [a-")).toThrow(/^fixture\.ts:3:6: invalid @pattern "\[a-": /);
    expect(build("@pattern a{2,1}")).toThrow(/^fixture\.ts:3:6: invalid @pattern/);
  });

  it("a pattern that can backtrack catastrophically is refused, with its location", () => {
    // The rule and its cases: packages/cli/test/validators-patterns.test.ts.
    expect(build("@pattern (a+)+$")).toThrow(
      /^fixture\.ts:3:6: @pattern "\(a\+\)\+\$" can backtrack catastrophically \(exponential time\): the repetition "\(a\+\)\+" \(at 1\) can match the same text in more than one way$/,
    );
  });

  it("the CLI prints one located line, exits 1 and writes nothing", () => {
    const spec = fakeSpec(`${readFixture("mini-schema.ts")}\n${withTag("@format email")}\n`);
    const out = join(tempDir(), "out");
    const r = cli(["generate", "--spec", spec, "--revision", "2030-01-01", "--out", out]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/schema\.ts:\d+:\d+: unsupported construct: @format email/);
    expect(snapshotTree(out)).toEqual({});
  });

  it("a pattern is compiled once, at module load, and checked as a Unicode regex", async () => {
    const files = await generate(loaded(withTag("@pattern ^\\p{Lu}[a-z]*$")), GENERATORS);
    const code = validatorsOf(files);
    expect(code.match(/new RegExp\(/g)).toHaveLength(1);
    expect(code).toMatch(/^const \$re\$1 = new RegExp\("\^\\\\p\{Lu\}\[a-z\]\*\$", "u"\);$/m);
    const v = await importGenerated<Validators>(files, "validators.js");
    expect(v["isTagged"]!({ s: "Émile" })).toBe(true);
    expect(v["isTagged"]!({ s: "émile" })).toBe(false);
    const r = v["validateTagged"]!({ s: "x" }) as Result;
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(["/s"]);
  });
});
