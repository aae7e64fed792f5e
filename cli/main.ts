#!/usr/bin/env node
import { run } from "./run.js";

// A closed pipe (`mcp-gen inspect | head`) is not an error; any other failure to write
// output is one line, like every failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`mcp-gen: cannot write to stdout: ${error.message}\n`);
  process.exit(1);
});

process.exitCode = await run(process.argv.slice(2));
