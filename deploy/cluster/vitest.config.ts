import { defineConfig } from "vitest/config";

// The deployment test (`npm run test:deploy`, run by .ci/run): HAProxy, three server
// processes and redis-server, started by the test; apart from `npm test` since it needs
// those OS packages and starts a dozen processes.
export default defineConfig({
  test: {
    root: `${import.meta.dirname}/../..`,
    include: ["deploy/cluster/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
