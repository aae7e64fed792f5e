import type { TaskStatusUpdate } from "./task-types.js";

// The statuses one task goes through, as a handle's iteration gives them, and the wait between
// two polls that a status notification may cut short.

const abortError = (signal: AbortSignal): unknown => signal.reason ?? new Error("aborted");

/**
 * Every status seen of one task, in order (a status equal to the last one seen is not
 * repeated). Iterating replays them from the first, then waits for more until the feed ends:
 * normally once the polling stopped, with `error` when it failed before a terminal status.
 */
export class StatusFeed implements AsyncIterable<TaskStatusUpdate> {
  private readonly seen: TaskStatusUpdate[] = [];
  private ended: { error?: unknown } | undefined = undefined;
  private waiting: (() => void)[] = [];

  get latest(): TaskStatusUpdate | undefined {
    return this.seen[this.seen.length - 1];
  }

  push(status: TaskStatusUpdate): void {
    const last = this.latest;
    if (this.ended || (last && sameStatus(last, status))) return;
    this.seen.push(status);
    this.wakeAll();
  }

  /** No more statuses; iterations still going fail with `error` when one is given. */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = error === undefined ? {} : { error };
    this.wakeAll();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TaskStatusUpdate> {
    for (let i = 0; ; i++) {
      while (i >= this.seen.length) {
        const ended = this.ended;
        if (ended) {
          if ("error" in ended) throw ended.error;
          return;
        }
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      }
      yield this.seen[i]!;
    }
  }

  private wakeAll(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

function sameStatus(a: TaskStatusUpdate, b: TaskStatusUpdate): boolean {
  return (
    a.status === b.status &&
    a.statusMessage === b.statusMessage &&
    a.lastUpdatedAt === b.lastUpdatedAt
  );
}

/**
 * The wait before the next poll. `nudge()` (a status notification about the task, a
 * 2025-11-25 tasks/result answered) ends it early, but never before `minMs` from its start:
 * notifications cannot make the client poll faster than its floor.
 */
export class PollWaker {
  private pending = false;
  private wake: (() => void) | undefined = undefined;

  nudge(): void {
    this.pending = true;
    this.wake?.();
  }

  wait(ms: number, minMs: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const started = Date.now();
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout>;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.wake = undefined;
        this.pending = false;
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.wake = undefined;
        reject(abortError(signal));
      };
      const early = () => {
        clearTimeout(timer);
        timer = setTimeout(done, Math.max(minMs - (Date.now() - started), 0));
      };
      timer = setTimeout(done, ms);
      signal.addEventListener("abort", onAbort, { once: true });
      this.wake = early;
      if (this.pending) early();
    });
  }
}
