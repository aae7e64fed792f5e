// The CLI's build, last step: the modules tsc wrote into packages/cli/dist, bundled into one
// CommonJS file, dist/cli/bundle.cjs, which dist/cli/main.js loads.
//
// Why: a cold `mcp-gen generate` on Node 20 spent about a fifth of its time loading the CLI
// itself: some 140 files (its own ES modules, then commander and semver's CommonJS ones) each
// resolved, read and compiled afresh, since Node 20 keeps no compiled code of ES modules. One
// CommonJS file is read once, and at 700 KB it is large enough for the CLI's compile cache
// (src/cli/compile-cache.ts), so the functions a run uses come back compiled, as the
// TypeScript compiler's do. The tsc output stays beside it: `@mcp-gen/cli/plugin` and the
// tests import those modules.
//
// Left out of the bundle: TypeScript (required as it is, so the compile cache keeps its code
// apart), and prettier and handlebars (loaded only by `init` and the commands that format).
import { rolldown } from "rolldown";
import ts from "typescript";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = resolve(fileURLToPath(import.meta.url), "../../../packages/cli");
const EXTERNAL = new Set(["typescript", "prettier", "handlebars"]);

const bundle = await rolldown({
  input: join(CLI, "dist/cli/run.js"),
  platform: "node",
  external: (id) => EXTERNAL.has(id),
  logLevel: "warn",
  onLog(level, log) {
    // Any warning is a bundle that may behave unlike the modules: fail the build on it.
    throw new Error(`bundling the CLI: ${log.message}`);
  },
});
const { output } = await bundle.write({
  file: join(CLI, "dist/cli/bundle.cjs"),
  format: "cjs",
  codeSplitting: false,
});
await bundle.close();

// Code the compile cache compiles (vm.Script) cannot import() on Node 20 once it comes from
// the cache: every import() must go through src/host/import-module.ts, whose default is the
// one left in the bundle.
const imports = dynamicImports(output[0].code);
if (imports !== 1) {
  throw new Error(
    `bundling the CLI: ${imports} import() calls in the bundle, expected 1; import modules through src/host/import-module.ts`,
  );
}

/** How many import() calls the code makes (text that only looks like one, in a string, is not one). */
function dynamicImports(code) {
  const file = ts.createSourceFile(
    "bundle.cjs",
    code,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.JS,
  );
  let count = 0;
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) count++;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return count;
}
