import type { RequestContext } from "../../server/context.js";
import { hasCapability, JSONRPC_ERRORS, McpError } from "../../core/errors.js";
import { EXTENSION_RESULT, type ExtensionHost } from "../../server/extensions.js";
import { requireClientCapability } from "../../server/input-required.js";
import { positiveInteger } from "../../core/options.js";
import { isObject, type ProtocolDescriptor } from "../../core/protocol.js";
import { TASKS_EXTENSION, validateCreateTaskResult } from "../../core/tasks-wire.js";
import { answerInput } from "./task-input.js";
import { cancelTask, startTaskWork } from "./task-lifecycle.js";
import { newTaskRecord, taskFields, type TaskRecord } from "./task-record.js";
import { TaskTable } from "./task-table.js";

import type { RunOptions, TaskControl, TaskStore, TaskStoreOptions } from "./api.js";

export type {
  CreateTaskResult,
  DetailedTask,
  InputRequest,
  Task,
  TaskStatus,
} from "../../core/tasks-wire.js";
export type { RunOptions, TaskControl, TaskStore, TaskStoreOptions } from "./api.js";

// The Tasks extension (`io.modelcontextprotocol/tasks`, ext-tasks specification/draft/tasks.md)
// on the server: a handler may answer `tools/call` with a task handle (CreateTaskResult) and
// go on working; the client polls `tasks/get`, answers mid-task input with `tasks/update` and
// may `tasks/cancel`. Tasks live in a bounded in-memory store, each bound to the principal
// that created it. Status notifications over subscriptions/listen are not sent (they are a
// MAY, "Task Status Notifications").

export { TASKS_EXTENSION };

/** A store of tasks: pass it to the dispatcher (`extensions: [store]`), use `run` in handlers. */
export function createTaskStore(options: TaskStoreOptions = {}): TaskStore {
  const maxTtl = positiveInteger(options.maxTtlMs, "maxTtlMs", 86_400_000);
  const defaultTtl = Math.min(positiveInteger(options.ttlMs, "ttlMs", 3_600_000), maxTtl);
  const defaultPoll = positiveInteger(options.pollIntervalMs, "pollIntervalMs", 1_000);
  const maxTasks = positiveInteger(options.maxTasks, "maxTasks", 10_000);
  const perPrincipal = positiveInteger(options.maxTasksPerPrincipal, "maxTasksPerPrincipal", 100);
  const maxPendingInputs = positiveInteger(options.maxPendingInputs, "maxPendingInputs", 32);
  const now = options.now ?? Date.now;
  const table = new TaskTable({ maxTasks, maxTasksPerPrincipal: perPrincipal }, now);
  let host: ExtensionHost | undefined;
  const attached = () => {
    if (!host) throw new Error("the task store is not registered with a dispatcher (extensions)");
    return host;
  };
  const lookup = (params: Record<string, unknown>, ctx: RequestContext) =>
    table.lookup(params["taskId"], ctx.principal ?? "");

  const store: TaskStore = {
    id: TASKS_EXTENSION,
    settings: {},
    requests: {
      "tasks/get": (params, ctx) => detailedTask(lookup(params, ctx)),
      "tasks/update": (params, ctx) => {
        const task = lookup(params, ctx);
        const responses = params["inputResponses"];
        if (!isObject(responses))
          throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, "Invalid params: inputResponses");
        answerInput(task, responses, attached().validators.validateInputResult, now);
        return {};
      },
      "tasks/cancel": (params, ctx) => {
        // Cancelling a finished task is acknowledged and changes nothing ("Task Cancellation").
        cancelTask(lookup(params, ctx), now);
        return {};
      },
    },
    nameParams: { "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" },
    resultMethods: ["tools/call"],
    validateResult: validateCreateTaskResult,
    attach(given) {
      if (host) throw new Error("a task store serves one dispatcher");
      host = given;
    },
    get size() {
      return table.size;
    },
    async run(ctx, work, runOptions = {}) {
      const context = { host: attached(), table, now, maxPendingInputs };
      if (!hasCapability(ctx.clientCapabilities, ["extensions", TASKS_EXTENSION]))
        return runWithoutTask(context.host.protocol, ctx, work, runOptions);
      table.sweep();
      const principal = ctx.principal ?? "";
      table.makeRoom(principal);
      const createdAt = now();
      const task = newTaskRecord({
        principal,
        method: ctx.method,
        capabilities: ctx.clientCapabilities,
        createdAt,
        ttlMs: Math.min(positiveInteger(runOptions.ttlMs, "ttlMs", defaultTtl), maxTtl),
        pollIntervalMs: positiveInteger(runOptions.pollIntervalMs, "pollIntervalMs", defaultPoll),
      });
      // Stored before the handle is returned: tasks/get finds it at once ("Task Creation").
      table.add(task);
      startTaskWork(task, work, context);
      return { resultType: "task", ...taskFields(task), [EXTENSION_RESULT]: TASKS_EXTENSION };
    },
  };
  return store;
}

/**
 * Serves a request that did not declare the extension: runs `work` as the request's own
 * handler, or refuses with -32021 when it needs a task.
 */
function runWithoutTask<R>(
  protocol: ProtocolDescriptor,
  ctx: Pick<RequestContext, "clientCapabilities" | "signal">,
  work: (task: TaskControl) => R,
  runOptions: RunOptions,
): R {
  // "If a server is unable to service a request ... without returning CreateTaskResult,
  // the server MUST return ... -32021".
  if (runOptions.required) requireClientCapability(protocol, ctx, ["extensions", TASKS_EXTENSION]);
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

/** tasks/get's answer: the task with its status' payload (DetailedTask). */
function detailedTask(task: TaskRecord): object {
  const base = taskFields(task);
  if (task.status === "input_required")
    return { ...base, inputRequests: Object.fromEntries(task.pending) };
  if (task.status === "completed") return { ...base, result: task.result };
  if (task.status === "failed") return { ...base, error: task.error };
  return base;
}
