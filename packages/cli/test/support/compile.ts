import { it, type TestFunction } from "vitest";

/**
 * A test tagged `compile` (vitest.config.ts): one that type-checks generated or runtime code
 * in a TypeScript program under the strict flags, seconds to a minute of CPU each. `npm test`
 * leaves these out to stay fast; `npm run test:slow` (run by .ci/run) runs them.
 */
export function itCompiles(name: string, fn: TestFunction): void {
  it(name, { tags: "compile" }, fn);
}
