import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import type * as TS from "typescript";
import { McpGenError } from "../../schema/diagnostics.js";
import { ts } from "../../schema/typescript.js";
import { RUNTIME_PACKAGE, RUNTIME_ROOT } from "../emit/package-info.js";
import type { OutputFile } from "../emit/plugin.js";

// What form the generated code takes, a step after printing (protobuf-es's `target` option):
// `ts`, the printed TypeScript as it is; `js+dts`, JavaScript with declaration files, so a
// user's `tsc` reads declarations (cheap, and skipped under skipLibCheck) instead of checking
// tens of thousands of generated lines as their own source. Declaration maps make "go to
// definition" land in readable code: the printed TypeScript is kept beside, in SOURCE_FOLDER,
// which a project's tsconfig excludes (init's does).

export const TARGETS = ["ts", "js+dts"] as const;
export type Target = (typeof TARGETS)[number];

/** The folder of the output holding the printed TypeScript the declaration maps point into. */
export const SOURCE_FOLDER = "source";

/**
 * Where the compiled files are laid out in memory: a folder that does not exist, so nothing on
 * disk is read for them (the same input gives the same bytes wherever mcp-gen runs).
 */
const ROOT = "/mcp-gen-target";

const COMPILER_OPTIONS: TS.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: [],
  strict: true,
  declaration: true,
  declarationMap: true,
  rootDir: `${ROOT}/${SOURCE_FOLDER}`,
  outDir: ROOT,
  newLine: ts.NewLineKind.LineFeed,
  skipLibCheck: true,
  // The printed code is checked by mcp-gen's own tests; here only its emit matters.
  noCheck: true,
};

const LIB_DIR = dirname(ts.getDefaultLibFilePath({}));

/** Whether `name` is in a folder the compile may read from disk: TypeScript's libs, the runtime package. */
const onDisk = (name: string) =>
  [LIB_DIR, RUNTIME_ROOT].some((dir) => name === dir || name.startsWith(`${dir}/`));

/**
 * A compiler host over the printed files (in memory), TypeScript's own lib files and the
 * runtime package this mcp-gen ships with (its declarations give the inferred types of what
 * the generated code builds with it), nothing else: no user's node_modules, no @types.
 */
function memoryHost(
  sources: ReadonlyMap<string, string>,
  written: Map<string, string>,
): TS.CompilerHost {
  const diskText = (name: string) =>
    onDisk(name) && existsSync(name) && statSync(name).isFile()
      ? readFileSync(name, "utf8")
      : undefined;
  const text = (name: string) => sources.get(name) ?? diskText(name);
  const host: TS.CompilerHost = {
    getSourceFile: (name, languageVersion) => {
      const content = text(name);
      return content === undefined
        ? undefined
        : ts.createSourceFile(name, content, languageVersion);
    },
    getDefaultLibFileName: (options) => `${LIB_DIR}/${ts.getDefaultLibFileName(options)}`,
    getDefaultLibLocation: () => LIB_DIR,
    writeFile: (name, content) => written.set(name, content),
    getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => text(name) !== undefined,
    readFile: text,
    directoryExists: (name) =>
      name === ROOT || name.startsWith(`${ROOT}/`) || (onDisk(name) && existsSync(name)),
    getDirectories: () => [],
    // The runtime's modules resolve as the runtime names itself (its package.json exports),
    // wherever the output goes: the same declarations for every user of this mcp-gen.
    resolveModuleNameLiterals: (literals, containingFile, _redirect, options) =>
      literals.map(({ text: name }) =>
        name === RUNTIME_PACKAGE || name.startsWith(`${RUNTIME_PACKAGE}/`)
          ? ts.resolveModuleName(name, join(RUNTIME_ROOT, "package.json"), options, host)
          : ts.resolveModuleName(name, containingFile, options, host),
      ),
  };
  return host;
}

/** The first line of `code` when it is a `//` comment (the generated header). */
function headerLine(code: string): string | undefined {
  const first = code.split("\n", 1)[0] ?? "";
  return first.startsWith("//") ? first : undefined;
}

/**
 * `files` in `target`'s form. For `js+dts`, every generated `.ts` file becomes its `.js`,
 * `.d.ts` and `.d.ts.map` (compiled in one program, in memory), its printed TypeScript moved
 * under SOURCE_FOLDER for the maps; scaffolds (the user's once written) and other files stay
 * as they are. Each output keeps its source's header line first (a map, JSON, has none: the
 * manifest says it is mcp-gen's).
 */
export function applyTarget(files: readonly OutputFile[], target: Target): OutputFile[] {
  if (target === "ts") return [...files];
  const compiled = files.filter((f) => f.kind === "generated" && /(?<!\.d)\.ts$/.test(f.path));
  const sources = new Map(compiled.map((f) => [`${ROOT}/${SOURCE_FOLDER}/${f.path}`, f.content]));
  const written = new Map<string, string>();
  const program = ts.createProgram({
    rootNames: [...sources.keys()],
    options: COMPILER_OPTIONS,
    host: memoryHost(sources, written),
  });
  const result = program.emit();
  const failed = result.diagnostics.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (failed || result.emitSkipped)
    throw new McpGenError(
      "internal",
      `target js+dts: compiling the generated code failed: ${failed ? ts.flattenDiagnosticMessageText(failed.messageText, " ") : "emit skipped"}`,
    );
  const out: OutputFile[] = [];
  for (const file of files) {
    if (!compiled.includes(file)) {
      out.push(file);
      continue;
    }
    const stem = file.path.replace(/\.ts$/, "");
    const header = headerLine(file.content);
    const emitted = (ext: string) => {
      const text = written.get(`${ROOT}/${stem}${ext}`);
      if (text === undefined)
        throw new McpGenError("internal", `target js+dts: no ${stem}${ext} was emitted`);
      return ext.endsWith(".map") || header === undefined || text.startsWith(`${header}\n`)
        ? text
        : `${header}\n${text}`;
    };
    // The file's notes (names index.ts exports renamed) are said once, with its JavaScript.
    out.push({ ...file, path: `${stem}.js`, content: emitted(".js") });
    const plain = { kind: file.kind };
    out.push({ ...plain, path: `${stem}.d.ts`, content: emitted(".d.ts") });
    out.push({ ...plain, path: `${stem}.d.ts.map`, content: emitted(".d.ts.map") });
    out.push({ ...plain, path: posix.join(SOURCE_FOLDER, file.path), content: file.content });
  }
  return out;
}
