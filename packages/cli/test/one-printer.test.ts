import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GENERATOR_NAMES, GENERATORS, headerFor } from "../src/generators/emit/index.js";
import { GeneratedFile, isPrinted } from "../src/generators/print/generated-file.js";
import type { GeneratorContext } from "../src/generators/emit/plugin.js";
import { runtimeImports, type RuntimeMode } from "../src/generators/emit/runtime.js";
import { allRuntimeSymbols, VALIDATION_HELPERS } from "../src/generators/emit/runtime-symbols.js";
import { TEMPLATE_DIR } from "../src/generators/emit/package-info.js";
import { SCAFFOLDS } from "../src/generators/init/scaffolds/index.js";
import { loadRevision } from "../src/schema/index.js";
import { ROOT, SPEC_DIR } from "./helpers.js";

// One printer (issue 41): every generated TypeScript file comes out of GeneratedFile
// (generators/generated-file.ts), and every runtime name generated code uses comes from the
// typed table of generators/runtime-symbols.ts.

/**
 * Every generator, with the printer its files come out of. A new generator is listed here,
 * and the test below fails until its files are GeneratedFiles (a file joined by hand, or
 * rendered by a template, has no `emit` mark).
 */
const PRINTERS: Record<string, typeof GeneratedFile> = {
  types: GeneratedFile,
  methods: GeneratedFile,
  validators: GeneratedFile,
  dispatcher: GeneratedFile,
  protocol: GeneratedFile,
  eras: GeneratedFile,
  client: GeneratedFile,
  // schema.json, printed by GeneratedFile.json (laid out JSON, no header line).
  "json-schema": GeneratedFile,
  zod: GeneratedFile,
};

/**
 * Every TypeScript file `mcp-gen init` writes (src/ of the project), with the printer it comes
 * out of: the scaffolds of generators/init/scaffolds/. Handlebars renders only the project's
 * text files; a TypeScript file rendered by it has no `emit` mark, and init refuses it.
 */
const INIT_PRINTERS: Record<string, typeof GeneratedFile> = {
  "src/handlers.ts": GeneratedFile,
  "src/server.ts": GeneratedFile,
  "src/request-state.ts": GeneratedFile,
  "src/validate.ts": GeneratedFile,
  "src/stdio.ts": GeneratedFile,
  "src/http.ts": GeneratedFile,
  "src/test/server.test.ts": GeneratedFile,
  "src/auth.ts": GeneratedFile,
  "src/dev-auth.ts": GeneratedFile,
};

/** Contexts that reach every branch of the generators: eras and auth, an initialize-based revision, both runtime modes. */
function contexts(): { name: string; ctx: GeneratorContext }[] {
  const context = (revision: string, legacy: string[], runtime: RuntimeMode): GeneratorContext => {
    const loaded = loadRevision(SPEC_DIR, revision);
    return {
      loaded,
      header: headerFor(loaded),
      legacy: legacy.map((r) => loadRevision(SPEC_DIR, r)),
      auth: true,
      headerFor,
      runtime: runtimeImports(runtime),
    };
  };
  return [
    {
      name: "2026-07-28 serving every older revision (vendor)",
      ctx: context("2026-07-28", ["2025-11-25", "2025-06-18", "2024-11-05"], "vendor"),
    },
    { name: "2024-11-05 alone (package)", ctx: context("2024-11-05", [], "package") },
  ];
}

describe("one printer: every generator's files come out of GeneratedFile", () => {
  it("lists every generator with its printer", () => {
    expect(Object.keys(PRINTERS).sort()).toEqual([...GENERATOR_NAMES].sort());
  });

  const cases = contexts();
  it.each(GENERATORS.map((g) => [g.name, g] as const))("%s", (name, generator) => {
    expect(PRINTERS[name]).toBe(GeneratedFile);
    let emitted = 0;
    for (const { name: context, ctx } of cases) {
      // eras.ts and legacy/ only exist for a server of several revisions.
      const files = generator.emit(ctx);
      emitted += files.length;
      for (const file of files) expect(isPrinted(file), `${context}: ${file.path}`).toBe(true);
    }
    expect(emitted).toBeGreaterThan(0);
  });

  it("the mark is GeneratedFile's: a hand-made file has none, a copy keeps it", () => {
    const hand = { path: "x.ts", kind: "generated" as const, code: "export {};\n" };
    expect(isPrinted(hand)).toBe(false);
    const printed = new GeneratedFile("x.ts").line("export {};").emit("");
    expect(printed.code).toBe(hand.code);
    expect(isPrinted({ ...printed, path: "legacy/x.ts" })).toBe(true);
  });
});

