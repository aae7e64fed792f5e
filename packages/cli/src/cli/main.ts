#!/usr/bin/env node
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { enableCompileCache } from "./compile-cache.js";

// Compiled code is kept on disk (packages/cli/src/cli/compile-cache.ts): the TypeScript compiler (9 MB) the
// schema reader uses is then compiled once rather than on every run. The rest of the CLI is
// loaded after, so the cache covers it: the build bundles it into one CommonJS file
// (tooling/build/bundle-cli.mjs), read and compiled once instead of some 140 modules; a build
// that only ran tsc (no bundle) runs the modules themselves.
enableCompileCache();
const bundle = fileURLToPath(new URL("./bundle.cjs", import.meta.url));
const cli = (
  existsSync(bundle) ? createRequire(import.meta.url)(bundle) : await import("./run.js")
) as typeof import("./run.js");
cli.useImporter((specifier) => import(specifier));

// A closed pipe (`mcp-gen inspect | head`) is not an error; any other failure to write
// output is one line, like every failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`mcp-gen: cannot write to stdout: ${error.message}\n`);
  process.exit(1);
});

process.exitCode = await cli.run(process.argv.slice(2));
