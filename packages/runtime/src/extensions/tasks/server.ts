import type { RequestContext } from "../../server/context.js";
import { hasCapability, jsonRpcErrorOf, JSONRPC_ERRORS, McpError } from "../../core/errors.js";
import { EXTENSION_RESULT, type ExtensionHost } from "../../server/extensions.js";
import { inputRequired, requireClientCapability } from "../../server/input-required.js";
import { positiveInteger } from "../../core/options.js";
import { checkInputAnswer } from "../../core/elicitation-content.js";
import { $escape } from "../../core/validation.js";
import { isObject, type ValidationError } from "../../core/protocol.js";
import { validateCreateTaskResult, type InputRequest, type Task, type TaskStatus } from "./wire.js";

import type { TaskControl, TaskStore, TaskStoreOptions } from "./api.js";

export type { CreateTaskResult, DetailedTask, InputRequest, Task, TaskStatus } from "./wire.js";
export type { RunOptions, TaskControl, TaskStore, TaskStoreOptions } from "./api.js";

// The Tasks extension (`io.modelcontextprotocol/tasks`, ext-tasks specification/draft/tasks.md)
// on the server: a handler may answer `tools/call` with a task handle (CreateTaskResult) and
// go on working; the client polls `tasks/get`, answers mid-task input with `tasks/update` and
// may `tasks/cancel`. Tasks live in a bounded in-memory store, each bound to the principal
// that created it. Status notifications over subscriptions/listen are not sent (they are a
// MAY, "Task Status Notifications").

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

interface Waiter {
  keys: Set<string>;
  answers: Record<string, unknown>;
  resolve(answers: Record<string, unknown>): void;
  reject(reason: unknown): void;
}

interface TaskRecord {
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

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);
/** Longest taskId looked up; ours are 36 characters. */
const MAX_TASK_ID = 256;

