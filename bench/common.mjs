import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
export const SPEC = resolve(ROOT, "..", "shared", "spec");

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function workDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Type-strips every .ts file of a folder into ESM .js files in another; returns it. */
export function transpileDir(from, to) {
  mkdirSync(to, { recursive: true });
  writeFileSync(join(to, "package.json"), '{ "type": "module" }\n');
  for (const f of readdirSync(from).filter((n) => n.endsWith(".ts"))) {
    const js = ts.transpileModule(readFileSync(join(from, f), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(to, f.replace(/\.ts$/, ".js")), js);
  }
  return to;
}
