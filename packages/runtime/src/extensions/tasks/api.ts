import type { RequestContext } from "../../server/context.js";
import type { ExtensionResult, RouterExtension } from "../../server/extensions.js";
import type { CreateTaskResult, InputRequest } from "../../core/tasks-wire.js";

// What an application sees of the Tasks extension (server.ts implements it): the store's
// options, `run` and what a task's work gets.

export interface TaskStoreOptions {
  /** A task's TTL, unless `run` gives one (default 1 hour); the task is dropped after it. */
  ttlMs?: number;
  /** Largest TTL `run` may ask for (default 24 hours). */
  maxTtlMs?: number;
  /** Polling interval suggested to clients (default 1,000 ms). */
  pollIntervalMs?: number;
  /** Tasks kept for all callers (default 10,000) and per principal (default 100). */
  maxTasks?: number;
  maxTasksPerPrincipal?: number;
  /** Input requests a task may have outstanding at once (default 32). */
  maxPendingInputs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** What the work of a task gets. */
export interface TaskControl {
  /** The task's id; undefined when the request did not declare the extension (run synchronously). */
  readonly taskId: string | undefined;
  /** Fired by tasks/cancel (or the task's expiry): stop, the outcome will be dropped. */
  readonly signal: AbortSignal;
  /**
   * Asks the client for input mid-task: the task is `input_required` with these requests
   * until `tasks/update` has answered every key; resolves to the answers, each checked as
   * its method's result. Keys are unique over the task's life.
   */
  input(requests: { readonly [key: string]: InputRequest }): Promise<Record<string, unknown>>;
  /** The statusMessage tasks/get shows (undefined removes it). */
  setStatusMessage(message: string | undefined): void;
}

export interface RunOptions {
  /**
   * The work cannot be done without a task: a request that did not declare the extension
   * gets -32021 naming it ("Capability Negotiation"), instead of running synchronously.
   */
  required?: boolean;
  ttlMs?: number;
  pollIntervalMs?: number;
}

export interface TaskStore extends RouterExtension {
  /**
   * Serves a request with `work`: as a task when the request declared the extension
   * (resolves at once to the CreateTaskResult, once `tasks/get` can find the task), else by
   * running it and resolving to its result (or refusing, with `required`).
   */
  run<R extends object>(
    ctx: Pick<RequestContext, "clientCapabilities" | "principal" | "method" | "signal">,
    work: (task: TaskControl) => R | Promise<R>,
    options?: RunOptions,
  ): Promise<R | (CreateTaskResult & ExtensionResult)>;
  /** Tasks kept (expired ones go at the next store operation). */
  readonly size: number;
}
