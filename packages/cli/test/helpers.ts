import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is packages/cli/test/helpers.ts). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
/** The CLI package's folder. */
export const CLI_ROOT = join(ROOT, "packages", "cli");
export const CLI = join(CLI_ROOT, "dist", "cli", "main.js");

/** The shared spec checkout. Its absence is a failure, never a skip. */
export const SPEC_DIR = resolve(ROOT, "..", "shared", "spec");
if (!existsSync(join(SPEC_DIR, "schema"))) {
  throw new Error(
    `the spec corpus is missing: expected ${SPEC_DIR}/schema (a checkout beside the project)`,
  );
}

export const SPEC_REVISIONS = readdirSync(join(SPEC_DIR, "schema"))
  .filter((n) => /^\d{4}-\d{2}-\d{2}$/.test(n))
  .sort();

let tempRoot: string | undefined;
const SCHEMA_LIBRARIES = ["zod", "arktype", "valibot", "@valibot/to-json-schema"];

/**
 * A new temporary folder. All of a worker's folders sit in one root whose node_modules links
 * the runtime package, as a project that installed it has: generated code written there
 * resolves `@mcp-gen/runtime` (and, through it, the peer libraries) like a user's would, and
 * the schema libraries zod, ArkType and Valibot.
 */
export function tempDir(prefix = "mcp-gen-test-"): string {
  if (tempRoot === undefined) {
    tempRoot = mkdtempSync(join(tmpdir(), "mcp-gen-tests-"));
    mkdirSync(join(tempRoot, "node_modules", "@mcp-gen"), { recursive: true });
    symlinkSync(
      join(ROOT, "packages", "runtime"),
      join(tempRoot, "node_modules", "@mcp-gen", "runtime"),
      "dir",
    );
    // The schema libraries typed tools are written with (their own dependencies resolve from
    // the checkout's node_modules, where the links lead).
    mkdirSync(join(tempRoot, "node_modules", "@valibot"));
    for (const name of SCHEMA_LIBRARIES)
      symlinkSync(join(ROOT, "node_modules", name), join(tempRoot, "node_modules", name), "dir");
  }
  return mkdtempSync(join(tempRoot, prefix));
}

/** A one-revision spec checkout in a temporary folder, for bad-input tests. */
export function fakeSpec(schemaTs: string, revision = "2030-01-01"): string {
  const dir = tempDir("mcp-gen-spec-");
  mkdirSync(join(dir, "schema", revision), { recursive: true });
  writeFileSync(join(dir, "schema", revision, "schema.ts"), schemaTs);
  return dir;
}

export function fixture(name: string): string {
  return join(CLI_ROOT, "test", "fixtures", name);
}

export function readFixture(name: string): string {
  return readFileSync(fixture(name), "utf8");
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would (npm test builds it first). */
export function cli(args: string[], cwd = ROOT): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Every file below a folder with its content, for "nothing changed" assertions. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      // Installed and built files are not the project's own.
      if (e.name === "node_modules" || e.name === "dist") continue;
      if (e.isDirectory()) walk(join(d, e.name), rel);
      else if (e.isFile()) out[rel] = readFileSync(join(d, e.name), "utf8");
    }
  };
  walk(dir, "");
  return out;
}

export { execFileSync };

import ts from "typescript";
import { transpileForTest } from "./support/transpile.js";

/** The strict flags generated code must compile under. */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  // Node's types for the stdio and HTTP modules; the DOM lib for fetch and Web Crypto.
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules", "@types")],
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
};

/**
 * Where a module import should resolve instead of where TypeScript would look (a file path),
 * or undefined to resolve it as usual.
 */
export type Redirect = (specifier: string, containingFile: string) => string | undefined;

/**
 * Type-checks files in one program and returns the diagnostics as readable lines.
 * `redirect` lets several outputs in one program share one copy of identical modules.
 */
export function typecheck(
  rootNames: string[],
  options: ts.CompilerOptions = STRICT_OPTIONS,
  redirect?: Redirect,
): string[] {
  // The .d.ts files of TypeScript's libs and node_modules/@types are the same in every
  // program with these options, and checking them costs about a third of a program's time:
  // they are checked once per worker (libDiagnostics) and skipped here. Sound only while the
  // checked code adds nothing to the global scope: otherwise the whole program is checked.
  const program = ts.createProgram({
    rootNames,
    options: { ...options, skipLibCheck: true },
    host: sharedHost(options, redirect),
  });
  const own = program.getSourceFiles().filter((f) => !f.isDeclarationFile);
  if (own.some((f) => !ts.isExternalModule(f) || /\bdeclare\s+(global|module)\b/.test(f.text))) {
    return readable(
      ts.getPreEmitDiagnostics(
        ts.createProgram({ rootNames, options, host: sharedHost(options, redirect) }),
      ),
    );
  }
  return [...libDiagnostics(options), ...readable(ts.getPreEmitDiagnostics(program))];
}

