import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { GENERATED_HEADER, type OutputFile } from "../emit/index.js";
import { servedMethods } from "./served-methods.js";

export { servedMethods };

/**
 * What a run can tell about the scaffold files it kept (handlers.ts: the user's once written)
 * without touching them. The import check is textual; the handler check reads the file's code
 * (served-methods.ts). Both only advise: the run writes what it would have written anyway.
 */
export interface KeptFileFindings {
  /**
   * A request method this run's skeleton has an entry for that the kept file's code does not
   * serve (no key of that name, no table serving it).
   * Its handler is optional in the interface, so nothing fails to compile: the method is
   * answered "method not found".
   */
  unhandled: { file: string; method: string }[];
  /** A relative import of a user's file that resolves to a generated file this run removes (TS2307 next). */
  removedImports: { file: string; specifier: string }[];
}

/** The dispatcher generator's handlers.ts, written once when missing (a scaffold: the user's). */
export function isHandlersSkeleton(file: OutputFile): boolean {
  return file.kind === "scaffold" && file.path === "handlers.ts";
}

/** `import ... from "x"`, `export ... from "x"`, `import "x"`, `import("x")`: the relative ones. */
const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*(["'])(\.{1,2}\/[^"'\n]*)\1/g;

/** The output paths a relative specifier of `file` may mean (`./dispatcher.js` is dispatcher.ts or .js). */
function importedPaths(file: string, specifier: string): string[] {
  const path = posix.normalize(posix.join(posix.dirname(file), specifier));
  if (path.startsWith("../")) return [];
  // The .ts of target ts, the .js of target js+dts.
  if (path.endsWith(".js")) return [path.replace(/\.js$/, ".ts"), path];
  if (path.endsWith(".ts")) return [path];
  return [`${path}.ts`, `${path}/index.ts`, `${path}.js`, `${path}/index.js`];
}

export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    // Unreadable (a folder, no permission): nothing to advise about; planning decides what is in the way.
    return undefined;
  }
}

/**
 * The user's files an import check covers: the scaffolds this run keeps, and the output
 * folder's own .ts files that are not mcp-gen's. The second matter when --generators is
 * narrowed: leaving out the dispatcher removes dispatcher.ts and stops emitting handlers.ts,
 * which is then kept by no one but still imports it.
 */
function usersFiles(
  outDir: string,
  files: readonly OutputFile[],
  kept: readonly string[],
  stale: ReadonlySet<string>,
): string[] {
  const ours = new Set(files.filter((f) => f.kind === "generated").map((f) => f.path));
  let names: string[];
  try {
    names = readdirSync(outDir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => e.name);
  } catch {
    names = [];
  }
  const others = names
    .filter((name) => !ours.has(name) && !stale.has(name) && !kept.includes(name))
    .sort();
  return [...kept, ...others];
}

/** Reviews the user's files in an output folder against a plan: `kept` and `stale` as planOutput found them. */
export function reviewKeptFiles(
  outDir: string,
  files: readonly OutputFile[],
  kept: readonly string[],
  stale: readonly string[],
): KeptFileFindings {
  const findings: KeptFileFindings = { unhandled: [], removedImports: [] };
  const removed = new Set(stale);
  for (const path of removed.size > 0 ? usersFiles(outDir, files, kept, removed) : kept) {
    const text = readText(join(outDir, path));
    if (text === undefined || GENERATED_HEADER.test(text.split("\n", 1)[0] ?? "")) continue;
    const specifiers = new Set([...text.matchAll(RELATIVE_IMPORT)].map((m) => m[2]!));
    for (const specifier of specifiers) {
      if (importedPaths(path, specifier).some((p) => removed.has(p)))
        findings.removedImports.push({ file: path, specifier });
    }
    const scaffold = files.find((f) => f.path === path && f.kind === "scaffold");
    const served = scaffold?.handlerMethods ? servedMethods(text, path) : new Set<string>();
    for (const method of scaffold?.handlerMethods ?? []) {
      if (!served.has(method)) findings.unhandled.push({ file: path, method });
    }
  }
  return findings;
}

/** The findings as lines for stderr: every removed import, then at most `cap` unhandled methods and a count. */
export function keptFileLines(findings: KeptFileFindings, cap = 10): string[] {
  const lines = findings.removedImports.map(
    (i) =>
      `mcp-gen: warning: ${i.file} (kept, yours) imports ${i.specifier}, which this run removed`,
  );
  const shown =
    findings.unhandled.length > cap ? findings.unhandled.slice(0, cap) : findings.unhandled;
  for (const u of shown)
    lines.push(
      `mcp-gen: note: ${u.file} has no handler for ${u.method} (answered: method not found)`,
    );
  const rest = findings.unhandled.slice(shown.length);
  if (rest.length > 0) {
    const files = [...new Set(rest.map((u) => u.file))];
    const who = files.length === 1 ? `${files[0]!} has` : "the kept files have";
    lines.push(
      `mcp-gen: note: ${who} no handler for ${rest.length} more method${rest.length === 1 ? "" : "s"} (answered: method not found)`,
    );
  }
  return lines;
}

/**
 * The notes on a handlers file the config keeps outside the output folder (`handlers`), which
 * stands in for the skeleton's handlers.ts: the request methods the skeleton has an entry for
 * that the file's code does not serve, or one warning when there is no such file to read. `name` is the
 * path as the user wrote it.
 */
export function handlersFileLines(path: string, name: string, skeleton: OutputFile): string[] {
  const text = readText(path);
  if (text === undefined)
    return [
      `mcp-gen: warning: ${name} (the config's 'handlers') cannot be read; generate writes no handlers.ts skeleton while 'handlers' is set`,
    ];
  const served = servedMethods(text, path);
  const unhandled = (skeleton.handlerMethods ?? [])
    .filter((method) => !served.has(method))
    .map((method) => ({ file: name, method }));
  return keptFileLines({ unhandled, removedImports: [] });
}
