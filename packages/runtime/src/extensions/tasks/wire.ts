import { own, type ValidationError } from "../../core/protocol.js";

// The Tasks extension's wire shapes (`io.modelcontextprotocol/tasks`), which the core
// schema does not have: written by hand from ext-tasks schema/draft/schema.ts at commit
// e434597, with the one check the runtime needs of them (a CreateTaskResult it built).

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

/** CreateTaskResult's shape: flat Result & Task, none of DetailedTask's payload fields. */
export function validateCreateTaskResult(result: Record<string, unknown>): ValidationError[] {
  const errors: ValidationError[] = [];
  const check = (ok: boolean, path: string, message: string) => {
    if (!ok) errors.push({ path, message });
  };
  const integer = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
  check(result["resultType"] === "task", "/resultType", 'expected "task"');
  check(typeof result["taskId"] === "string", "/taskId", "expected string");
  check(STATUSES.has(result["status"]), "/status", "expected a task status");
  check(typeof result["createdAt"] === "string", "/createdAt", "expected string");
  check(typeof result["lastUpdatedAt"] === "string", "/lastUpdatedAt", "expected string");
  check(result["ttlMs"] === null || integer(result["ttlMs"]), "/ttlMs", "expected integer or null");
  const poll = own(result, "pollIntervalMs");
  check(poll === undefined || integer(poll), "/pollIntervalMs", "expected integer");
  for (const field of ["result", "error", "inputRequests", "requestState"])
    check(own(result, field) === undefined, `/${field}`, "not allowed on CreateTaskResult");
  return errors;
}
