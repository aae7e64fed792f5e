import type { TaskStatus, TaskStatusUpdate } from "./task-types.js";

// A Task as the client reports it, whichever era sent it: 2025-11-25's experimental tasks
// name the lifetime and polling interval `ttl` and `pollInterval`, the Tasks extension
// `ttlMs` and `pollIntervalMs`; the client speaks the extension's names.

/** What a revision names a Task's lifetime and polling interval. */
export interface TaskFieldNames {
  readonly ttl: string;
  readonly pollInterval: string;
}

/** The Tasks extension's names (2026-07-28). */
export const EXTENSION_TASK_FIELDS: TaskFieldNames = {
  ttl: "ttlMs",
  pollInterval: "pollIntervalMs",
};

/** 2025-11-25's experimental tasks' names. */
export const LEGACY_TASK_FIELDS: TaskFieldNames = { ttl: "ttl", pollInterval: "pollInterval" };

/** A checked Task in the Tasks extension's field names. */
export function taskStatus(
  task: Record<string, unknown>,
  names: TaskFieldNames = EXTENSION_TASK_FIELDS,
): TaskStatusUpdate {
  const ttl = task[names.ttl];
  const pollInterval = task[names.pollInterval];
  return {
    taskId: task["taskId"] as string,
    status: task["status"] as TaskStatus,
    ...(typeof task["statusMessage"] === "string" ? { statusMessage: task["statusMessage"] } : {}),
    createdAt: task["createdAt"] as string,
    lastUpdatedAt: task["lastUpdatedAt"] as string,
    ttlMs: typeof ttl === "number" ? ttl : null,
    ...(typeof pollInterval === "number" ? { pollIntervalMs: pollInterval } : {}),
  };
}
