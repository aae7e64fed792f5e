import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
export { transpileDir } from "../scripts/transpile-generated.mjs";

export const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
export const SPEC = resolve(ROOT, "..", "shared", "spec");

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function workDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}
