import { defineConfig } from "vitest/config";

// The platform tests (`npm run test:platforms`, run by .ci/run): slow to start (each runtime
// is a process of its own), so apart from `npm test`.
export default defineConfig({
  test: {
    root: `${import.meta.dirname}/../..`,
    include: ["deploy/platforms/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
  },
});
