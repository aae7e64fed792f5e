import { own, type ValidationError } from "./protocol.js";

// The Tasks extension's wire shapes (`io.modelcontextprotocol/tasks`), which the core
// schema does not have: written by hand from ext-tasks schema/draft/schema.ts at commit
// e434597, with the one check the runtime needs of them (a CreateTaskResult it built).

/** The extension's identifier ("Extension Identifier"). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Task: what every task answer carries. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  lastUpdatedAt: string;
  /** Integer milliseconds from creation; null for unlimited (never, here). */
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** CreateTaskResult = Result & Task, with `resultType: "task"`. */
export type CreateTaskResult = Task & { resultType: "task"; _meta?: Record<string, unknown> };

/** DetailedTask: a Task with its status' payload (tasks/get, notifications/tasks). */
export type DetailedTask =
  | (Task & { status: "working" | "cancelled" })
  | (Task & { status: "input_required"; inputRequests: Record<string, InputRequest> })
  | (Task & { status: "completed"; result: Record<string, unknown> })
  | (Task & { status: "failed"; error: { code: number; message: string; data?: unknown } });

/** An entry of InputRequests (the core schema's multi round-trip input request). */
export interface InputRequest {
  method: string;
  params?: unknown;
}

const STATUSES: ReadonlySet<unknown> = new Set([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);

type Check = (ok: boolean, path: string, message: string) => void;

const integer = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The fields every Task carries (CreateTaskResult, tasks/get, notifications/tasks). */
function checkTaskFields(result: Record<string, unknown>, check: Check): void {
  check(typeof result["taskId"] === "string", "/taskId", "expected string");
  check(STATUSES.has(result["status"]), "/status", "expected a task status");
  const message = own(result, "statusMessage");
  check(message === undefined || typeof message === "string", "/statusMessage", "expected string");
  check(typeof result["createdAt"] === "string", "/createdAt", "expected string");
  check(typeof result["lastUpdatedAt"] === "string", "/lastUpdatedAt", "expected string");
  check(result["ttlMs"] === null || integer(result["ttlMs"]), "/ttlMs", "expected integer or null");
  const poll = own(result, "pollIntervalMs");
  check(poll === undefined || integer(poll), "/pollIntervalMs", "expected integer");
}

function collect(body: (check: Check) => void): ValidationError[] {
  const errors: ValidationError[] = [];
  body((ok, path, message) => {
    if (!ok) errors.push({ path, message });
  });
  return errors;
}

/** CreateTaskResult's shape: flat Result & Task, none of DetailedTask's payload fields. */
export function validateCreateTaskResult(result: Record<string, unknown>): ValidationError[] {
  return collect((check) => {
    check(result["resultType"] === "task", "/resultType", 'expected "task"');
    checkTaskFields(result, check);
    for (const field of ["result", "error", "inputRequests", "requestState"])
      check(own(result, field) === undefined, `/${field}`, "not allowed on CreateTaskResult");
  });
}

/**
 * tasks/get's result (Result & DetailedTask): the Task fields and the payload its status
 * carries ("Task Polling", Response 1-5): inputRequests, the result, or the JSON-RPC error.
 */
export function validateDetailedTask(result: Record<string, unknown>): ValidationError[] {
  return collect((check) => {
    checkTaskFields(result, check);
    const status = result["status"];
    if (status === "input_required")
      check(isRecord(result["inputRequests"]), "/inputRequests", "expected object");
    if (status === "completed") check(isRecord(result["result"]), "/result", "expected object");
    if (status === "failed") {
      const error = result["error"];
      check(isRecord(error), "/error", "expected object");
      if (isRecord(error)) {
        check(Number.isSafeInteger(error["code"]), "/error/code", "expected integer");
        check(typeof error["message"] === "string", "/error/message", "expected string");
      }
    }
  });
}
