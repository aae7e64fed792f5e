#!/usr/bin/env node
// The `mcp-gen` command. A committed file, not the build's dist/cli/main.js itself: npm links a
// package's command only when its file exists at install time, and a checkout is installed
// (`npm ci`) before it is built, so `npx mcp-gen` would not be found in a fresh clone.
try {
  await import("../dist/cli/main.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && /dist[\\/]cli[\\/]main\.js'/.test(error.message)) {
    process.stderr.write("mcp-gen: the CLI is not built: run `npm run build` in the checkout\n");
    process.exit(1);
  }
  throw error;
}
