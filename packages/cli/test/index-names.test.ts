import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { exportedNames, indexExports } from "../src/generators/emit/index-exports.js";
import type { SchemaModel } from "../src/schema/model.js";
import { loadRevision } from "../src/schema/index.js";
import {
  cli,
  fakeSpec,
  readFixture,
  ROOT,
  SPEC_DIR,
  STRICT_OPTIONS,
  tempDir,
  typecheck,
  writeFiles,
} from "./helpers.js";
import { itCompiles } from "./support/compile.js";

// Generated index.ts re-exports types.ts (the schema's names) beside the generated modules,
// which export their own names and some of the runtime's. A schema that declares one of
// those names (a draft moving `Task` into the core schema, say) made index.ts export two
// things under one name (TS2308), and the output did not compile. Generated and runtime
// names keep theirs at index.ts; the schema's is exported there under another, with a note.

const RUNTIME_ENTRIES = Object.keys(
  (
    JSON.parse(readFileSync(join(ROOT, "packages", "runtime", "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    }
  ).exports,
)
  .filter((e) => e !== "./package.json")
  .map((e) => `@mcp-gen/runtime/${e.slice(2)}`);

/** The names each module exports, as TypeScript's checker sees them. */
function exportsOf(dir: string, specifiers: string[]): Map<string, string[]> {
  const probe = join(dir, "probe.ts");
  writeFileSync(
    probe,
    specifiers.map((s, i) => `export * as m${i} from ${JSON.stringify(s)};`).join("\n"),
  );
  const program = ts.createProgram({ rootNames: [probe], options: STRICT_OPTIONS });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(probe)!)!;
  const out = new Map<string, string[]>();
  for (const ns of checker.getExportsOfModule(module)) {
    const target = checker.getAliasedSymbol(ns);
    const names = checker.getExportsOfModule(target).map((s) => s.name);
    out.set(specifiers[Number(ns.name.slice(1))]!, names);
  }
  return out;
}

/** 2026-07-28 with 2025-11-25 served beside it, `extra` appended to the newer. */
function spec(extra: string): string {
  const dir = tempDir("mcp-gen-spec-");
  for (const [revision, more] of [
    ["2026-07-28", extra],
    ["2025-11-25", ""],
  ] as const) {
    mkdirSync(join(dir, "schema", revision), { recursive: true });
    const text = readFileSync(join(SPEC_DIR, "schema", revision, "schema.ts"), "utf8");
    writeFileSync(join(dir, "schema", revision, "schema.ts"), `${text}\n${more}\n`);
  }
  return dir;
}

async function generateAll(specDir: string): Promise<OutputFile[]> {
  return generate(loadRevision(specDir, "2026-07-28"), undefined, {
    legacy: [loadRevision(specDir, "2025-11-25")],
  });
}

describe("a schema declaring every name generated code or the runtime exports", () => {
  let taken: string[];
  /** The names the generated modules index.ts re-exports export. */
  let generated: Set<string>;
  let files: OutputFile[];
  beforeAll(async () => {
    const plain = await generateAll(spec(""));
    const dir = tempDir();
    writeFiles(dir, plain);
    const modules = plain.filter((f) => f.path.endsWith(".ts") && !f.path.includes("/"));
    const found = exportsOf(dir, [
      ...modules.map((f) => `./${f.path.replace(/\.ts$/, ".js")}`),
      ...RUNTIME_ENTRIES,
    ]);
    const schemaNames = new Set(found.get("./types.js"));
    const index = plain.find((f) => f.path === "index.ts")!.content;
    const indexed = [...index.matchAll(/^export \* from "(\.\/.+)";$/gm)].map((m) => m[1]!);
    generated = new Set(indexed.flatMap((m) => (m === "./types.js" ? [] : found.get(m)!)));
    taken = [...new Set([...found.values()].flat())].filter((n) => !schemaNames.has(n)).sort();
    const declarations = taken.map((n) => `export interface ${n} {\n  schemaDeclared: "${n}";\n}`);
    files = await generateAll(spec(declarations.join("\n")));
  });

  it("covers the names that collided", () => {
    for (const n of ["ValidationError", "Task", "METHODS", "createClient", "McpError"])
      expect(taken).toContain(n);
  });

  itCompiles(
    "compiles under the strict flags; index.ts keeps the generated names, the schema's renamed",
    () => {
      const dir = tempDir();
      writeFiles(dir, files);
      // Each name means at index.ts what it means without the schema's declaration.
      const use = join(dir, "use.ts");
      writeFileSync(
        use,
        [
          'import { METHODS, createTaskStore, type SchemaMETHODS, type SchemaTask, type Task } from "./index.js";',
          'export const methods: object = METHODS["tools/call"];',
          "export const store: object = createTaskStore();",
          "// @ts-expect-error the runtime's Task, not the schema's",
          'export const runtimeTask: Task["schemaDeclared"] = "Task";',
          'export const schema: SchemaMETHODS = { schemaDeclared: "METHODS" };',
          'export const task: SchemaTask = { schemaDeclared: "Task" };',
        ].join("\n"),
      );
      expect(typecheck([...files.map((f) => join(dir, f.path)), use])).toEqual([]);
    },
  );

  it("notes every rename at the schema's declaration, in an index.ts laid out as prettier would", async () => {
    const index = files.find((f) => f.path === "index.ts")!;
    const options = { parser: "typescript", printWidth: 100 };
    expect(await prettier.format(index.content, options)).toBe(index.content);
    expect(index.notes).toHaveLength(taken.filter((n) => generated.has(n)).length);
    expect(index.notes).toContainEqual(
      expect.stringMatching(
        /schema\.ts:\d+:\d+: the schema's Task is exported from index\.ts as SchemaTask: Task there is dispatcher\.ts's \(types\.ts keeps the schema's name\)$/,
      ),
    );
    expect(index.content).toMatch(
      /^\/\/ schema\.ts:\d+:\d+: the schema's Task is exported from index\.ts as SchemaTask: Task there is dispatcher\.ts's\.\nexport type \{ Task as SchemaTask \} from "\.\/types\.js";$/m,
    );
  });
});

describe("index.ts's renames", () => {
  const model = { byName: new Map() } as unknown as SchemaModel;

  it("take a free name, and keep a name's kind (type or value)", () => {
    const { lines } = indexExports(
      [
        {
          name: "types",
          code: "export interface Task {}\nexport type SchemaTask = 1;\nexport const ERAS = 1;",
        },
        { name: "dispatcher", code: 'export {\n  createTaskStore,\n  type Task,\n} from "x";' },
        { name: "eras", code: "export const ERAS = [];" },
      ],
      model,
    );
    expect(lines).toContain('export type { Task } from "./dispatcher.js";');
    expect(lines).toContain('export type { Task as SchemaTask_2 } from "./types.js";');
    expect(lines).toContain('export { ERAS } from "./eras.js";');
    expect(lines).toContain('export { ERAS as SchemaERAS } from "./types.js";');
  });

  it("read every form of export the generators print", () => {
    const code = [
      "export function f(): void {}",
      "export async function g() {}",
      "export const C = 1;",
      "export interface I {}",
      "export type T<X> = X;",
      "export class K {}",
      'export { a, b as c, type D } from "m";',
      "export type {\n  E,\n  F as G,\n};",
      'export * as ns from "m";',
      "  export const indented = 1;",
    ].join("\n");
    expect([...exportedNames(code)]).toEqual([
      ["f", false],
      ["g", false],
      ["C", false],
      ["I", true],
      ["T", true],
      ["K", false],
      ["a", false],
      ["c", false],
      ["D", true],
      ["E", true],
      ["G", true],
      ["ns", false],
    ]);
    expect(() => exportedNames('export * from "m";')).toThrow(/internal: index\.ts cannot tell/);
  });

  it("is printed on stderr by generate, located, and the output is written", () => {
    const spec = fakeSpec(
      `${readFixture("mini-schema.ts")}\nexport interface ValidationError {\n  x: string;\n}\n`,
    );
    const out = join(tempDir(), "out");
    const r = cli(["generate", "--spec", spec, "--revision", "2030-01-01", "--out", out]);
    expect(r.status).toBe(0);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^mcp-gen: note: \S+schema\.ts:\d+:\d+: the schema's ValidationError is exported from index\.ts as SchemaValidationError: ValidationError there is validators\.ts's \(types\.ts keeps the schema's name\)$/,
      ),
    ]);
    expect(readFileSync(join(out, "index.ts"), "utf8")).toContain(
      'export type { ValidationError as SchemaValidationError } from "./types.js";',
    );
  });
});
