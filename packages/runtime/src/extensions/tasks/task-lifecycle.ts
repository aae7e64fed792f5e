import { jsonRpcErrorOf, JSONRPC_ERRORS, McpError } from "../../core/errors.js";
import type { ExtensionHost } from "../../server/extensions.js";
import { inputRequired } from "../../server/input-required.js";
import type { TaskControl } from "./api.js";
import { requestInput } from "./task-input.js";
import { setStatus, settleInputs, TERMINAL, type TaskRecord } from "./task-record.js";
import type { TaskTable } from "./task-table.js";

// A task from the start of its work to its end: the work runs with a TaskControl, and its
// outcome (or tasks/cancel) settles the task as completed, failed or cancelled.

/** What running a task's work needs of its store. */
export interface TaskWorkContext {
  readonly host: ExtensionHost;
  readonly table: TaskTable;
  readonly now: () => number;
  readonly maxPendingInputs: number;
}

type Outcome = { result: unknown } | { error: unknown };

const internalError = () => ({ code: JSONRPC_ERRORS.INTERNAL_ERROR, message: "Internal error" });

/** Runs `work` for `task` (from the next microtask on) and settles the task with its outcome. */
export function startTaskWork(
  task: TaskRecord,
  work: (task: TaskControl) => unknown,
  context: TaskWorkContext,
): void {
  Promise.resolve()
    .then(() => work(taskControl(task, context)))
    .then(
      (result) => finishTask(task, { result }, context),
      (error) => finishTask(task, { error }, context),
    )
    // A result that throws while being checked (a throwing getter) fails the task; nothing
    // is left to reject unhandled, which would end the process.
    .catch((error: unknown) => {
      context.host.report(error, task.method);
      if (TERMINAL.has(task.status)) return;
      failTask(task, internalError(), context.now);
    });
}

/** What the work of `task` gets. */
export function taskControl(task: TaskRecord, context: TaskWorkContext): TaskControl {
  return {
    taskId: task.id,
    signal: task.controller.signal,
    input(requests) {
      // What the creating request's capabilities allow, as for input_required.
      const asking = { clientCapabilities: task.capabilities };
      inputRequired(context.host.protocol, asking, { inputRequests: requests });
      return requestInput(task, requests, context.maxPendingInputs, context.now);
    },
    setStatusMessage(message) {
      if (TERMINAL.has(task.status)) return;
      task.statusMessage = message;
      task.updatedAt = context.now();
    },
  };
}

/**
 * Settles `task` with its work's outcome: completed with a result the method may return,
 * else failed; nothing for a task already ended (cancelled) or no longer stored (expired).
 */
export function finishTask(task: TaskRecord, outcome: Outcome, context: TaskWorkContext): void {
  if (TERMINAL.has(task.status) || !context.table.holds(task)) return; // cancelled or dropped
  settleInputs(task, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "task finished"));
  const { host, now } = context;
  if ("result" in outcome) {
    // Checked as the method's own result; tool errors (isError) are results: "completed"
    // ("Task Execution Errors").
    const result = host.checkResult(task.method, outcome.result);
    if (result) {
      task.result = result;
      return setStatus(task, "completed", now);
    }
    return failTask(task, internalError(), now);
  }
  const raised = jsonRpcErrorOf(outcome.error);
  if (raised) return failTask(task, raised, now);
  host.report(outcome.error, task.method);
  failTask(task, internalError(), now);
}

function failTask(task: TaskRecord, error: NonNullable<TaskRecord["error"]>, now: () => number) {
  task.error = error;
  // "failed" carries the JSON-RPC error, and SHOULD say why in statusMessage.
  task.statusMessage = error.message;
  setStatus(task, "failed", now);
}

/** Cancels `task` and aborts its work; a finished task is left as it is ("Task Cancellation"). */
export function cancelTask(task: TaskRecord, now: () => number): void {
  if (TERMINAL.has(task.status)) return;
  setStatus(task, "cancelled", now);
  task.statusMessage = "Cancelled by the client";
  settleInputs(task, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, "task cancelled"));
  task.controller.abort("task cancelled");
}
