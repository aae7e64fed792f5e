#!/usr/bin/env node
import { enableCompileCache } from "./compile-cache.js";

// Compiled code is kept on disk (packages/cli/src/cli/compile-cache.ts): the TypeScript compiler (9 MB) the
// schema reader uses is then compiled once rather than on every run. The rest of the CLI is
// imported after, so the cache covers it.
enableCompileCache();
const { run } = await import("./run.js");

// A closed pipe (`mcp-gen inspect | head`) is not an error; any other failure to write
// output is one line, like every failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`mcp-gen: cannot write to stdout: ${error.message}\n`);
  process.exit(1);
});

process.exitCode = await run(process.argv.slice(2));