describe("one printer: init's TypeScript files come out of GeneratedFile", () => {
  it("lists every scaffold with its printer", () => {
    expect(Object.keys(INIT_PRINTERS).sort()).toEqual(SCAFFOLDS.map((s) => s.path).sort());
  });

  it.each(SCAFFOLDS.map((s) => [s.path, s] as const))("%s", (path, scaffold) => {
    expect(INIT_PRINTERS[path]).toBe(GeneratedFile);
    // Every branch: with and without --auth, with and without entries for unserved methods.
    for (const auth of [false, true]) {
      for (const unserved of [[], ["completion/complete"]]) {
        const file = scaffold.print({ name: "my-server", auth, unserved, dualEra: true });
        expect(file.path).toBe(path);
        expect(isPrinted(file), `auth ${auth}, unserved ${unserved.length}`).toBe(true);
      }
    }
  });

  it("templates/project/ holds no TypeScript: Handlebars renders only init's text files", () => {
    const templates = readdirSync(join(TEMPLATE_DIR, "project"));
    expect(templates.length).toBeGreaterThan(0);
    expect(templates.filter((t) => /\.[cm]?tsx?(\.hbs)?$/.test(t))).toEqual([]);
  });
});

describe("init refuses a TypeScript file printed by hand", () => {
  afterEach(() => {
    vi.doUnmock("../src/generators/init/scaffolds/stdio.js");
    vi.resetModules();
  });

  it("names the file, before init writes any", async () => {
    vi.resetModules();
    vi.doMock("../src/generators/init/scaffolds/stdio.js", async (importOriginal) => {
      const real =
        await importOriginal<typeof import("../src/generators/init/scaffolds/stdio.js")>();
      const print: typeof real.stdioScaffold.print = () => ({
        path: "src/stdio.ts",
        kind: "scaffold",
        code: "serveStdio(createDispatcher(requestStateSecretsOrExit()));\n",
      });
      return { stdioScaffold: { ...real.stdioScaffold, print } };
    });
    // What initProject prints its files with, before it writes any of them.
    const { printScaffolds } = await import("../src/generators/init/scaffolds/index.js");
    expect(() =>
      printScaffolds({ name: "my-server", auth: false, unserved: [], dualEra: true }),
    ).toThrow("internal: src/stdio.ts was not printed by GeneratedFile");
  });
});

describe("generate refuses a file printed by hand", () => {
  afterEach(() => {
    vi.doUnmock("../src/generators/emit/types.js");
    vi.resetModules();
  });

  it("names the file, instead of writing it", async () => {
    vi.resetModules();
    vi.doMock("../src/generators/emit/types.js", async (importOriginal) => {
      const real = await importOriginal<typeof import("../src/generators/emit/types.js")>();
      const emit: typeof real.typesGenerator.emit = () => [
        { path: "types.ts", kind: "generated", code: "export type A = string;\n" },
      ];
      return { typesGenerator: { ...real.typesGenerator, emit } };
    });
    const { generate } = await import("../src/generators/emit/index.js");
    await expect(generate(loadRevision(SPEC_DIR, "2026-07-28"), ["types"])).rejects.toThrow(
      "internal: types.ts was not printed by GeneratedFile",
    );
  });
});

/**
 * The exports of runtime entry points (`types` of their package.json exports, the built
 * declarations), by entry: name -> symbol flags (of what an alias re-exports). One program
 * for all of them: a checker is built once.
 */
function runtimeDeclarations(entries: readonly string[]): Map<string, Map<string, ts.SymbolFlags>> {
  const runtimeRoot = join(ROOT, "packages", "runtime");
  const manifest = JSON.parse(readFileSync(join(runtimeRoot, "package.json"), "utf8")) as {
    exports: Record<string, { types: string }>;
  };
  const files = new Map(
    entries.map((entry) => [entry, join(runtimeRoot, manifest.exports[`./${entry}`]!.types)]),
  );
  const program = ts.createProgram([...files.values()], { skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const byEntry = new Map<string, Map<string, ts.SymbolFlags>>();
  for (const [entry, file] of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const flags = new Map<string, ts.SymbolFlags>();
    for (const s of checker.getExportsOfModule(module)) {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      flags.set(s.name, target.flags);
    }
    byEntry.set(entry, flags);
  }
  return byEntry;
}

describe("the runtime symbol table", () => {
  // Values are checked by the compiler (keyof the entry's module); a type's name is a string
  // beside its type argument, so this checks the two agree.
  it("names exports of the runtime, each a value or a type as the table says", () => {
    const symbols = allRuntimeSymbols();
    const declarations = runtimeDeclarations([...new Set(symbols.map((s) => s.entry))]);
    const wrong = symbols.filter((s) => {
      const flags = declarations.get(s.entry)!.get(s.name);
      if (flags === undefined) return true;
      return !(flags & (s.typeOnly ? ts.SymbolFlags.Type : ts.SymbolFlags.Value));
    });
    expect(wrong.map((s) => `${s.entry}: ${s.name}`)).toEqual([]);
  });

  it("lists every export of the runtime's validation module among the validation helpers", () => {
    const file = join(ROOT, "packages", "runtime", "dist", "core", "validation.d.ts");
    const program = ts.createProgram([file], { skipLibCheck: true, noEmit: true });
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const exported = checker.getExportsOfModule(module).map((s) => s.name);
    expect(VALIDATION_HELPERS.map((s) => s.name).sort()).toEqual(exported.sort());
  });
});
