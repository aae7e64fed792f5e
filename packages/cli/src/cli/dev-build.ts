import { ts } from "../schema/typescript.js";
import type * as TS from "typescript";
import { McpGenError } from "../schema/diagnostics.js";
import { display } from "./check.js";
import type { Io } from "./io.js";

// The user's code built on save by TypeScript's own watch API (what `tsc --watch` runs), in
// this process: each error arrives as a diagnostic with its file and position, and each
// build's end with its error count, with no output of a child `tsc` to parse.

/** Where a tsconfig builds from and to (absolute). */
export interface BuildLayout {
  rootDir: string;
  outDir: string;
}

/** The tsconfig's rootDir and outDir; a config without an outDir cannot be run from its output. */
export function buildLayout(tsconfig: string): BuildLayout {
  const problems: string[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => problems.push(diagnosticLines(d)[0]!),
    },
  );
  const problem = problems[0] ?? (parsed?.errors[0] && diagnosticLines(parsed.errors[0])[0]);
  if (parsed === undefined || problem !== undefined)
    throw new McpGenError("config", problem ?? `cannot read ${display(tsconfig)}`);
  const { outDir, rootDir } = parsed.options;
  if (outDir === undefined)
    throw new McpGenError(
      "config",
      `${display(tsconfig)} sets no compilerOptions.outDir: mcp-gen dev runs the server from the built output`,
    );
  return { outDir, rootDir: rootDir ?? ts.sys.getCurrentDirectory() };
}

/**
 * A diagnostic as the CLI says a failure: `file:line:col: error TS2322: message` (the
 * message's further lines, TypeScript's elaboration, indented below it).
 */
export function diagnosticLines(d: TS.Diagnostic): string[] {
  const [first = "", ...rest] = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n");
  const kind = ts.DiagnosticCategory[d.category].toLowerCase();
  let where = "";
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    where = `${display(d.file.fileName)}:${line + 1}:${character + 1}: `;
  }
  return [`${where}${kind} TS${d.code}: ${first}`, ...rest.map((l) => `  ${l.trim()}`)];
}

/** A build's end: how many errors it had (0: its output was written). */
export type BuildDone = (errors: number) => void;

/**
 * Builds the project of `tsconfig`, then again after each save (TypeScript debounces the
 * file events and ignores its outDir). Errors go to `io.err`; nothing is emitted while there
 * are any (noEmitOnError), so the output keeps the last good build. `done` runs at the end
 * of each build, the first before this returns.
 */
export function watchBuild(tsconfig: string, io: Io, done: BuildDone): { close(): void } {
  const host = ts.createWatchCompilerHost(
    tsconfig,
    { noEmitOnError: true },
    ts.sys,
    ts.createEmitAndSemanticDiagnosticsBuilderProgram,
    (d) => diagnosticLines(d).forEach((line) => io.err(line)),
    (d, _newLine, _options, errorCount) => {
      // Only a build's summary ("Found N errors") carries the count.
      if (errorCount !== undefined) done(errorCount);
      else if (d.code === FILE_CHANGE_DETECTED) io.out("mcp-gen dev: change detected, building");
    },
    // Each file through its folder: TypeScript's default watch on the file itself missed the
    // first save of an editor that saves by replacing the file (sed -i did, on Linux).
    { watchFile: ts.WatchFileKind.UseFsEventsOnParentDirectory },
  );
  const program = ts.createWatchProgram(host);
  return { close: () => program.close() };
}

/** "File change detected. Starting incremental compilation..." */
const FILE_CHANGE_DETECTED = 6032;
