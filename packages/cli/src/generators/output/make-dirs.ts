import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * `mkdirSync(dir, { recursive: true })`, with the same result (the first folder created, or
 * undefined when there was nothing to create), minus its endless loop: Node 20 and 22 retry
 * for ever where mkdir says ENOENT under a parent that exists, as /proc does for any new
 * name (`--out /proc/x` hung instead of failing). Here each missing folder is made once,
 * from the nearest existing one down, and mkdir's own error is thrown.
 */
export function makeDirs(dir: string): string | undefined {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (statSync(d, { throwIfNoEntry: false }) !== undefined) break;
    missing.push(d);
    if (dirname(d) === d) break;
  }
  missing.reverse();
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (error) {
      // Made meanwhile by someone else: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(d).isDirectory())
        throw error;
    }
  }
  return missing[0];
}
