import { JSONRPC_ERRORS, McpError } from "../../core/errors.js";
import { checkInputAnswer } from "../../core/elicitation-content.js";
import { type MessageValidators, type ValidationError } from "../../core/protocol.js";
import { $escape } from "../../core/validation.js";
import { setStatus, TERMINAL, type TaskRecord } from "./task-record.js";
import type { InputRequest } from "../../core/tasks-wire.js";

// Mid-task input, both halves: the work asks (`TaskControl.input`, the task goes
// input_required) and the client answers with `tasks/update`, which resolves the asking call
// once every key it asked has its answer.

/**
 * Registers `requests` as the task's outstanding input and waits for their answers. The
 * requests are checked before (by the caller, against the creating request's capabilities).
 */
export function requestInput(
  task: TaskRecord,
  requests: { readonly [key: string]: InputRequest },
  maxPending: number,
  now: () => number,
): Promise<Record<string, unknown>> {
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
    setStatus(task, "input_required", now);
  });
}

/**
 * Takes `responses` (tasks/update's `inputResponses`) as answers to the task's outstanding
 * input, resolving each waiting `input` call whose keys are all answered; -32602 for an
 * answer that is not its method's result.
 */
export function answerInput(
  task: TaskRecord,
  responses: Record<string, unknown>,
  validate: MessageValidators["validateInputResult"],
  now: () => number,
): void {
  const accepted = checkedAnswers(task, responses, validate);
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
    setStatus(task, "working", now);
}

/**
 * Keys not outstanding (never issued, answered, superseded) are ignored ("Task Update
 * Requests"); outstanding ones are checked as their method's result, all before any is used.
 */
function checkedAnswers(
  task: TaskRecord,
  responses: Record<string, unknown>,
  validate: MessageValidators["validateInputResult"],
): [string, unknown][] {
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
  return accepted;
}
