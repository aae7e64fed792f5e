import type { CallOptions } from "../core/transport.js";

// Declared beside SenderOptions, whose `tasks` option it is; here for the task API's readers.
export type { TaskSettingsOptions } from "../core/transport.js";

// What a caller sees of tasks on the client: the handle of a call the server runs as a task,
// the per-call and per-client options. The same for both eras: 2025-11-25's experimental tasks
// (basic/utilities/tasks) and 2026-07-28's Tasks extension (io.modelcontextprotocol/tasks).

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/**
 * A task's state, in the Tasks extension's field names whichever era the server speaks
 * (2025-11-25's `ttl` and `pollInterval` become `ttlMs` and `pollIntervalMs`), as results
 * come back in the newest revision's shape.
 */
export interface TaskStatusUpdate {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** Milliseconds from creation the server keeps the task; null: unlimited. */
  readonly ttlMs: number | null;
  /** The polling interval the server suggests. */
  readonly pollIntervalMs?: number;
}

/**
 * A call the server may run as a task. Iterating it (`for await`) gives every status seen,
 * from the one the task was created with to the terminal one; each iteration starts from the
 * first. When the server answered at once (no task), `taskId` is undefined, the iteration is
 * empty and `result()` is that answer.
 */
export interface TaskHandle<R> extends AsyncIterable<TaskStatusUpdate> {
  readonly taskId: string | undefined;
  /** The last status seen (undefined without a task). */
  readonly latest: TaskStatusUpdate | undefined;
  /**
   * The final result, checked as the method's result: McpError for a task that `failed` with a
   * JSON-RPC error, TaskCancelledError, TaskTimeoutError, the signal's reason on abort.
   */
  result(): Promise<R>;
  /** Sends tasks/cancel (cooperative: the server may still finish) and stops polling. */
  cancel(): Promise<void>;
}

/** Options of a call that may become a task, beside the call's own. */
export interface TaskOptions {
  /** Give up on the task, cancelling it, when it has not ended after this many ms (default: the client's `tasks.timeoutMs`). */
  taskTimeoutMs?: number;
  /** 2025-11-25 servers: the lifetime asked for the task, in ms (the server may choose another). */
  ttlMs?: number;
}

export type TaskCallOptions = CallOptions & TaskOptions;
