import type { Readable } from "node:stream";

// Waiting on an event instead of for a while: the wait ends when the event comes, and a
// deadline fails the test when it does not. The deadline is never a pause: it only fails.

// Taken when this module loads, before any test fakes the timers: a deadline runs on real time.
const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;

/**
 * `promise`, or a failure saying `what` did not happen within `ms` ms. The default is long
 * because it only ever fails: two suites at once kept the 2-core machine at a load average
 * of 18, where a child process gets a tenth of a core to start and answer.
 */
export function within<T>(promise: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = realSetTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => realClearTimeout(timer));
}

/**
 * Resolves once `ready()` holds: checked now and after each chunk any of `streams` emits (a
 * line on a child's stdout, say); listeners added earlier have seen the chunk by then. A
 * `ready` that throws (a file not written yet) is not ready.
 */
export function whenSeen(
  streams: readonly Readable[],
  ready: () => boolean,
  what: string,
  ms = 20_000,
): Promise<void> {
  let resolve!: () => void;
  const seen = new Promise<void>((r) => (resolve = r));
  const check = () => {
    try {
      if (ready()) resolve();
    } catch {
      // not yet
    }
  };
  for (const stream of streams) stream.on("data", check);
  check();
  return within(seen, what, ms).finally(() => {
    for (const stream of streams) stream.off("data", check);
  });
}