/** A store of tasks: pass it to the dispatcher (`extensions: [store]`), use `run` in handlers. */
export function createTaskStore(options: TaskStoreOptions = {}): TaskStore {
  const maxTtl = positiveInteger(options.maxTtlMs, "maxTtlMs", 86_400_000);
  const defaultTtl = Math.min(positiveInteger(options.ttlMs, "ttlMs", 3_600_000), maxTtl);
  const defaultPoll = positiveInteger(options.pollIntervalMs, "pollIntervalMs", 1_000);
  const maxTasks = positiveInteger(options.maxTasks, "maxTasks", 10_000);
  const perPrincipal = positiveInteger(options.maxTasksPerPrincipal, "maxTasksPerPrincipal", 100);
  const maxPending = positiveInteger(options.maxPendingInputs, "maxPendingInputs", 32);
  const now = options.now ?? Date.now;
  // Insertion order is creation order: the first entries are the oldest. `owned` indexes
  // them by principal.
  const tasks = new Map<string, TaskRecord>();
  const owned = new Map<string, Map<string, TaskRecord>>();
  let nextSweep = 0;
  let host: ExtensionHost | undefined;
  const attached = () => {
    if (!host) throw new Error("the task store is not registered with a dispatcher (extensions)");
    return host;
  };

  function drop(task: TaskRecord): void {
    tasks.delete(task.id);
    const mine = owned.get(task.principal);
    mine?.delete(task.id);
    if (mine?.size === 0) owned.delete(task.principal);
  }

  /**
   * Drops `task` if its TTL has passed, aborting its work (a server MAY discard it, "Task
   * Polling"); whether it was dropped.
   */
  function expire(task: TaskRecord, t: number): boolean {
    if (t < task.createdAt + task.ttlMs) return false;
    drop(task);
    settleInputs(task, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "task expired"));
    task.controller.abort("task expired");
    return true;
  }

  /** Drops every expired task, at most once a second (lookups expire the task they find). */
  function sweep(): void {
    const t = now();
    if (t < nextSweep) return;
    nextSweep = t + 1_000;
    for (const task of tasks.values()) expire(task, t);
  }

  /** Makes room for one more task of `principal`: evicts its, then anyone's, oldest finished task. */
  function makeRoom(principal: string): void {
    const evict = (among: Iterable<TaskRecord>) => {
      for (const task of among) if (TERMINAL.has(task.status)) return (drop(task), true);
      return false;
    };
    const mine = owned.get(principal);
    if (mine && mine.size >= perPrincipal && !evict(mine.values()))
      throw new McpError(
        JSONRPC_ERRORS.INTERNAL_ERROR,
        "Too many unfinished tasks for this caller",
      );
    if (tasks.size >= maxTasks && !evict(tasks.values()))
      throw new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "Too many unfinished tasks");
  }

  const iso = (ms: number) => new Date(ms).toISOString();
  const taskFields = (task: TaskRecord): Task => ({
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.updatedAt),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  });
  const touch = (task: TaskRecord, status: TaskStatus) => {
    task.status = status;
    task.updatedAt = now();
  };

  /** Ends every waiting `input` of a task that will not get its answers. */
  function settleInputs(task: TaskRecord, reason: unknown): void {
    for (const waiter of task.waiters) waiter.reject(reason);
    task.waiters.clear();
    task.pending.clear();
  }

  /** The task `taskId` names, if the caller may see it; else -32602, as for an unknown id. */
  function lookup(params: Record<string, unknown>, ctx: RequestContext): TaskRecord {
    const id = params["taskId"];
    if (typeof id !== "string")
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, "Invalid params: taskId must be a string");
    const task = id.length <= MAX_TASK_ID ? tasks.get(id) : undefined;
    // Another principal's task is "not found": its existence is not revealed ("Security
    // Considerations", auth binding).
    if (!task || task.principal !== (ctx.principal ?? "") || expire(task, now()))
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, "Failed to retrieve task: Task not found");
    return task;
  }

  function finish(task: TaskRecord, outcome: { result: unknown } | { error: unknown }): void {
    if (TERMINAL.has(task.status) || tasks.get(task.id) !== task) return; // cancelled or dropped
    settleInputs(task, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "task finished"));
    const raised = "error" in outcome ? jsonRpcErrorOf(outcome.error) : undefined;
    if ("result" in outcome) {
      // Checked as the method's own result; tool errors (isError) are results: "completed"
      // ("Task Execution Errors").
      const result = attached().checkResult(task.method, outcome.result);
      if (result) {
        task.result = result;
        return touch(task, "completed");
      }
      task.error = { code: JSONRPC_ERRORS.INTERNAL_ERROR, message: "Internal error" };
    } else if (raised) {
      task.error = raised;
    } else {
      attached().report(outcome.error, task.method);
      task.error = { code: JSONRPC_ERRORS.INTERNAL_ERROR, message: "Internal error" };
    }
    // "failed" carries the JSON-RPC error, and SHOULD say why in statusMessage.
    task.statusMessage = task.error.message;
    touch(task, "failed");
  }

  function control(task: TaskRecord): TaskControl {
    return {
      taskId: task.id,
      signal: task.controller.signal,
      input(requests) {
        // What the creating request's capabilities allow, as for input_required.
        const asking = { clientCapabilities: task.capabilities };
        inputRequired(attached().protocol, asking, { inputRequests: requests });
        const keys = Object.keys(requests);
        if (TERMINAL.has(task.status) || task.controller.signal.aborted)
          return Promise.reject(new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "task has ended"));
        for (const key of keys) {
          // "Each request key in inputRequests MUST be unique over the lifetime of a single task."
          if (task.usedKeys.has(key)) throw new TypeError(`input key "${key}" was used already`);
        }
        if (task.pending.size + keys.length > maxPending)
          throw new TypeError(`more than ${maxPending} input requests outstanding`);
        return new Promise((resolve, reject) => {
          for (const key of keys) {
            task.usedKeys.add(key);
            task.pending.set(key, requests[key]!);
          }
          task.waiters.add({ keys: new Set(keys), answers: {}, resolve, reject });
          touch(task, "input_required");
        });
      },
      setStatusMessage(message) {
        if (TERMINAL.has(task.status)) return;
        task.statusMessage = message;
        task.updatedAt = now();
      },
    };
  }

  function getTask(params: Record<string, unknown>, ctx: RequestContext): object {
    const task = lookup(params, ctx);
    const base = taskFields(task);
    if (task.status === "input_required")
      return { ...base, inputRequests: Object.fromEntries(task.pending) };
    if (task.status === "completed") return { ...base, result: task.result };
    if (task.status === "failed") return { ...base, error: task.error };
    return base;
  }

  function updateTask(params: Record<string, unknown>, ctx: RequestContext): object {
    const task = lookup(params, ctx);
    const responses = params["inputResponses"];
    if (!isObject(responses))
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, "Invalid params: inputResponses");
    const validate = attached().validators.validateInputResult;
    // Keys not outstanding (never issued, answered, superseded) are ignored ("Task Update
    // Requests"); outstanding ones are checked as their method's result, all before any is used.
    const accepted: [string, unknown][] = [];
    for (const [key, answer] of Object.entries(responses)) {
      const request = task.pending.get(key);
      if (!request) continue;
      const checked = checkInputAnswer(validate, request.method, request.params, answer);
      if (!checked.ok) {
        const path = `/params/inputResponses/${$escape(key)}`;
        const errors = checked.errors.map((e: ValidationError) => ({ ...e, path: path + e.path }));
        const message = `invalid input response "${key}" for ${request.method}`;
        throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, message, { errors });
      }
      accepted.push([key, answer]);
    }
    for (const [key, answer] of accepted) {
      task.pending.delete(key);
      for (const waiter of task.waiters) {
        if (!waiter.keys.delete(key)) continue;
        waiter.answers[key] = answer;
        if (waiter.keys.size === 0) {
          task.waiters.delete(waiter);
          waiter.resolve(waiter.answers);
        }
      }
    }
    // A partial answer leaves the task input_required until the rest arrive.
    if (accepted.length > 0 && task.status === "input_required" && task.pending.size === 0)
      touch(task, "working");
    return {};
  }

  function cancelTask(params: Record<string, unknown>, ctx: RequestContext): object {
    const task = lookup(params, ctx);
    // Cancelling a finished task is acknowledged and changes nothing ("Task Cancellation").
    if (!TERMINAL.has(task.status)) {
      touch(task, "cancelled");
      task.statusMessage = "Cancelled by the client";
      settleInputs(task, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "task cancelled"));
      task.controller.abort("task cancelled");
    }
    return {};
  }

  const store: TaskStore = {
    id: TASKS_EXTENSION,
    settings: {},
    requests: { "tasks/get": getTask, "tasks/update": updateTask, "tasks/cancel": cancelTask },
    nameParams: { "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" },
    resultMethods: ["tools/call"],
    validateResult: validateCreateTaskResult,
    attach(given) {
      if (host) throw new Error("a task store serves one dispatcher");
      host = given;
    },
    get size() {
      return tasks.size;
    },
    async run(ctx, work, runOptions = {}) {
      const { protocol } = attached();
      if (!hasCapability(ctx.clientCapabilities, ["extensions", TASKS_EXTENSION])) {
        // "If a server is unable to service a request ... without returning CreateTaskResult,
        // the server MUST return ... -32021".
        if (runOptions.required)
          requireClientCapability(protocol, ctx, ["extensions", TASKS_EXTENSION]);
        return work({
          taskId: undefined,
          signal: ctx.signal,
          input() {
            requireClientCapability(protocol, ctx, ["extensions", TASKS_EXTENSION]);
            throw new Error("unreachable");
          },
          setStatusMessage: () => undefined,
        });
      }
      sweep();
      const principal = ctx.principal ?? "";
      makeRoom(principal);
      const created = now();
      const ttl = Math.min(positiveInteger(runOptions.ttlMs, "ttlMs", defaultTtl), maxTtl);
      const task: TaskRecord = {
        id: crypto.randomUUID(), // 122 random bits: unguessable ("Task ID unguessability")
        principal,
        method: ctx.method,
        capabilities: ctx.clientCapabilities,
        createdAt: created,
        ttlMs: ttl,
        pollIntervalMs: positiveInteger(runOptions.pollIntervalMs, "pollIntervalMs", defaultPoll),
        controller: new AbortController(),
        status: "working",
        statusMessage: undefined,
        updatedAt: created,
        pending: new Map(),
        usedKeys: new Set(),
        waiters: new Set(),
      };
      // Stored before the handle is returned: tasks/get finds it at once ("Task Creation").
      tasks.set(task.id, task);
      if (!owned.has(principal)) owned.set(principal, new Map());
      owned.get(principal)!.set(task.id, task);
      Promise.resolve()
        .then(() => work(control(task)))
        .then(
          (result) => finish(task, { result }),
          (error) => finish(task, { error }),
        )
        // A result that throws while being checked (a throwing getter) fails the task; nothing
        // is left to reject unhandled, which would end the process.
        .catch((error: unknown) => {
          attached().report(error, task.method);
          if (TERMINAL.has(task.status)) return;
          task.error = { code: JSONRPC_ERRORS.INTERNAL_ERROR, message: "Internal error" };
          task.statusMessage = task.error.message;
          touch(task, "failed");
        });
      return { resultType: "task", ...taskFields(task), [EXTENSION_RESULT]: TASKS_EXTENSION };
    },
  };
  return store;
}