function readable(diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return text;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}:${line + 1}:${character + 1}: ${text}`;
  });
}

const checkedLibs = new Map<string, string[]>();

/** The diagnostics in the libs' and node_modules' .d.ts files under these options, once per worker. */
function libDiagnostics(options: ts.CompilerOptions): string[] {
  const key = JSON.stringify(options);
  let found = checkedLibs.get(key);
  if (!found) {
    // An empty module as the only root (TypeScript loads no libs for a program without
    // roots): the program holds the libs and the types the options name, and nothing else.
    const empty = join(tempDir("mcp-gen-libs-"), "empty.ts");
    writeFileSync(empty, "export {};\n");
    const program = ts.createProgram({ rootNames: [empty], options, host: sharedHost(options) });
    found = readable(ts.getPreEmitDiagnostics(program).filter((d) => d.file?.isDeclarationFile));
    checkedLibs.set(key, found);
  }
  return found;
}

const parsedLibs = new Map<string, ts.SourceFile | undefined>();

/**
 * A compiler host that parses each .d.ts file under node_modules (TypeScript's libs,
 * @types/node) once per worker: they do not change during a run, and a parsed source file
 * can be shared by programs, as TypeScript's language service shares them.
 */
function sharedHost(options: ts.CompilerOptions, redirect?: Redirect): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  if (redirect) {
    host.resolveModuleNameLiterals = (
      literals,
      containingFile,
      _reference,
      _options,
      containingSourceFile,
    ) =>
      literals.map((literal) => {
        const target = redirect(literal.text, containingFile);
        if (target)
          return { resolvedModule: { resolvedFileName: target, extension: ts.Extension.Ts } };
        const mode = ts.getModeForUsageLocation(containingSourceFile, literal, options);
        return ts.resolveModuleName(
          literal.text,
          containingFile,
          options,
          host,
          undefined,
          undefined,
          mode,
        );
      });
  }
  const parse = host.getSourceFile.bind(host);
  const libs = join(ROOT, "node_modules") + "/";
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.startsWith(libs) || !fileName.endsWith(".d.ts"))
      return parse(fileName, languageVersion, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!parsedLibs.has(key))
      parsedLibs.set(key, parse(fileName, languageVersion, onError, shouldCreate));
    return parsedLibs.get(key);
  };
  return host;
}

/**
 * Writes generated files as JavaScript (type-stripped by TypeScript's transpiler, as a
 * user's build would) into a temporary folder and imports the named module.
 */
export async function importGenerated<M>(
  files: readonly { path: string; content: string }[],
  module: string,
): Promise<M> {
  return (await import(join(writeGenerated(files), module))) as M;
}

/** Writes generated files as JavaScript into one temporary folder (see importGenerated); returns it. */
export function writeGenerated(files: readonly { path: string; content: string }[]): string {
  const dir = tempDir("mcp-gen-js-");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const f of files) {
    const js = transpileForTest(f.path, f.content);
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path.replace(/\.ts$/, ".js")), js);
  }
  return dir;
}

const generations = new Map<string, Promise<readonly { path: string; content: string }[]>>();

/**
 * The default generation (all outputs, no legacy eras) of a spec revision, once per test
 * worker: test files share a worker's module cache (vitest.config.ts), so the files that only
 * read a revision's output do not each generate it again. Read-only; never mutate the files.
 */
export function generatedFiles(
  revision: string,
): Promise<readonly { path: string; content: string }[]> {
  let files = generations.get(revision);
  if (!files) {
    files = Promise.all([
      import("../src/generators/emit/index.js"),
      import("../src/schema/index.js"),
    ]).then(([g, s]) =>
      g
        .generate(s.loadRevision(SPEC_DIR, revision))
        .then((out) => Object.freeze(out.map((f) => Object.freeze({ ...f })))),
    );
    generations.set(revision, files);
  }
  return files;
}

/** Writes files (paths relative to `dir`, subfolders created as needed). */
export function writeFiles(dir: string, files: readonly { path: string; content: string }[]): void {
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
}
