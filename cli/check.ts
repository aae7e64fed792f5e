import { lstatSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { MANIFEST, type OutputPlan } from "../generators/output.js";
import type { OutputFile } from "../generators/index.js";
import type { Io } from "./commands.js";
import { EXIT } from "./failure.js";

/** A path as the user would write it: relative below the working folder, absolute elsewhere. */
export function display(path: string): string {
  const rel = relative(process.cwd(), path);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? resolve(path) : rel;
}

/** The options of `generate` that decide its output, as given on the command line. */
export interface RerunOptions {
  spec?: string;
  revision?: string;
  revisions?: string;
  out?: string;
  generators?: string;
  auth?: boolean;
  config?: string;
}

/** An argument as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that brings the output up to date: `generate` with the options of this run that
 * decide the output (a CI log shows what to run, config-only runs need none).
 */
export function rerunCommand(options: RerunOptions): string {
  const words = ["mcp-gen", "generate"];
  for (const key of ["config", "spec", "revision", "revisions", "out", "generators"] as const) {
    const value = options[key];
    if (value !== undefined) words.push(`--${key}`, value);
  }
  if (options.auth === true) words.push("--auth");
  return words.map(shellWord).join(" ");
}

/**
 * `generate --check`: exit 0 when the output folder holds what generate would write, else
 * EXIT.stale with one summary line and a line per file saying why it is stale. Only files
 * generate would write count: a scaffold that exists is the user's, whatever it holds.
 */
export function reportCheck(out: string, files: OutputFile[], plan: OutputPlan, options: { revision: string; rerun: string }, io: Io): number {
  const where = display(out);
  const outDir = resolve(out);
  if (!lstatSync(outDir, { throwIfNoEntry: false })) {
    io.err(`mcp-gen: ${where} does not exist; run ${options.rerun}`);
    return EXIT.stale;
  }
  const present = (path: string) => lstatSync(join(outDir, path), { throwIfNoEntry: false }) !== undefined;
  const stale: [path: string, why: string][] = [
    ...plan.write.map((f): [string, string] => [f.path, f.kind === "scaffold" ? "missing (generate writes a skeleton)" : present(f.path) ? "differs (the schema changed, or it was edited)" : "missing"]),
    ...plan.stale.map((path): [string, string] => [path, "no longer generated"]),
  ].sort(([a], [b]) => a.localeCompare(b));
  if (plan.manifest !== undefined) stale.push([MANIFEST, `${present(MANIFEST) ? "differs" : "missing"} (the list of generated files)`]);
  if (stale.length === 0) {
    io.out(`${where} is up to date with MCP schema ${options.revision}`);
    return EXIT.ok;
  }
  // Every generated file, the manifest, and what generate would add or remove besides.
  const total = files.filter((f) => f.kind === "generated").length + 1 + plan.stale.length + plan.write.filter((f) => f.kind === "scaffold").length;
  io.err(`mcp-gen: ${where} is out of date with MCP schema ${options.revision}: ${stale.length} of ${total} files stale; run ${options.rerun}`);
  for (const [path, why] of stale) io.err(`  ${where}/${path}: ${why}`);
  return EXIT.stale;
}
