#!/usr/bin/env node
import { run } from "./run.js";

// A closed pipe (`mcp-gen inspect | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2));
