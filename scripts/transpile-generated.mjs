// Type-strips generated TypeScript into ESM JavaScript, as a user's build would: for the
// benchmarks and the conformance runners, which run the generated code directly.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** Every .ts file of `from` as .js in `to` (with a package.json saying ESM); returns `to`. */
export function transpileDir(from, to) {
  mkdirSync(to, { recursive: true });
  writeFileSync(join(to, "package.json"), '{ "type": "module" }\n');
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const file = entry.name;
    if (entry.isDirectory()) {
      transpileDir(join(from, file), join(to, file));
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
