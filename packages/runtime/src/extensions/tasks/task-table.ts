import { JSONRPC_ERRORS, McpError } from "../../core/errors.js";
import { settleInputs, TERMINAL, type TaskRecord } from "./task-record.js";

/** Longest taskId looked up; ours are 36 characters. */
const MAX_TASK_ID = 256;

export interface TaskTableLimits {
  /** Tasks kept for all callers. */
  readonly maxTasks: number;
  /** Tasks kept per principal. */
  readonly maxTasksPerPrincipal: number;
}

/**
 * The task store's bounded in-memory table: tasks by id and by principal, dropped when
 * their TTL has passed or to make room for newer ones.
 */
export class TaskTable {
  // Insertion order is creation order: the first entries are the oldest. `owned` indexes
  // them by principal.
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly owned = new Map<string, Map<string, TaskRecord>>();
  private nextSweep = 0;

  constructor(
    private readonly limits: TaskTableLimits,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.tasks.size;
  }

  /** Whether `task` is still the table's (not expired, evicted or replaced). */
  holds(task: TaskRecord): boolean {
    return this.tasks.get(task.id) === task;
  }

  add(task: TaskRecord): void {
    this.tasks.set(task.id, task);
    let mine = this.owned.get(task.principal);
    if (!mine) this.owned.set(task.principal, (mine = new Map()));
    mine.set(task.id, task);
  }

  drop(task: TaskRecord): void {
    this.tasks.delete(task.id);
    const mine = this.owned.get(task.principal);
    mine?.delete(task.id);
    if (mine?.size === 0) this.owned.delete(task.principal);
  }

  /**
   * Drops `task` if its TTL has passed, aborting its work (a server MAY discard it, "Task
   * Polling"); whether it was dropped.
   */
  expire(task: TaskRecord, t: number): boolean {
    if (t < task.createdAt + task.ttlMs) return false;
    this.drop(task);
    settleInputs(task, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "task expired"));
    task.controller.abort("task expired");
    return true;
  }

  /** Drops every expired task, at most once a second (lookups expire the task they find). */
  sweep(): void {
    const t = this.now();
    if (t < this.nextSweep) return;
    this.nextSweep = t + 1_000;
    for (const task of this.tasks.values()) this.expire(task, t);
  }

  /**
   * Makes room for one more task of `principal` by evicting its own oldest finished task;
   * never another principal's (so one caller cannot push out everyone's results). Refused
   * (-32603) when the caller holds its cap of unfinished tasks, or the table is full and the
   * caller has no finished task to give up.
   */
  makeRoom(principal: string): void {
    const mine = this.owned.get(principal);
    if (mine && mine.size >= this.limits.maxTasksPerPrincipal && !this.evictFinished(mine.values()))
      throw new McpError(
        JSONRPC_ERRORS.INTERNAL_ERROR,
        "Too many unfinished tasks for this caller",
      );
    if (this.tasks.size < this.limits.maxTasks) return;
    if (!mine || !this.evictFinished(mine.values()))
      throw new McpError(
        JSONRPC_ERRORS.INTERNAL_ERROR,
        "Too many tasks: the task store is full; retry once tasks have finished or expired",
      );
  }

  /** Drops the first finished task of `among`; whether there was one. */
  private evictFinished(among: Iterable<TaskRecord>): boolean {
    for (const task of among) if (TERMINAL.has(task.status)) return (this.drop(task), true);
    return false;
  }

  /** The task `taskId` names, if `principal` may see it; else -32602, as for an unknown id. */
  lookup(taskId: unknown, principal: string): TaskRecord {
    if (typeof taskId !== "string")
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, "Invalid params: taskId must be a string");
    const task = taskId.length <= MAX_TASK_ID ? this.tasks.get(taskId) : undefined;
    // Another principal's task is "not found": its existence is not revealed ("Security
    // Considerations", auth binding).
    if (!task || task.principal !== principal || this.expire(task, this.now()))
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, "Failed to retrieve task: Task not found");
    return task;
  }
}
