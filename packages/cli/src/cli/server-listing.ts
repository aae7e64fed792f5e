import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse as parseShell } from "shell-quote";
import { McpGenError } from "../schema/diagnostics.js";
import { generate } from "../generators/emit/index.js";
import { VERSION } from "../generators/emit/package-info.js";
import { MAX_ENTRIES } from "../generators/client-from/server-snapshot.js";
import { ts } from "../schema/typescript.js";
import { loadEras } from "./commands.js";
import { display } from "./check.js";
import { importModule } from "../host/import-module.js";

// Where `mcp-gen client` reads a server's listing from: a saved file, or the server itself,
// over Streamable HTTP (a URL) or stdio (a command, spawned without a shell). A server is
// reached with the client mcp-gen generates, for the newest revision and the
// initialize-based ones, so either era answers: it is generated in memory, type-stripped
// into a temporary folder and imported from there (the runtime package it imports is this
// CLI's own), then removed.

export type ServerSource =
  | { kind: "file"; path: string }
  | { kind: "url"; url: string }
  | { kind: "command"; command: string; args: string[] };

/** Largest listing file read, largest message read from a server, and most bytes of a listing over all its pages. */
export const MAX_LISTING_BYTES = 8 * 1024 * 1024;

/**
 * What `--from` names: a URL (http, https); a listing file when the whole value is an
 * existing file ending in `.json`, or one word ending in `.json` (then "no such file");
 * else a command line. A command whose last word is a `.json` (a config) is a command.
 */
export function sourceOf(from: string): ServerSource {
  if (from.trim() === "")
    throw new McpGenError("usage", "--from is empty: name a URL, a command or a tools.json file");
  if (/^https?:\/\//i.test(from)) {
    if (!URL.canParse(from)) throw new McpGenError("usage", `--from ${from} is not a valid URL`);
    return { kind: "url", url: from };
  }
  const isJson = /\.json$/i.test(from);
  if (isJson && statSync(from, { throwIfNoEntry: false })?.isFile())
    return { kind: "file", path: from };
  const words = commandWords(from);
  if (isJson && words.length === 1) throw new McpGenError("usage", `--from ${from}: no such file`);
  const [command, ...args] = words;
  return { kind: "command", command: command!, args };
}

/**
 * A command line split as a shell would, refusing what only a shell does: operators
 * (pipes, redirections) and variables. shell-quote would turn `$TOKEN`, `${HOME}` and `$5`
 * into empty words without a word; a command then runs with arguments missing.
 */
function commandWords(from: string): string[] {
  const variables: string[] = [];
  const words = parseShell(from, (name) => {
    variables.push(name);
    return "";
  });
  const operator = words.find((w) => typeof w !== "string");
  if (operator !== undefined)
    throw new McpGenError(
      "usage",
      `--from '${from}' holds shell syntax (${JSON.stringify(operator)}); mcp-gen runs the command without a shell: give the program and its arguments only`,
    );
  if (variables.length > 0)
    throw new McpGenError(
      "usage",
      `--from '${from}' uses $${variables[0]}; mcp-gen runs the command without a shell and expands no variables: let your shell expand it (double quotes around the value), or single-quote it to pass it as written`,
    );
  return words as string[];
}

/** The source as a message names it: never a URL's credentials or query. */
export function sourceName(source: ServerSource): string {
  if (source.kind === "file") return display(source.path);
  if (source.kind === "command") return `the server '${source.command}'`;
  const url = new URL(source.url);
  return `the server at ${url.origin}${url.pathname}`;
}

export interface ListingOptions {
  spec: string;
  /** Revisions the client speaks: the newest first is not required (sorted on load). */
  revisions: readonly string[];
  /** Extra HTTP headers (authorization). */
  headers: Record<string, string>;
  /** Timeout of each request, in milliseconds. */
  timeoutMs: number;
}

/**
 * The listing `{ tools, prompts, resourceTemplates }` of a source, as read (unchecked).
 * `connect` gives the options of a server's source: a file needs no spec.
 */
export async function readListing(
  source: ServerSource,
  connect: () => ListingOptions,
): Promise<unknown> {
  if (source.kind === "file") return readListingFile(source.path);
  return listServer(source, connect());
}

