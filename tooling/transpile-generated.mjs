// Type-strips generated TypeScript into ESM JavaScript, as a user's build would: for the
// benchmarks and the conformance runners, which run the generated code directly.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const RUNTIME = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "runtime");

/**
 * Every .ts file of `from` as .js in `to` (with a package.json saying ESM), and `to` set up as
 * a project that installed the runtime package (node_modules/@mcp-gen/runtime links this
 * checkout's), so generated code importing it runs from any folder; returns `to`.
 */
export function transpileDir(from, to) {
  transpileTree(from, to);
  return asRuntimeProject(to);
}

/**
 * `dir` (of generated JavaScript, e.g. the `js+dts` target's) set up as an ESM project that
 * installed the runtime package, as transpileDir does; returns `dir`.
 */
export function asRuntimeProject(dir) {
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  const link = join(dir, "node_modules", "@mcp-gen", "runtime");
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(RUNTIME, link, "dir");
  }
  return dir;
}

function transpileTree(from, to) {
  mkdirSync(to, { recursive: true });
  writeFileSync(join(to, "package.json"), '{ "type": "module" }\n');
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const file = entry.name;
    if (entry.isDirectory()) {
      transpileTree(join(from, file), join(to, file));
      continue;
    }
    if (!file.endsWith(".ts")) continue;
    const js = ts.transpileModule(readFileSync(join(from, file), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(to, file.replace(/\.ts$/, ".js")), js);
  }
  return to;
}
