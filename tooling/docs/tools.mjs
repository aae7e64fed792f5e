// What the docs scripts share: where things are, and the docs tools (installed into docs/
// from its own lockfile, apart from the project's dependencies).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DOCS = join(ROOT, "docs");
export const DIST = join(DOCS, ".vitepress", "dist");

/** Runs a command in `cwd`, its output shown; throws with its exit status on failure. */
export function runIn(cwd, command, args, env = process.env) {
  const r = spawnSync(command, args, { cwd, stdio: "inherit", env });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${r.status ?? r.signal})`);
}

/** Installs the docs tools from docs/package-lock.json, once (or when the lockfile changed). */
export function installDocsTools() {
  const marker = join(DOCS, "node_modules", ".package-lock.json");
  if (existsSync(marker) && existsSync(join(DOCS, "node_modules", "vitepress"))) return;
  runIn(DOCS, "npm", ["ci", "--no-audit", "--no-fund"]);
}
