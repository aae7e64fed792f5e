import { positiveInteger, timeoutOption } from "../core/options.js";
import { modernCall, type ModernCallOptions } from "./modern-call.js";
import { pages } from "./pages.js";
import { callOnSession } from "./session-call.js";
import { createLegacyTask, legacyTask } from "./task-legacy.js";
import { modernTask } from "./task-modern.js";
import { immediateTask, startTask, type TaskRunContext } from "./task-run.js";
import { serverRunsToolTasks, type TaskBounds, type TaskNotices } from "./task-settings.js";
import type { EraConnection } from "./era-connection.js";
import type { LegacyClient } from "./legacy-client.js";
import type { EngineContext } from "./sender-state.js";
import type { TaskHandle, TaskOptions } from "./task-types.js";

// tools/call as a task, in whichever era the server speaks. Modern: the request declares the
// Tasks extension and the server decides ("Capability Negotiation": the client MUST be
// prepared for either result). Legacy (2025-11-25 basic/utilities/tasks, "Tool-Level
// Negotiation"): the client decides, from the server's tasks.requests.tools.call capability
// and the tool's execution.taskSupport in tools/list: "required" MUST be called as a task,
// "optional" MAY (callToolTask does), absent or "forbidden" MUST NOT.

type Json = Record<string, unknown>;
type Options = ModernCallOptions & TaskOptions;

/** When a legacy tools/call is augmented with `task`: for which taskSupport values. */
type Augment = "required" | "optional";

export class TaskCalls {
  /** Sessions whose tools were listed to learn their taskSupport (once each). */
  private readonly listed = new WeakSet<LegacyClient>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly connection: EraConnection,
    private readonly bounds: TaskBounds | undefined,
    private readonly notices: TaskNotices,
  ) {}

  /** Whether tools/call goes through here (tasks are on, and the call is not manual). */
  handles(method: string, opts: Options): boolean {
    return (
      this.bounds !== undefined && method === this.ctx.protocol.wellKnown.toolsCall && !opts.manual
    );
  }

  /** tools/call, awaited to its final result (through a task when the server makes one). */
  async callTool(params: unknown, opts: Options): Promise<Json> {
    return (await this.start(params, opts, "required")).result();
  }

  /** tools/call, as a handle: a task's, or the answer's when the server gave it at once. */
  async start(params: unknown, opts: Options, augment: Augment): Promise<TaskHandle<Json>> {
    const method = this.ctx.protocol.wellKnown.toolsCall!;
    const context = this.runContext(opts); // bad options fail before anything is sent
    const session = await this.connection.connect(opts.signal);
    if (session) return this.onSession(session, params, opts, augment, context);
    let first: Json;
    try {
      first = await modernCall(this.ctx, method, params, { ...opts, acceptTask: !!this.bounds });
    } catch (error) {
      // As in any call: a cached modern verdict the server now contradicts (engine.ts).
      const again = await this.connection.reconnectAfter(error, opts.signal);
      return this.onSession(again, params, opts, augment, context);
    }
    if (first["resultType"] !== "task" || !context) return immediateTask(first);
    const { driver, observed } = modernTask(this.ctx, first, this.notices);
    return startTask(driver, observed, context);
  }

  private async onSession(
    session: LegacyClient,
    params: unknown,
    opts: Options,
    augment: Augment,
    context: TaskRunContext | undefined,
  ): Promise<TaskHandle<Json>> {
    const { ctx } = this;
    const method = ctx.protocol.wellKnown.toolsCall!;
    const plain = params !== null && typeof params === "object" ? (params as Json) : {};
    if (!context || !(await this.augments(session, String(plain["name"]), opts, augment)))
      return immediateTask(await callOnSession(ctx, session, method, params, opts));
    const created = await createLegacyTask(ctx, session, plain, opts);
    if ("result" in created) return immediateTask(created.result);
    const { driver, observed } = legacyTask(ctx, session, created.task, this.notices);
    return startTask(driver, observed, context);
  }

  /** Whether a legacy tools/call of `name` is sent as a task. */
  private async augments(
    session: LegacyClient,
    name: string,
    opts: Options,
    augment: Augment,
  ): Promise<boolean> {
    const { ctx } = this;
    if (!serverRunsToolTasks(session.initializeResult)) return false;
    // Not listed yet: the tools are listed once (a "required" tool called without a task gets
    // -32601, so guessing is no option); tools/list results teach the support (result-check.ts).
    if (ctx.toolTaskSupport.of(name) === undefined && !this.listed.has(session)) {
      this.listed.add(session);
      const list = ctx.protocol.wellKnown.toolsList!;
      const signal = opts.signal ? { signal: opts.signal } : {};
      const send = (page: Json) => callOnSession(ctx, session, list, page, signal);
      for await (const _page of pages(list, {}, ctx.settings.maxPages, send));
    }
    const support = ctx.toolTaskSupport.of(name);
    return support === "required" || (augment === "optional" && support === "optional");
  }

  /** The run of a task this call may create, its options checked (none: tasks are off). */
  private runContext(opts: Options): TaskRunContext | undefined {
    if (!this.bounds) return undefined;
    const { taskTimeoutMs, ttlMs } = opts;
    const timeoutMs =
      taskTimeoutMs === undefined ? undefined : timeoutOption(taskTimeoutMs, "taskTimeoutMs", 1);
    if (ttlMs !== undefined) positiveInteger(ttlMs, "ttlMs", 1);
    return { bounds: this.bounds, notices: this.notices, signal: opts.signal, timeoutMs };
  }
}
