import { availableParallelism } from "node:os";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that take far longer than most (measured on the 2-core machine: the CPU time of each
 * of these in `npm test` is 8-30 s, of the next under 5 s). They start first, so no worker ends
 * the run alone with one of them. vitest orders by the last run's durations when it has them,
 * but a fresh clone (CI) has none: it would order by file size, which puts them first only by luck.
 */
const LONGEST = [
  "packages/cli/test/validators.test.ts",
  "packages/cli/test/zod.test.ts",
  "packages/cli/test/cli.test.ts",
  "packages/cli/test/init.test.ts",
  "packages/cli/test/feature-matrix.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = LONGEST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONGEST.length : i;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order, which keeps each
    // project's files together (install, interop, unit). A worker is reused only for a file of
    // the project it last ran, so that order costs one new worker per project, not one per file.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The projects, by what a test file runs, not by its name (`npm run test:<project>` runs one):
 * - install: npm itself (pack, install, init of a project and its own npm install).
 * - interop: other programs as peers: the v1 and v2 MCP SDKs, server and client processes
 *   (stdio, the examples and deployment recipes, two server instances), frameworks, Redis.
 * - unit: everything else, in-process: the runtime, the reader, generators, printer,
 *   validators, diff, the CLI (run in-process, or the built CLI run once to its exit status),
 *   and generated code against itself, over memory or HTTP on loopback within the test.
 * - e2e: see E2E below.
 * A new file is a unit test until it is listed here. `npm test` runs unit alone, without the
 * tests tagged `compile`, `process` or `corpus` (see tags below); .ci/run runs each of the others.
 */
const INSTALL = ["packages/cli/test/init.test.ts"];
/**
 * e2e: whole example projects and reference servers driven end to end (each file tens of
 * seconds: generation, a strict type-check, several server processes): `npm run test:e2e`.
 */
const E2E = [
  "packages/cli/test/client-examples.test.ts",
  "packages/cli/test/client-tasks-legacy.test.ts",
  "packages/cli/test/everything-drive-http.test.ts",
  "packages/cli/test/everything-drive-stdio.test.ts",
  "packages/cli/test/side-by-side-example.test.ts",
  // examples/testing's own node:test tests (the test client), compiled and run with node --test.
  "packages/cli/test/testing-example.test.ts",
  "packages/cli/test/typed-client.test.ts",
  "packages/cli/test/typed-client-input.test.ts",
];
const INTEROP = [
  "packages/cli/test/client-cancellation.test.ts",
  "packages/cli/test/client-era-probe.test.ts",
  "packages/cli/test/client-eras.test.ts",
  "packages/cli/test/client-legacy-calls.test.ts",
  "packages/cli/test/client.test.ts",
  "packages/cli/test/dual-era.test.ts",
  "packages/cli/test/elicitation-form.test.ts",
  "packages/cli/test/examples.test.ts",
  "deploy/frameworks/frameworks.test.ts",
  "packages/cli/test/multi-instance.test.ts",
  // A real redis-server, and the v1 SDK client through two instances sharing it.
  "packages/cli/test/redis-sessions.test.ts",
  "packages/cli/test/request-lifetime.test.ts",
  "packages/cli/test/resume-sdk.test.ts",
  "packages/cli/test/sdk-interop.test.ts",
  // The SDK clients against the dual-era server of each generate target (ts, js+dts).
  "packages/cli/test/sdk-peers.test.ts",
  // withInput's straight-line tool, called by the SDK clients and the generated client over stdio.
  "packages/cli/test/straight-line-peers.test.ts",
  // examples/side-by-side's two servers (mcp-gen, v2 SDK) called by the v2 SDK client.
  "packages/cli/test/side-by-side.test.ts",
  // The v2 SDK server and client in memory, against mcp-gen's typed tools.
  "packages/cli/test/side-by-side.types.test.ts",
  // examples/sdk-v2-zod: the v2 SDK's low-level Server validating with mcp-gen's zod output.
  "packages/cli/test/sdk-v2-zod.test.ts",
  "packages/cli/test/spec-bump.test.ts",
  "packages/cli/test/tools-interop.test.ts",
  // examples/middleware: requireScopes over HTTP, the SDK clients with bearer tokens.
  "packages/cli/test/middleware-interop.test.ts",
  "packages/cli/test/resources-prompts-interop.test.ts",
  // The stdio client transport, against node processes playing servers.
  "packages/runtime/test/stdio.test.ts",
  // OpenTelemetry across processes: the generated client traced here, a traced server on stdio.
  "packages/cli/test/otel-stdio.test.ts",
  // The Redis event store, against a redis-server it starts.
  "packages/runtime/test/redis-event-store.test.ts",
  // Answers and cancellations across instances on Redis pub/sub, against a redis-server.
  "packages/runtime/test/redis-session-relay.test.ts",
  // Redis restarted and stalled under a server, against a redis-server it starts.
  "packages/runtime/test/redis-faults.test.ts",
  // The Redis event store's store-wide bounds and TTLs, against a redis-server it starts.
  "packages/runtime/test/redis-event-store-bounds.test.ts",
  // A call whose instance died, on the Redis event store, against a redis-server it starts.
  "packages/runtime/test/redis-replica-death.test.ts",
  // The built CLI's compile cache, in the Node processes it starts (five runs of the CLI).
  "packages/cli/test/compile-cache.test.ts",
];

export default defineConfig({
  test: {
    // Deadlines that only catch a hang: a CPU-bound test of 10 s on the quiet 2-core machine
    // (a property test, a type-check) took over 60 s with two suites running at once.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // One test file per core: vitest's default leaves a core free, which on the 2-core CI
    // machine halves the suite's throughput (measured: 317 s with one worker, 237 s with two).
    // The projects share these workers: they run at once, as one suite.
    maxWorkers: Math.max(2, availableParallelism()),
    // Test files share their worker's module cache: each file otherwise re-imports
    // TypeScript and prettier (about a minute of the suite's CPU time on 2 cores). Files
    // restore what they change (environment, working directory, fake timers).
    isolate: false,
    sequence: { sequencer: LongestFirst },
    // `npm test` leaves out the unit tests tagged here; `npm run test:slow` (run by .ci/run)
    // runs them. Tags, not projects: they sit in unit files beside the in-process tests of
    // the same code. Together they were about half of the unit tests' CPU time.
    tags: [
      {
        name: "compile",
        description:
          "type-checks generated or runtime code in a TypeScript program under the strict " +
          "flags (2-30 s of CPU each)",
      },
      {
        name: "process",
        description:
          "runs the built CLI as a process, several times or until it is stopped (about 2 s " +
          "of CPU a run: Node and TypeScript loaded each time)",
      },
      {
        name: "corpus",
        description:
          "a property test or prettier check repeated for the older spec revisions (the newest in npm " +
          "test): the same code paths over more type shapes, seconds of CPU a revision",
      },
    ],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["packages/*/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...INSTALL, ...INTEROP, ...E2E],
        },
      },
      { extends: true, test: { name: "interop", include: INTEROP } },
      { extends: true, test: { name: "install", include: INSTALL } },
      { extends: true, test: { name: "e2e", include: E2E } },
    ],
  },
});
