// examples/deployment as its reader would run it: copied out, its protocol code generated
// into mcp/ (dual-era from its mcp-gen.config.json, or 2026-07-28 alone for Workers), then
// type-stripped to JavaScript beside the checkout's node_modules (the frameworks, and the
// runtime package through its workspace link). Used by deploy/frameworks/frameworks.test.ts (the Node.js
// recipes) and deploy/platforms/platforms.test.ts (Deno, Bun, Next.js, workerd).
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { generate } from "../../src/generators/emit/index.js";
import { loadRevision } from "../../src/schema/index.js";
import { transpileDir } from "../../../../tooling/transpile-generated.mjs";
import { ROOT, SPEC_DIR, tempDir, writeFiles } from "../helpers.js";

const LEGACY = ["2025-11-25", "2025-06-18", "2025-03-26"];

export interface PreparedExample {
  /** The TypeScript project (sources and generated mcp/). */
  sources: string;
  /** The same as JavaScript. */
  js: string;
}

export async function prepareDeployment(
  options: { legacy?: boolean; runtime?: "package" | "vendor" } = {},
): Promise<PreparedExample> {
  const root = tempDir("mcp-gen-deployment-");
  const sources = join(root, "deployment");
  cpSync(join(ROOT, "examples", "deployment"), sources, { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(sources, "node_modules"), "dir");
  const legacy = options.legacy === false ? [] : LEGACY.map((r) => loadRevision(SPEC_DIR, r));
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy,
    runtime: options.runtime ?? "package",
  });
  writeFiles(join(sources, "mcp"), files);
  const js = join(root, "js");
  mkdirSync(js);
  symlinkSync(join(ROOT, "node_modules"), join(js, "node_modules"), "dir");
  transpileDir(sources, js);
  return { sources, js };
}

/** The example's TypeScript files (its own, not the generated ones). */
export function exampleSources(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(dir, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory() && path !== "mcp") walk(path);
      else if (entry.isFile() && entry.name.endsWith(".ts")) found.push(path);
    }
  };
  walk("");
  return found.sort();
}

/**
 * Starts a recipe's server (`command args` in `cwd`, PORT=0); resolves to the URL it prints
 * ("MCP server listening on <url>"). The process is added to `children`, in a process group of
 * its own (kill it with process.kill(-pid)), since some runtimes start processes of their own.
 */
export function startRecipe(
  command: string,
  args: string[],
  cwd: string,
  children: ChildProcess[],
  printed = /MCP server listening on (http:\/\/\S+)/,
): Promise<string> {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    env: { ...process.env, PORT: "0", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let said = "";
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      said += chunk;
      const url = printed.exec(said)?.[1];
      if (url) resolve(url);
    });
    child.stderr.on("data", (chunk: Buffer) => (said += chunk));
    child.on("exit", (code) => reject(new Error(`${command} exited (${code}): ${said}`)));
  });
}

/** Ends the recipes' processes (each group). */
export function stopRecipes(children: ChildProcess[]): void {
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!);
    } catch {
      // Gone already.
    }
  }
}
