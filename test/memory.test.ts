import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { collectAfterReading, LARGE_SCHEMA_BYTES } from "../cli/memory.js";
import type { LoadedRevision } from "../schema/index.js";
import { tempDir } from "./helpers.js";

/** A loaded revision whose schema.ts has `bytes` bytes (only the path is read). */
function revisionOf(bytes: number): LoadedRevision {
  const file = join(tempDir(), "schema.ts");
  writeFileSync(file, " ".repeat(bytes));
  return { revision: { schemaTs: file } } as unknown as LoadedRevision;
}

/** The number of major GCs V8 reports while `run` runs (entries arrive asynchronously). */
async function majorGcsDuring(run: () => void): Promise<number> {
  let majors = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
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
