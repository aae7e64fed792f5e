import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { McpGenError } from "../schema/diagnostics.js";
import { listRevisions } from "../schema/index.js";
import { VERSION } from "../generators/emit/package-info.js";
import {
  changesClause,
  snapshotChanges,
  snapshotOf,
  snapshotText,
  type ServerSnapshot,
} from "../generators/client-from/server-snapshot.js";
import { runtimeImports, type RuntimeMode } from "../generators/emit/runtime.js";
import { typedClientFile } from "../generators/client-from/typed-client.js";
import { display, shellWord } from "./check.js";
import { loadConfig } from "./config.js";
import { EXIT } from "./failure.js";
import type { Io } from "./io.js";
import { specOf, type CommonOptions } from "./settings.js";
import { readListing, sourceName, sourceOf, type ServerSource } from "./server-listing.js";

// `mcp-gen client --from <url | command | file> --out <file.ts>`: typed functions for one
// server's tools, prompts and resource templates (packages/cli/src/generators/client-from/typed-client.ts), with the
// listing they came from written beside them (`<file>.listing.json`). `--check` writes
// nothing: it reads the source again (a file without connecting, a server by connecting) and
// exits 3 with one line naming what changed when the files no longer match it.

export interface ClientCommandOptions extends CommonOptions {
  from: string;
  out: string;
  /** The generated client's folder (default: the config's `out`, else `out`). */
  client?: string;
  check?: boolean;
  /** `Name: value` headers for an HTTP server. */
  header?: string[];
  /** Each request's timeout, in milliseconds (default 30000). */
  timeout?: string;
  revisions?: string;
}

/** The revisions the lister speaks when neither flag nor config names several: the newest, and the initialize-based ones. */
const DEFAULT_REVISIONS = ["latest", "2025-11-25", "2025-06-18", "2025-03-26"];

/** The listing file beside `out`: `src/search.ts` -> `src/search.listing.json`. */
export function listingPath(out: string): string {
  return out.replace(/\.ts$/, ".listing.json");
}

/** `to` (a module in the generated client's folder) as an import from the folder of `from`. */
function importPath(fromFile: string, to: string): string {
  const path = relative(dirname(fromFile), to).split(sep).join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * Where the typed file finds the runtime's client entry: the package, or (`"runtime":
 * "vendor"` in the config) the copy the generated client carries in its folder.
 */
function runtimeSpecifier(out: string, clientDir: string, mode: RuntimeMode): string {
  const from = runtimeImports(mode).from("client");
  return mode === "package" ? from : importPath(out, join(clientDir, from));
}

function headersOf(list: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of list ?? []) {
    const colon = entry.indexOf(":");
    if (colon <= 0)
      throw new McpGenError("usage", "--header takes 'Name: value' (the value is not echoed)");
    headers[entry.slice(0, colon).trim()] = entry.slice(colon + 1).trim();
  }
  return headers;
}

function timeoutOf(value: string | undefined): number {
  if (value === undefined) return 30_000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0 || ms > 600_000)
    throw new McpGenError("usage", `--timeout is '${value}'; give milliseconds, 1 to 600000`);
  return ms;
}

/** The command that rewrites the files: credentials in a URL are left out. */
function rerunCommand(options: ClientCommandOptions, source: ServerSource): string {
  let from = options.from;
  if (source.kind === "url") {
    const url = new URL(source.url);
    if (url.username || url.password) from = `${url.origin}${url.pathname}${url.search}`;
  }
  const words = ["mcp-gen", "client", "--from", from, "--out", options.out];
  if (options.client !== undefined) words.push("--client", options.client);
  if (options.header?.length) words.push("--header", "...");
  return words.map(shellWord).join(" ");
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** What `--check` says of files that differ from what would be written. */
function staleReason(
  outText: string | undefined,
  listingText: string | undefined,
  now: ServerSnapshot,
  where: string,
  listingFile: string,
): string {
  if (outText === undefined) return "is missing";
  if (listingText === undefined) return `has no listing beside it (${display(listingFile)})`;
  let before: ServerSnapshot | undefined;
  try {
    before = snapshotOf(JSON.parse(listingText), display(listingFile));
  } catch {
    return `has a listing that cannot be read (${display(listingFile)})`;
  }
  const changes = snapshotChanges(before, now);
  if (changes.length > 0) return `no longer matches ${where}: ${changesClause(changes)}`;
  return `differs from what mcp-gen ${VERSION} writes for the same listing (edited, or written by another mcp-gen)`;
}

export async function clientCommand(options: ClientCommandOptions, io: Io): Promise<number> {
  if (!options.out.endsWith(".ts"))
    throw new McpGenError("usage", `--out is '${options.out}'; name a .ts file`);
  const source = sourceOf(options.from);
  const config = loadConfig(options.config);
  const listingFile = listingPath(options.out);
  const where = sourceName(source);
  const headers = headersOf(options.header);
  const timeoutMs = timeoutOf(options.timeout);
  const listing = await readListing(source, () => {
    const spec = specOf(options, config);
    return { spec, revisions: revisionsOf(options, config.revisions, spec), headers, timeoutMs };
  });
  const snapshot = snapshotOf(listing, where);
  // Formatted once, when the typed file has read every schema (a cap fails before this).
  let formatted: Promise<string> | undefined;
  const listed = () => (formatted ??= snapshotText(snapshot));
  const clientDir = options.client ?? config.out ?? "out";
  const code = await typedClientFile(snapshot, listingFile.split(/[\\/]/).pop()!, listed, {
    client: importPath(options.out, join(clientDir, "client.js")),
    types: importPath(options.out, join(clientDir, "types.js")),
    runtime: runtimeSpecifier(options.out, clientDir, config.runtime ?? "package"),
  });
  const listingText = await listed();
  if (options.check) {
    const onDisk = readIfThere(options.out);
    const listingOnDisk = readIfThere(listingFile);
    if (onDisk === code && listingOnDisk === listingText) {
      io.out(`${display(options.out)} is up to date with ${where}`);
      return EXIT.ok;
    }
    const why = staleReason(onDisk, listingOnDisk, snapshot, where, listingFile);
    io.err(`mcp-gen: ${display(options.out)} ${why}; run ${rerunCommand(options, source)}`);
    return EXIT.stale;
  }
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(listingFile, listingText);
  writeFileSync(options.out, code);
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const counts = [
    count(snapshot.tools.length, "tool"),
    count(snapshot.prompts.length, "prompt"),
    count(snapshot.resourceTemplates.length, "resource template"),
  ].join(", ");
  io.out(
    `mcp-gen: ${counts} of ${where} -> ${display(options.out)} (listing in ${display(listingFile)})`,
  );
  return EXIT.ok;
}

/** --revisions, else the config's when it names several, else DEFAULT_REVISIONS the spec has. */
function revisionsOf(
  options: ClientCommandOptions,
  configured: readonly string[] | undefined,
  spec: string,
): string[] {
  if (options.revisions !== undefined) {
    const list = options.revisions
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.length === 0) throw new McpGenError("usage", "--revisions is empty");
    return list;
  }
  if (configured && configured.length > 1) return [...configured];
  // Cut to those the spec checkout has (a fake or partial one may lack the oldest).
  const present = new Set(listRevisions(spec).map((r) => r.name));
  return DEFAULT_REVISIONS.filter((r) => r === "latest" || present.has(r));
}
