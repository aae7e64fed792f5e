import { defineConfig } from "vitest/config";

// The fault suite (`npm run test:faults`, run by .ci/run after the deployment test): Redis
// restarted and paused, replicas killed mid-call and restarted under load, and a bounded
// soak, against HAProxy, three replicas and a redis-server it starts itself. Apart from
// `npm test` and `npm run test:deploy`: it needs those OS packages and takes minutes.
export default defineConfig({
  test: {
    root: `${import.meta.dirname}/../..`,
    include: ["deploy/faults/**/*.test.ts"],
    globalSetup: ["deploy/faults/report-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // One deployment at a time: each file starts its own, and the machine has few cores.
    maxWorkers: 1,
    fileParallelism: false,
  },
});
