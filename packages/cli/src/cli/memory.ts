import { statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { LoadedRevision } from "../schema/index.js";

/** Schemas (all revisions of one output together) at least this large get a major GC once read. */
export const LARGE_SCHEMA_BYTES = 256 * 1024;

/**
 * A major garbage collection between reading and generating, for large schemas. V8 grows its
 * old generation through the whole read without a major collection (the TypeScript syntax
 * tree, the type checker and its syntax tree are all garbage once the schema model
 * is built), so generation would otherwise allocate on top of them. Collected here,
 * generation reuses that space: on a schema 20 times 2026-07-28 peak RSS went from 240 to
 * 208 MB, time unchanged (tooling/bench/generate.mjs). Below the threshold the pause is not worth it
 * (the 2026-07-28 schema alone: 150 -> 147 MB). Output does not depend on it.
 */
export function collectAfterReading(revisions: readonly LoadedRevision[]): void {
  let bytes = 0;
  for (const r of revisions) {
    try {
      bytes += statSync(r.revision.schemaTs).size;
    } catch {
      return; // read a moment ago; if it is gone now, there is nothing to gain here
    }
  }
  if (bytes >= LARGE_SCHEMA_BYTES) gcFunction()?.();
}

let gc: (() => void) | null | undefined;

/** V8's `gc`, which Node gives to contexts created after --expose-gc is set; null if refused. */
function gcFunction(): (() => void) | undefined {
  if (gc === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      const found: unknown = runInNewContext("typeof gc === 'function' ? gc : null");
      gc = typeof found === "function" ? (found as () => void) : null;
    } catch {
      gc = null;
    }
  }
  return gc ?? undefined;
}
