#!/usr/bin/env node
import nodeModule from "node:module";

// Node 22.1+ can keep compiled code on disk (tsc does the same): ts-morph's bundled TypeScript
// (9 MB) is then compiled once rather than on every run. The rest of the CLI is imported
// after, so the cache covers it. Node 20 has no such cache; nothing changes there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { run } = await import("./run.js");

// A closed pipe (`mcp-gen inspect | head`) is not an error; any other failure to write
// output is one line, like every failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`mcp-gen: cannot write to stdout: ${error.message}\n`);
  process.exit(1);
});

process.exitCode = await run(process.argv.slice(2));
