import { availableParallelism } from "node:os";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Files that take far longer than any other (measured: init.test.ts 47-64 s of one worker
 * on the quiet 2-core machine, about 130 s under load; the next about 20 s). They start
 * first, so no worker ends the run alone with one of them. vitest orders by the last run's durations when it has them, but a
 * fresh clone (CI) has none: it would order by file size, which puts them first only by luck.
 */
const LONGEST = ["test/init.test.ts"];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = LONGEST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONGEST.length : i;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One test file per core: vitest's default leaves a core free, which on the 2-core CI
    // machine halves the suite's throughput (measured: 317 s with one worker, 237 s with two).
    maxWorkers: Math.max(2, availableParallelism()),
    // Test files share their worker's module cache: each file otherwise re-imports ts-morph,
    // TypeScript and prettier (about a minute of the suite's CPU time on 2 cores). Files
    // restore what they change (environment, working directory).
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
