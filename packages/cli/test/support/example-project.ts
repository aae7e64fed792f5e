import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { generate } from "../../src/generators/emit/index.js";
import { loadRevision } from "../../src/schema/index.js";
import { ROOT, SPEC_DIR, tempDir, writeFiles } from "../helpers.js";
import { transpileDir } from "../../../../tooling/transpile-generated.mjs";
import { printedUntil } from "./project-processes.js";

// A project under examples/ as its reader would use it: copied out, its protocol code
// generated from its own mcp-gen.config.json, its files transpiled to JavaScript, and its
// scripts run with node (packages/cli/test/examples.test.ts, packages/cli/test/client-examples.test.ts).

/** The example copied out, with its generated code and node_modules: the folder and its .ts files. */
export async function prepareExample(name: string): Promise<{ dir: string; sources: string[] }> {
  const dir = join(tempDir("mcp-gen-example-"), name);
  cpSync(join(ROOT, "examples", name), dir, { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const config = JSON.parse(readFileSync(join(dir, "mcp-gen.config.json"), "utf8")) as {
    revisions: string[];
    out: string;
    auth?: boolean;
  };
  const [newest, ...older] = config.revisions.map((r) => loadRevision(SPEC_DIR, r));
  const files = await generate(newest!, undefined, { legacy: older, auth: config.auth === true });
  writeFiles(join(dir, config.out), files);
  return {
    dir,
    sources: readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .sort(),
  };
}

/**
 * The example's files as JavaScript beside it, with the checkout's node_modules first (the SDKs,
 * and the runtime package through its workspace link); returns the folder.
 */
export function transpiledExample(dir: string): string {
  const js = join(dir, "..", "js");
  mkdirSync(js);
  symlinkSync(join(ROOT, "node_modules"), join(js, "node_modules"), "dir");
  transpileDir(dir, js);
  return js;
}

export interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node <file> <args>` (killed after a minute, or when `children` are killed): its exit
 * status and output. Not spawnSync: servers in this process must answer while it runs.
 */
export function runScript(
  file: string,
  args: string[],
  children: ChildProcess[] = [],
): Promise<ScriptRun> {
  const child = spawn(process.execPath, [file, ...args], { timeout: 60_000 });
  children.push(child);
  const run: ScriptRun = { status: null, stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (run.stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (run.stderr += chunk));
  return new Promise((resolve) => child.on("close", (status) => resolve({ ...run, status })));
}

/**
 * Starts the example's main.js (in `js`) on a free port, adding it to `children`: the URL it
 * prints ("MCP server listening on <url>"), and what it has written to stderr so far.
 */
export async function serveExample(
  js: string,
  children: ChildProcess[],
): Promise<{ url: string; stderr: () => string }> {
  const server = spawn(process.execPath, [join(js, "main.js")], {
    env: { ...process.env, PORT: "0" },
  });
  children.push(server);
  let stderr = "";
  server.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const printed = await printedUntil(server, "\n");
  const url = /MCP server listening on (http:\/\/\S+)/.exec(printed)?.[1];
  if (!url) throw new Error(`the example's server printed no URL: ${printed}`);
  return { url, stderr: () => stderr };
}
