// The runtimes of the platform tests, from this folder's lockfile: each npm package ships its
// binary (no install script runs, nothing is downloaded at install or run time).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const modules = join(HERE, "node_modules");
export const DENO = join(modules, "@deno", "linux-x64-glibc", "deno");
export const BUN = join(modules, "@oven", "bun-linux-x64-baseline", "bin", "bun");
export const WORKERD = join(modules, "@cloudflare", "workerd-linux-64", "bin", "workerd");
export const NEXT = join(modules, "next", "dist", "bin", "next");

/** Installs the runtimes once (`node deploy/platforms/setup.mjs`). */
export function install() {
  if ([DENO, BUN, WORKERD, NEXT].every((binary) => existsSync(binary))) return;
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: HERE,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`npm ci in ${HERE} failed (${r.status})`);
}

if (import.meta.url === `file://${process.argv[1]}`) install();
