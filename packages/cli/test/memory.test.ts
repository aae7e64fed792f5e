import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { constants, performance, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { collectAfterReading, LARGE_SCHEMA_BYTES } from "../src/cli/memory.js";
import type { LoadedRevision } from "../src/schema/index.js";
import { tempDir } from "./helpers.js";
import { within } from "./support/wait.js";

/** A loaded revision whose schema.ts has `bytes` bytes (only the path is read). */
function revisionOf(bytes: number): LoadedRevision {
  const file = join(tempDir(), "schema.ts");
  writeFileSync(file, " ".repeat(bytes));
  return { revision: { schemaTs: file } } as unknown as LoadedRevision;
}

let marks = 0;

/**
 * The number of major GCs V8 reports while `run` runs. Their entries arrive asynchronously
 * (Node queues each on the event loop once the GC ends); a mark queued behind them, on the next
 * turn, arrives after them all, so the count is complete when the mark is seen.
 */
async function majorGcsDuring(run: () => void): Promise<number> {
  let majors = 0;
  const end = `memory.test ${++marks}`;
  let ended!: () => void;
  const allSeen = new Promise<void>((resolve) => (ended = resolve));
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (entry.entryType === "gc" && kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
      if (entry.entryType === "mark" && entry.name === end) ended();
    }
  });
  observer.observe({ entryTypes: ["gc", "mark"] });
  run();
  setImmediate(() => performance.mark(end));
  await within(allSeen, "the GC entries");
  observer.disconnect();
  performance.clearMarks(end);
  return majors;
}

// Each case calls collectAfterReading three times: three major GCs where it collects, and at
// most one (V8 may collect on its own now and then) where it must not.
const thrice = (revisions: LoadedRevision[]) => () => {
  for (let i = 0; i < 3; i++) collectAfterReading(revisions);
};

describe("a major GC between reading and generating", () => {
  it("runs for a schema at the threshold, not below it", async () => {
    expect(await majorGcsDuring(thrice([revisionOf(LARGE_SCHEMA_BYTES - 1)]))).toBeLessThanOrEqual(
      1,
    );
    expect(await majorGcsDuring(thrice([revisionOf(LARGE_SCHEMA_BYTES)]))).toBeGreaterThanOrEqual(
      3,
    );
  });

  it("counts every revision of the output together, and a schema gone since reading skips it", async () => {
    const half = Math.ceil(LARGE_SCHEMA_BYTES / 2);
    expect(
      await majorGcsDuring(thrice([revisionOf(half), revisionOf(half)])),
    ).toBeGreaterThanOrEqual(3);
    const gone = {
      revision: { schemaTs: join(tempDir(), "missing.ts") },
    } as unknown as LoadedRevision;
    expect(
      await majorGcsDuring(thrice([revisionOf(LARGE_SCHEMA_BYTES), gone])),
    ).toBeLessThanOrEqual(1);
  });
});
