import { TaskCancelledError, TaskTimeoutError } from "./errors.js";
import { PollWaker, StatusFeed } from "./task-feed.js";
import { pollDelay, type TaskBounds, type TaskNotices } from "./task-settings.js";
import type { TaskHandle, TaskStatus, TaskStatusUpdate } from "./task-types.js";

// One task from its creation to its result, the same for both eras: poll the task's status
// at the interval the server suggests (within the client's bounds) until it is terminal,
// answering its input on the way; then its result. What differs per era is the driver's.

type Json = Record<string, unknown>;

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** A status with what it carries (the Tasks extension inlines them in tasks/get). */
export interface Observed {
  readonly task: TaskStatusUpdate;
  readonly inputRequests?: Json;
  readonly result?: Json;
  readonly error?: { code: number; message: string; data?: unknown };
}

/** How one era reads, feeds and ends a task. */
export interface TaskDriver {
  readonly taskId: string;
  /** tasks/get. */
  poll(signal: AbortSignal): Promise<Observed>;
  /** The task is input_required: the input it waits for, given (or under way). */
  needInput(observed: Observed, signal: AbortSignal): Promise<void>;
  /** The task is terminal: its result (or its error, thrown). */
  finish(observed: Observed, signal: AbortSignal): Promise<Json>;
  /** tasks/cancel; the status it answered with, when it says one. */
  cancel(): Promise<TaskStatusUpdate | undefined>;
}

/** What a task's run needs beside its driver. */
export interface TaskRunContext {
  readonly bounds: TaskBounds;
  readonly notices: TaskNotices;
  /** The call's signal: aborting it cancels the task. */
  readonly signal: AbortSignal | undefined;
  /** The call's own bound on the task (else the client's). */
  readonly timeoutMs: number | undefined;
}

/** A handle on a task the server created (`created`), its polling started at once. */
export function startTask<R>(
  driver: TaskDriver,
  created: Observed,
  context: TaskRunContext,
): TaskHandle<R> {
  const feed = new StatusFeed();
  const control = new AbortController();
  let cancelSent = false;
  const done = run(driver, created, context, feed, control, () => cancelSent);
  // result() may never be asked for: the rejection is the caller's only if it asks.
  done.catch(() => undefined);
  return {
    taskId: driver.taskId,
    get latest() {
      return feed.latest;
    },
    result: () => done as Promise<R>,
    async cancel() {
      if (control.signal.aborted || TERMINAL.has(feed.latest?.status ?? "working")) return;
      cancelSent = true;
      const answered = await driver.cancel();
      if (answered) feed.push(answered);
      control.abort(new TaskCancelledError(driver.taskId, answered?.statusMessage));
    },
    [Symbol.asyncIterator]: () => feed[Symbol.asyncIterator](),
  };
}

/** A handle on an answer the server gave at once (no task was created). */
export function immediateTask<R>(result: R): TaskHandle<R> {
  return {
    taskId: undefined,
    latest: undefined,
    result: () => Promise.resolve(result),
    cancel: () => Promise.resolve(),
    async *[Symbol.asyncIterator]() {},
  };
}

async function run(
  driver: TaskDriver,
  created: Observed,
  context: TaskRunContext,
  feed: StatusFeed,
  control: AbortController,
  cancelSent: () => boolean,
): Promise<Json> {
  const { bounds, signal } = context;
  const timeoutMs = context.timeoutMs ?? bounds.timeoutMs;
  const onAbort = () => control.abort(signal?.reason ?? new Error("aborted"));
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => control.abort(new TaskTimeoutError(driver.taskId, timeoutMs)),
    timeoutMs,
  );
  const waker = new PollWaker();
  const unwatch = context.notices.watch(driver.taskId, () => waker.nudge());
  let observed = created;
  try {
    feed.push(observed.task);
    while (!TERMINAL.has(observed.task.status)) {
      if (observed.task.status === "input_required")
        await driver.needInput(observed, control.signal);
      const delay = pollDelay(bounds, observed.task.pollIntervalMs);
      await waker.wait(delay, bounds.minPollIntervalMs, control.signal);
      observed = await driver.poll(control.signal);
      feed.push(observed.task);
    }
    const result = await driver.finish(observed, control.signal);
    feed.end();
    return result;
  } catch (error) {
    const reason = control.signal.aborted ? control.signal.reason : error;
    // The caller gave up (abort, timeout, a declined input): the server need not go on working
    // for nobody. Best effort, not waited for; a cancel() already sent one.
    if (!TERMINAL.has(observed.task.status) && !cancelSent())
      driver.cancel().catch(() => undefined);
    // The iteration fails only when it could not follow the task to its end: a terminal
    // status seen (failed, cancelled) or a cancel() of the caller's ends it normally.
    const followed = TERMINAL.has(feed.latest?.status ?? "working") || cancelSent();
    feed.end(followed ? undefined : reason);
    throw reason;
  } finally {
    // Whatever is still in flight for this task (a 2025-11-25 tasks/result sent early) ends too.
    if (!control.signal.aborted) control.abort(new Error("the task's polling ended"));
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    unwatch();
  }
}
