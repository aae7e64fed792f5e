// The worker thread of cli/type-check-thread.ts: type-checks schema texts with tsc, one
// message in ({ id, text }), one out ({ id, error }), until the main thread lets it go.
import { parentPort } from "node:worker_threads";
import { enableCompileCache, flushCompileCache } from "./compile-cache.js";

// Before TypeScript loads, so its compiled code (the checker's, which this thread runs and
// the main one no longer does) comes from the cache too.
enableCompileCache();
const { schemaTextTscError } = await import("../schema/tsc-check.js");

const port = parentPort!;
port.on("message", ({ id, text }: { id: number; text: string }) => {
  let reply: { id: number; error?: unknown; failed?: string };
  try {
    reply = { id, error: schemaTextTscError(text) };
  } catch (error) {
    reply = { id, failed: error instanceof Error ? error.message : String(error) };
  }
  // The main thread may exit as soon as it has its answers, ending this thread mid-write:
  // keep the compiled code first (a no-op once it is cached, so only a first run waits).
  flushCompileCache();
  port.postMessage(reply);
});
