import { isObject } from "../core/protocol.js";
import { McpProtocolError, TaskCancelledError } from "./errors.js";
import { checkResult } from "./result-check.js";
import { callOnSession } from "./session-call.js";
import type { LegacyClient } from "./legacy-client.js";
import type { EngineContext } from "./sender-state.js";
import type { Observed, TaskDriver } from "./task-run.js";
import type { TaskNotices } from "./task-settings.js";
import { LEGACY_TASK_FIELDS, taskStatus } from "./task-status.js";
import type { CallOptions } from "../core/transport.js";

// 2025-11-25's experimental tasks on a legacy session (basic/utilities/tasks): a tools/call
// augmented with `task` is answered with a CreateTaskResult ({ task }); the client polls
// tasks/get at the task's pollInterval, and gets the result with tasks/result once the task is
// terminal. Input goes the legacy way: on input_required the client calls tasks/result early,
// on whose stream the server sends its elicitation/sampling requests ("Input Required Status":
// the requestor SHOULD preemptively call tasks/result), answered by the session's input
// handlers like any server request; polling goes on meanwhile.

type Json = Record<string, unknown>;

/** What a task-augmented tools/call answered: a task, or (a server ignoring `task`) the result. */
export type LegacyCreated = { task: Json } | { result: Json };

/** A task-augmented tools/call on `session`. */
export function createLegacyTask(
  ctx: EngineContext,
  session: LegacyClient,
  params: Json,
  opts: CallOptions & { ttlMs?: number },
): Promise<LegacyCreated> {
  const method = ctx.protocol.wellKnown.toolsCall!;
  const task = opts.ttlMs === undefined ? {} : { ttl: opts.ttlMs };
  return callOnSession(ctx, session, method, { ...params, task }, opts, (raw) => {
    // A receiver that does not run this request as a task answers it normally ("Task Support
    // and Handling"): that is the result.
    if (!isObject(raw["task"])) return { result: checkResult(ctx, method, raw, session.era) };
    return { task: checkedTask(ctx, session, method, raw["task"]) };
  });
}

/** A Task, checked: GetTaskResult is Result & Task, so a Task is valid as one. */
function checkedTask(ctx: EngineContext, session: LegacyClient, method: string, task: Json): Json {
  if (ctx.settings.validateResults) {
    const checked = session.era!.validators.validateMethodResult("tasks/get", task);
    if (!checked.ok) throw new McpProtocolError(`invalid task answer to ${method}`, checked.errors);
  }
  return task;
}

/** The driver that follows the task `created` on `session`. */
export function legacyTask(
  ctx: EngineContext,
  session: LegacyClient,
  created: Json,
  notices: TaskNotices,
): { driver: TaskDriver; observed: Observed } {
  const taskId = created["taskId"] as string;
  const toolsCall = ctx.protocol.wellKnown.toolsCall!;
  const onNotification = (n: never) => notices.route(n);
  function call<R = Json>(method: string, opts: CallOptions, check?: (raw: Json) => R) {
    return callOnSession<R>(ctx, session, method, { taskId }, { ...opts, onNotification }, check);
  }
  // tasks/result returns exactly what tools/call would have ("Result Retrieval"): checked as that.
  const payload = (raw: Json) => checkResult(ctx, toolsCall, raw, session.era);
  // The tasks/result sent early (input_required): its answer is the result, and wakes the
  // polling (the next tasks/get finds the task terminal). Failed or timed out, it is dropped:
  // the next input_required sends another, and finish() asks again.
  let early: Promise<void> | undefined;
  let earlyResult: Json | undefined;
  const fetchResult = (signal: AbortSignal, timeoutMs?: number) =>
    call("tasks/result", { signal, ...(timeoutMs ? { timeoutMs } : {}) }, payload);
  return {
    observed: { task: taskStatus(created, LEGACY_TASK_FIELDS) },
    driver: {
      taskId,
      async poll(signal) {
        const raw = await call("tasks/get", { signal });
        if (raw["taskId"] !== taskId)
          throw new McpProtocolError(`tasks/get for ${taskId} answered about another task`);
        return { task: taskStatus(raw, LEGACY_TASK_FIELDS) };
      },
      needInput(_observed, signal) {
        // It blocks until the task is terminal: it may wait as long as a request may.
        early ??= fetchResult(signal, ctx.settings.maxTimeout).then(
          (result) => void ((earlyResult = result), notices.nudge(taskId)),
          () => void ((early = undefined), notices.nudge(taskId)),
        );
        return Promise.resolve();
      },
      async finish(observed, signal) {
        const { status, statusMessage } = observed.task;
        if (status === "cancelled") throw new TaskCancelledError(taskId, statusMessage);
        // The early tasks/result answers once the task is terminal: it is the result.
        await early;
        if (earlyResult) return earlyResult;
        // For a failed task it throws the request's JSON-RPC error, or returns its isError result.
        return fetchResult(signal);
      },
      async cancel() {
        // CancelTaskResult is the Task, cancelled ("Cancelling Tasks").
        return taskStatus(await call("tasks/cancel", {}), LEGACY_TASK_FIELDS);
      },
    },
  };
}