function readListingFile(path: string): unknown {
  const size = statSync(path).size;
  if (size > MAX_LISTING_BYTES)
    throw new McpGenError(
      "usage",
      `${display(path)} is ${size} bytes; mcp-gen reads listings of at most ${MAX_LISTING_BYTES}`,
    );
  try {
    return JSON.parse(readFileSync(path, "utf8")) as unknown;
  } catch (error) {
    throw new McpGenError(
      "usage",
      `${display(path)} is not JSON: ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/** What is used here of the generated client's modules (client.js, http-client.js, stdio.js). */
interface ClientModule {
  createClient(options: object): {
    listToolsPages(): AsyncIterable<{ tools: unknown[] }>;
    listPromptsPages(): AsyncIterable<{ prompts: unknown[] }>;
    listResourceTemplatesPages(): AsyncIterable<{ resourceTemplates: unknown[] }>;
    close(): Promise<void>;
  };
}
interface HttpClientModule {
  createHttpTransport(options: object): object;
}
interface StdioModule {
  createStdioTransport(options: object): object;
}

/** A module of the temporary folder. */
const load = async <M>(dir: string, module: string) =>
  (await importModule(pathToFileURL(join(dir, module)).href)) as M;

/**
 * The file URL of a module of @mcp-gen/runtime, as this CLI resolves it. Not
 * `import.meta.resolve`: the CLI also runs as one CommonJS bundle (tooling/build/bundle-cli.mjs),
 * which has no import.meta; the runtime's exports all have a `default` condition, which
 * require's resolution honours too.
 */
function runtimeModuleUrl(specifier: string): string {
  return pathToFileURL(createRequire(import.meta.url).resolve(specifier)).href;
}

/** The generated client for `options.revisions`, written as JavaScript into `dir`. */
async function writeClient(dir: string, options: ListingOptions): Promise<void> {
  const { loaded, legacy } = loadEras(options.spec, options.revisions);
  const files = await generate(loaded, ["client"], { legacy });
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const file of files) {
    // Types only: every import of them is `import type`, erased.
    if (/(^|\/)types\.ts$/.test(file.path) || file.path === "index.ts") continue;
    const js = ts
      .transpileModule(file.content, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      })
      .outputText.replace(
        /(["'])(@mcp-gen\/runtime\/[\w/-]+)\1/g,
        (_, _q: string, specifier: string) => JSON.stringify(runtimeModuleUrl(specifier)),
      );
    const target = join(dir, file.path.replace(/\.ts$/, ".js"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, js);
  }
}

/** Bytes of the listing read so far from one server, over every page of the three lists. */
interface ListingBudget {
  bytes: number;
}

/**
 * Every entry of a paged list, at most MAX_ENTRIES, and at most MAX_LISTING_BYTES (as JSON)
 * counted in `budget` over all pages of all lists: a listing from a server is held to what
 * a listing file may be, however many pages it comes in.
 */
async function collect<T>(
  pages: AsyncIterable<T>,
  key: keyof T,
  what: string,
  where: string,
  budget: ListingBudget,
): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const page of pages) {
    const list = page[key];
    if (!Array.isArray(list)) continue;
    budget.bytes += Buffer.byteLength(JSON.stringify(list));
    if (budget.bytes > MAX_LISTING_BYTES)
      throw new McpGenError(
        "protocol",
        `${where} lists more than ${MAX_LISTING_BYTES} bytes (tools, prompts and resource templates together); mcp-gen reads at most ${MAX_LISTING_BYTES}`,
      );
    for (const entry of list as unknown[]) all.push(entry);
    if (all.length > MAX_ENTRIES)
      throw new McpGenError(
        "protocol",
        `${where} lists more than ${MAX_ENTRIES} ${what}; mcp-gen reads at most ${MAX_ENTRIES}`,
      );
  }
  return all;
}

/** A list a server may not serve (no prompts, no resources): a JSON-RPC error is an empty list. */
async function optional<T>(list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (error) {
    if (typeof (error as { code?: unknown }).code === "number") return [];
    throw error;
  }
}

async function listServer(
  source: Exclude<ServerSource, { kind: "file" }>,
  options: ListingOptions,
): Promise<unknown> {
  const where = sourceName(source);
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-client-"));
  try {
    await writeClient(dir, options);
    const { createClient } = await load<ClientModule>(dir, "client.js");
    const transport =
      source.kind === "url"
        ? (await load<HttpClientModule>(dir, "http-client.js")).createHttpTransport({
            url: source.url,
            headers: options.headers,
            maxMessageBytes: MAX_LISTING_BYTES,
          })
        : (await load<StdioModule>(dir, "stdio.js")).createStdioTransport({
            command: source.command,
            args: source.args,
            stderr: "pipe",
            maxLineBytes: MAX_LISTING_BYTES,
          });
    const client = createClient({
      transport,
      clientInfo: { name: "mcp-gen", version: VERSION },
      requestTimeoutMs: options.timeoutMs,
      maxPages: 100,
    });
    try {
      const budget: ListingBudget = { bytes: 0 };
      const tools = await collect(client.listToolsPages(), "tools", "tools", where, budget);
      const prompts = await optional(() =>
        collect(client.listPromptsPages(), "prompts", "prompts", where, budget),
      );
      const resourceTemplates = await optional(() =>
        collect(
          client.listResourceTemplatesPages(),
          "resourceTemplates",
          "resource templates",
          where,
          budget,
        ),
      );
      return { tools, prompts, resourceTemplates };
    } catch (error) {
      if (error instanceof McpGenError) throw error;
      throw new McpGenError(
        "protocol",
        `cannot list the tools of ${where}: ${(error as Error).message ?? String(error)}`,
      );
    } finally {
      await client.close().catch(() => undefined);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
