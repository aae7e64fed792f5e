import { McpError } from "../core/errors.js";
import { isObject } from "../core/protocol.js";
import { validateCreateTaskResult, validateDetailedTask } from "../core/tasks-wire.js";
import { McpProtocolError, TaskCancelledError } from "./errors.js";
import { fulfilInputRequests } from "./input.js";
import { checkResult } from "./result-check.js";
import { sendNegotiated, senderMeta } from "./wire.js";
import type { EngineContext } from "./sender-state.js";
import type { Observed, TaskDriver } from "./task-run.js";
import type { TaskNotices } from "./task-settings.js";
import { taskStatus } from "./task-status.js";

// The Tasks extension on the client (ext-tasks specification/draft/tasks.md): a tools/call
// the server answered with a CreateTaskResult (resultType "task") is followed with tasks/get
// at the server's pollIntervalMs; its input requests are answered with tasks/update by the
// same input handlers that answer input_required; tasks/cancel ends it; the result comes
// inlined in the terminal tasks/get.

type Json = Record<string, unknown>;

/** A CreateTaskResult, checked (an invalid one is the server's protocol error). */
export function createdTask(method: string, result: Json): Json {
  const errors = validateCreateTaskResult(result);
  if (errors.length > 0) throw new McpProtocolError(`invalid task answer to ${method}`, errors);
  return result;
}

/** The CreateTaskResult's status, and the driver that follows the task on a modern server. */
export function modernTask(
  ctx: EngineContext,
  created: Json,
  notices: TaskNotices,
): { driver: TaskDriver; observed: Observed } {
  const taskId = created["taskId"] as string;
  // Each task request declares the extension too (servers answer -32021 otherwise, "Error
  // Handling"); a status notification on its stream wakes the polling.
  const send = (method: string, params: Json, signal: AbortSignal | undefined) => {
    const meta = senderMeta(ctx, params, {}, undefined);
    const withMeta = meta ? { ...params, _meta: meta } : params;
    const opts = { ...(signal ? { signal } : {}), onNotification: (n: never) => notices.route(n) };
    return sendNegotiated(ctx, method, withMeta, opts, undefined);
  };
  // "Clients SHOULD deduplicate inputRequests keys across consecutive polls": keys are unique
  // over the task's life, so a key answered once is never answered again.
  const answered = new Set<string>();
  const driver: TaskDriver = {
    taskId,
    async poll(signal) {
      const raw = await send("tasks/get", { taskId }, signal);
      const errors = validateDetailedTask(raw);
      if (errors.length > 0) throw new McpProtocolError("invalid tasks/get result", errors);
      if (raw["taskId"] !== taskId)
        throw new McpProtocolError(`tasks/get for ${taskId} answered about another task`);
      return observedOf(raw);
    },
    async needInput(observed, signal) {
      const requests = Object.entries(observed.inputRequests ?? {}).filter(
        ([key]) => !answered.has(key),
      );
      if (requests.length === 0) return;
      const { protocol, validators, settings } = ctx;
      const inputResponses = await fulfilInputRequests(
        protocol,
        validators,
        settings.capabilities,
        settings.inputHandlers,
        Object.fromEntries(requests),
        signal,
      );
      await send("tasks/update", { taskId, inputResponses }, signal);
      for (const [key] of requests) answered.add(key);
    },
    finish(observed) {
      const { status, statusMessage } = observed.task;
      if (status === "cancelled") throw new TaskCancelledError(taskId, statusMessage);
      if (status === "failed") {
        const { code, message, data } = observed.error!;
        throw new McpError(code, message, data);
      }
      // The result the request would have returned ("Task Status": completed), checked as one.
      const method = ctx.protocol.wellKnown.toolsCall!;
      return Promise.resolve(checkResult(ctx, method, observed.result!));
    },
    async cancel() {
      await send("tasks/cancel", { taskId }, undefined);
      // An acknowledgement only: the task may still end otherwise ("Task Cancellation").
      return undefined;
    },
  };
  return { driver, observed: { task: taskStatus(created) } };
}

function observedOf(raw: Json): Observed {
  const error = raw["error"];
  return {
    task: taskStatus(raw),
    ...(isObject(raw["inputRequests"]) ? { inputRequests: raw["inputRequests"] } : {}),
    ...(isObject(raw["result"]) ? { result: raw["result"] } : {}),
    ...(isObject(error) ? { error: error as NonNullable<Observed["error"]> } : {}),
  };
}
