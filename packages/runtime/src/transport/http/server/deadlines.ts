// Request timeouts without a timer per request. Arming and clearing a node timer is a
// measurable part of serving one HTTP request (BENCH=http profiles: timers' insert and
// unenroll, some 3 µs a request); the requests that start within a few milliseconds of each
// other share one timer instead, armed when the first of them starts and cleared once the
// last of them ends. A request may so time out up to one window early (at most 10 ms, and
// never more than 1% of the timeout), never late.

/** What a deadline fires: the request's own timeout. */
export interface Expiring {
  expire(): void;
}

/** The requests that started in one window, and the timer that fires for all of them. */
interface Bucket {
  readonly startedAt: number;
  readonly members: Set<Expiring>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const MAX_WINDOW_MS = 10;

/** The deadlines of one timeout length (every request of an HTTP core has the same). */
class Deadlines {
  readonly #windowMs: number;
  #current: Bucket | undefined = undefined;

  constructor(readonly timeoutMs: number) {
    this.#windowMs = Math.min(MAX_WINDOW_MS, Math.floor(timeoutMs / 100));
  }

  /** Starts `member`'s timeout; the function returned stops it. */
  start(member: Expiring): () => void {
    // A monotonic clock: a wall clock set back would keep requests joining an old window.
    const now = performance.now();
    let bucket = this.#current;
    const age = bucket ? now - bucket.startedAt : Infinity;
    if (!bucket || bucket.timer === undefined || age > this.#windowMs || age < 0) {
      const made: Bucket = { startedAt: now, members: new Set(), timer: undefined };
      made.timer = setTimeout(() => expireAll(made), this.timeoutMs);
      bucket = this.#current = made;
    }
    const members = bucket.members;
    const armed = bucket;
    members.add(member);
    return () => {
      if (!members.delete(member) || members.size > 0) return;
      // The last of its requests ended: nothing is left to time out.
      clearTimeout(armed.timer);
      armed.timer = undefined;
    };
  }
}

function expireAll(bucket: Bucket): void {
  bucket.timer = undefined;
  const members = [...bucket.members];
  bucket.members.clear();
  for (const member of members) member.expire();
}

const byLength = new Map<number, Deadlines>();

/** Starts a request's timeout of `timeoutMs`; the function returned stops it. */
export function startDeadline(timeoutMs: number, member: Expiring): () => void {
  let deadlines = byLength.get(timeoutMs);
  if (!deadlines) byLength.set(timeoutMs, (deadlines = new Deadlines(timeoutMs)));
  return deadlines.start(member);
}
