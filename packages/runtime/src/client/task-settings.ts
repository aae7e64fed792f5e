import { withCapabilities } from "../core/errors.js";
import { isObject, own, type ProtocolDescriptor } from "../core/protocol.js";
import { timeoutOption } from "../core/options.js";
import { TASKS_EXTENSION } from "../core/tasks-wire.js";
import type { TaskSettingsOptions } from "./task-types.js";

// The client's task settings, checked once when a sender is made: the polling bounds and the
// overall timeout, and the capability a modern request declares. Also what the engine learns
// of tools (tools/list's execution.taskSupport) and hears about tasks (status notifications).

type Json = Record<string, unknown>;

/** Status notifications: 2025-11-25's (basic/utilities/tasks) and the Tasks extension's. */
const STATUS_NOTIFICATIONS = new Set(["notifications/tasks/status", "notifications/tasks"]);

/** The polling bounds of every task of one sender. */
export interface TaskBounds {
  readonly minPollIntervalMs: number;
  readonly maxPollIntervalMs: number;
  readonly defaultPollIntervalMs: number;
  readonly timeoutMs: number;
}

/** `tasks` checked (a TypeError for a bad bound); undefined: `tasks: false`, no task support. */
export function taskBounds(
  options: TaskSettingsOptions | false | undefined,
): TaskBounds | undefined {
  if (options === false) return undefined;
  const given = options ?? {};
  const min = timeoutOption(given.minPollIntervalMs, "tasks.minPollIntervalMs", 100);
  const max = timeoutOption(given.maxPollIntervalMs, "tasks.maxPollIntervalMs", 30_000);
  if (max < min)
    throw new TypeError(
      `tasks.maxPollIntervalMs (${max}) is below tasks.minPollIntervalMs (${min})`,
    );
  const fallback = timeoutOption(given.defaultPollIntervalMs, "tasks.defaultPollIntervalMs", 1_000);
  return {
    minPollIntervalMs: min,
    maxPollIntervalMs: max,
    defaultPollIntervalMs: Math.min(Math.max(fallback, min), max),
    timeoutMs: timeoutOption(given.timeoutMs, "tasks.timeoutMs", 3_600_000),
  };
}

/**
 * The capabilities a modern request declares: with tasks, the Tasks extension ("Capability
 * Negotiation": the client includes it in its per-request capabilities; the server then MAY
 * answer a supported request with a CreateTaskResult, which this client handles).
 */
export function metaCapabilities(
  protocol: ProtocolDescriptor,
  capabilities: Json,
  bounds: TaskBounds | undefined,
): Json {
  if (!bounds || protocol.wellKnown.toolsCall === null || !protocol.features.perRequestVersion)
    return capabilities;
  const extension = { path: ["extensions", TASKS_EXTENSION], leaf: "object" as const };
  return withCapabilities(capabilities, [extension]);
}

/** The next poll's delay: the server's suggestion (or the default), within the bounds. */
export function pollDelay(bounds: TaskBounds, suggested: number | undefined): number {
  const ms = suggested ?? bounds.defaultPollIntervalMs;
  return Math.min(Math.max(ms, bounds.minPollIntervalMs), bounds.maxPollIntervalMs);
}

/** What tools/list said of each tool's task support (2025-11-25 `execution.taskSupport`). */
export class ToolTaskSupport {
  private readonly support = new Map<string, string>();

  /** Remembers each listed tool's taskSupport ("forbidden" when absent: the spec's default). */
  learn(protocol: ProtocolDescriptor, method: string, result: Json): void {
    if (method !== protocol.wellKnown.toolsList || !Array.isArray(result["tools"])) return;
    for (const tool of result["tools"]) {
      if (!isObject(tool) || typeof tool["name"] !== "string") continue;
      const execution = isObject(tool["execution"]) ? tool["execution"] : {};
      const value = own(execution, "taskSupport");
      this.support.set(tool["name"], typeof value === "string" ? value : "forbidden");
    }
  }

  /** The tool's taskSupport; undefined: no tools/list has named it. */
  of(name: string): string | undefined {
    return this.support.get(name);
  }
}

/** Wakes the polling of a task early when a status notification names it. */
export class TaskNotices {
  private readonly listeners = new Map<string, () => void>();

  /** Routes `notification` to the task it names; a hint only (requestors MUST NOT rely on them). */
  route(notification: Json): void {
    if (!STATUS_NOTIFICATIONS.has(notification["method"] as string)) return;
    const params = isObject(notification["params"]) ? notification["params"] : {};
    const taskId = params["taskId"];
    if (typeof taskId === "string") this.nudge(taskId);
  }

  /** Wakes the polling of `taskId` now (something says its status changed). */
  nudge(taskId: string): void {
    this.listeners.get(taskId)?.();
  }

  /** Calls `nudge` on each notification about `taskId` until the returned function is called. */
  watch(taskId: string, nudge: () => void): () => void {
    this.listeners.set(taskId, nudge);
    return () => {
      if (this.listeners.get(taskId) === nudge) this.listeners.delete(taskId);
    };
  }
}

/** Capabilities of a legacy server's initialize: whether it runs tools/call as tasks. */
export function serverRunsToolTasks(initializeResult: Json): boolean {
  const tasks = isObject(initializeResult["capabilities"])
    ? initializeResult["capabilities"]["tasks"]
    : undefined;
  const requests = isObject(tasks) ? tasks["requests"] : undefined;
  const tools = isObject(requests) ? requests["tools"] : undefined;
  return isObject(tools) && tools["call"] !== undefined;
}
