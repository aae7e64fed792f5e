import type { InputRequest, Task, TaskStatus } from "../../core/tasks-wire.js";

// One task as the store keeps it, and the small steps every part of the store takes on it:
// its wire view, a status change, and ending the input it waits for.

/** One `TaskControl.input` call waiting for its keys' answers. */
export interface Waiter {
  keys: Set<string>;
  answers: Record<string, unknown>;
  resolve(answers: Record<string, unknown>): void;
  reject(reason: unknown): void;
}

export interface TaskRecord {
  readonly id: string;
  readonly principal: string;
  readonly method: string;
  readonly capabilities: object;
  readonly createdAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly controller: AbortController;
  status: TaskStatus;
  statusMessage: string | undefined;
  updatedAt: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  readonly pending: Map<string, InputRequest>;
  readonly usedKeys: Set<string>;
  readonly waiters: Set<Waiter>;
}

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** A new task, `working`, created at `createdAt`. */
export function newTaskRecord(fields: {
  principal: string;
  method: string;
  capabilities: object;
  createdAt: number;
  ttlMs: number;
  pollIntervalMs: number;
}): TaskRecord {
  return {
    id: crypto.randomUUID(), // 122 random bits: unguessable ("Task ID unguessability")
    ...fields,
    controller: new AbortController(),
    status: "working",
    statusMessage: undefined,
    updatedAt: fields.createdAt,
    pending: new Map(),
    usedKeys: new Set(),
    waiters: new Set(),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The Task fields every answer about `task` carries. */
export function taskFields(task: TaskRecord): Task {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.updatedAt),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

export function setStatus(task: TaskRecord, status: TaskStatus, now: () => number): void {
  task.status = status;
  task.updatedAt = now();
}

/** Ends every waiting `input` of a task that will not get its answers. */
export function settleInputs(task: TaskRecord, reason: unknown): void {
  for (const waiter of task.waiters) waiter.reject(reason);
  task.waiters.clear();
  task.pending.clear();
}
