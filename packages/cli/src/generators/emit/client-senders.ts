import type { LoadedRevision } from "../../schema/index.js";
import type { Direction, MethodInfo } from "../../schema/protocol.js";
import { paramsAllOptional, Resolver } from "../../schema/resolve.js";
import {
  notificationFunctionName,
  RESERVED_CLIENT_MEMBERS,
  requestFunctionName,
  uniqueNames,
} from "./names.js";
import { legacyCalls, writeLegacyCallMembers } from "./client-legacy-calls.js";
import { prettierKey, type CodeWriter, type Value } from "../print/printer.js";
import { WELL_KNOWN_METHODS } from "../../schema/runtime-protocol.js";
import { RT } from "./runtime-symbols.js";
import { deprecatedInputs, deprecatedInputsTag } from "./deprecated-inputs.js";

// The sending sides of client.ts (a client's requests to servers, a server's to clients):
// which there are in a revision, and for each its interface, its request map and the factory
// of its typed client over the runtime's engine.

const SENDERS: { name: string; side: string; direction: Direction }[] = [
  { name: "Client", side: "client", direction: "client->server" },
  { name: "ServerRequester", side: "server", direction: "server->client" },
];

/** A list method: its params take a `cursor` and its result gives a `nextCursor`. */
function isPaginated(r: Resolver, m: MethodInfo): boolean {
  // Inline params (`Type["params"]`) name no declaration: not a list method.
  if (!m.params || !m.result || m.params.includes("[")) return false;
  return (
    r.propertyOf(m.params, "cursor") !== undefined &&
    r.propertyOf(m.result, "nextCursor") !== undefined
  );
}

/** The sides that send requests in this revision: interface name, methods and function names (`mcp-gen diff` names them too). */
export function senderSides(loaded: LoadedRevision) {
  const r = new Resolver(loaded.model);
  return SENDERS.map((s) => {
    const requests = loaded.protocol.methods.filter(
      (m) => m.kind === "request" && m.directions.includes(s.direction),
    );
    const notifications = loaded.protocol.methods.filter(
      (m) => m.kind === "notification" && m.directions.includes(s.direction),
    );
    return {
      ...s,
      requests,
      notifications,
      functions: uniqueNames(
        requests.map((m) => m.method),
        requestFunctionName,
      ),
      notificationFunctions: uniqueNames(
        notifications.map((m) => m.method),
        notificationFunctionName,
      ),
      paginated: requests.filter((m) => isPaginated(r, m)).map((m) => m.method),
      optional: new Set(
        requests
          .filter((m) => m.paramsOptional || paramsAllOptional(r, m.params))
          .map((m) => m.method),
      ),
    };
  }).filter((s) => s.requests.length > 0);
}

/** A sending side, as senderSides() gives it. */
export type SenderSide = ReturnType<typeof senderSides>[number];

/** What writing one sending side needs, beside the side itself. */
export interface SenderContext {
  readonly loaded: LoadedRevision;
  readonly older: readonly LoadedRevision[];
  /** Whether the revision has multi round-trip (input_required) requests. */
  readonly mrtr: boolean;
  /** Whether the client speaks every era the output was generated for (eras.ts). */
  readonly eras: boolean;
  /** The result type of a request, as every revision this client speaks answers it. */
  resultOf(m: MethodInfo, direction: Direction): string;
}

/** The function that calls a tool as a task (both eras: task-calls.ts in the runtime). */
const TASK_CALL = "callToolTask";

/**
 * The tools/call method of a side that reaches task-running servers (the client of a
 * stateless revision: the Tasks extension, and 2025-11-25's tasks on legacy sessions), where
 * no method already took the name of its task form.
 */
function taskCallOf(ctx: SenderContext, s: SenderSide, taken: ReadonlySet<string>) {
  if (!ctx.eras || s.direction !== "client->server" || taken.has(TASK_CALL)) return undefined;
  return s.requests.find((m) => m.method === WELL_KNOWN_METHODS.toolsCall);
}

/** The params type of a method (`undefined` when it takes none). */
const paramsType = (m: MethodInfo) => (m.params ? `T.${m.params}` : "undefined");

/** One sending side: its interface, its request map and the factory of its typed client. */
export function writeSenderSide(w: CodeWriter, ctx: SenderContext, s: SenderSide): void {
  const { loaded, older, eras } = ctx;
  const taken = new Set([
    ...s.functions.values(),
    ...s.notificationFunctions.values(),
    ...RESERVED_CLIENT_MEMBERS,
  ]);
  const legacy = eras && s.direction === "client->server" ? legacyCalls(loaded, older, taken) : [];
  const taskCall = taskCallOf(ctx, s, taken);
  w.line();
  w.doc(`What a ${s.side} sends (${s.direction}): one typed function per request method.`);
  w.block(`export interface ${s.name} {`, () => writeSenderMembers(w, ctx, s, legacy, taskCall));
  w.line();
  w.doc(`Params and result of each request a ${s.side} sends.`);
  w.block(`export interface ${s.name}RequestMap {`, () => {
    for (const m of s.requests) {
      w.list(
        `${prettierKey(m.method)}: [`,
        [
          m.paramsOptional && m.params ? `${paramsType(m)} | undefined` : paramsType(m),
          ctx.resultOf(m, s.direction),
        ],
        "];",
      );
    }
  });
  w.line();
  writeSenderFactory(w, ctx, s, legacy, taskCall);
}

/** The members of a side's interface: requests (manual and paged forms), notifications, the rest. */
function writeSenderMembers(
  w: CodeWriter,
  ctx: SenderContext,
  s: SenderSide,
  legacy: ReturnType<typeof legacyCalls>,
  taskCall: MethodInfo | undefined,
): void {
  const result = (m: MethodInfo) => ctx.resultOf(m, s.direction);
  for (const m of s.requests) {
    const fn = s.functions.get(m.method)!;
    const opt = s.optional.has(m.method) ? "?" : "";
    const callParams = `params${opt}: CallParams<${paramsType(m)}>`;
    if (m === taskCall) {
      writeTaskCallMembers(w, fn, callParams, result(m));
    } else {
      w.doc(`\`${m.method}\`${m.deprecated !== undefined ? " (deprecated)" : ""}`);
      w.list(`${fn}(`, [callParams, "options?: CallOptions"], `): Promise<${result(m)}>;`);
    }
    if (m.inputRequired && ctx.mrtr) {
      const manualParams = `params${opt}: ManualCallParams<${paramsType(m)}>`;
      w.list(
        `${fn}(`,
        [manualParams, "options: ManualCallOptions"],
        `): Promise<${result(m)} | T.InputRequiredResult>;`,
      );
    }
    if (s.paginated.includes(m.method)) {
      w.doc(`Every page of \`${m.method}\`, following nextCursor.`);
      w.list(
        `${fn}Pages(`,
        [`params?: CallParams<${paramsType(m)}>`, "options?: CallOptions"],
        `): AsyncGenerator<${result(m)}, void, undefined>;`,
      );
    }
  }
  for (const m of s.notifications) {
    w.doc(`Sends \`${m.method}\`.`);
    w.list(
      `${s.notificationFunctions.get(m.method)!}(`,
      [`params${m.paramsOptional || !m.params ? "?" : ""}: ${paramsType(m)}`],
      "): Promise<void>;",
    );
  }
  writeLegacyCallMembers(w, legacy, ctx.loaded.revision.name);
  w.doc("Any request of this side by method name.");
  const map = `${s.name}RequestMap`;
  w.list(
    `request<M extends keyof ${map}>(`,
    ["method: M", `params: CallParams<${map}[M][0]>`, "options?: CallOptions"],
    `): Promise<${map}[M][1]>;`,
  );
  if (ctx.eras && s.direction === "client->server") {
    w.doc(
      'The era of the server: "modern" (per-request `_meta`) or "legacy" (initialize-based), probed once per transport.',
    );
    w.line('era(): Promise<"modern" | "legacy">;');
  }
  w.line("close(): Promise<void>;");
}

/** tools/call awaited through any task the server makes, and its handle form. */
function writeTaskCallMembers(w: CodeWriter, fn: string, callParams: string, result: string) {
  w.docLines([
    "`tools/call`, resolving to the tool's result: a task the server makes of it (the Tasks",
    'extension; on 2025-11-25 servers, a tool whose taskSupport is "required") is polled to',
    "its end, and its result checked as this method's.",
  ]);
  const { TaskHandle, TaskOptions } = RT.client;
  const options = `options?: CallOptions & ${TaskOptions.name}`;
  w.list(`${fn}(`, [callParams, options], `): Promise<${result}>;`);
  w.docLines([
    "`tools/call` as a task handle: its statuses (`for await`), `result()`, `cancel()`. On",
    '2025-11-25 servers a tool whose taskSupport is "optional" is made a task too; an',
    "answer the server gives at once is a handle without a task.",
  ]);
  w.list(`${TASK_CALL}(`, [callParams, options], `): Promise<${TaskHandle.name}<${result}>>;`);
}

/** `create<Side>()`: the runtime's engine, given the side's shape and typed as its interface. */
function writeSenderFactory(
  w: CodeWriter,
  ctx: SenderContext,
  s: SenderSide,
  legacy: ReturnType<typeof legacyCalls>,
  taskCall: MethodInfo | undefined,
): void {
  const shape: Record<string, Value> = {
    functions: Object.fromEntries(s.functions),
    notifications: Object.fromEntries(s.notificationFunctions),
    paginated: s.paginated,
  };
  if (taskCall) shape["taskCall"] = TASK_CALL;
  if (legacy.length > 0) {
    const named = (kind: string) =>
      Object.fromEntries(
        legacy.filter((c) => c.method.kind === kind).map((c) => [c.method.method, c.fn]),
      );
    shape["legacy"] = { functions: named("request"), notifications: named("notification") };
  }
  const what = `A typed client for what a ${s.side} sends.`;
  const deprecated = s.direction === "client->server" ? deprecatedInputs(ctx.loaded) : [];
  if (deprecated.length > 0) {
    // Matches only options whose inputHandlers literal answers a deprecated request.
    w.docLines([what, deprecatedInputsTag("Answers", deprecated)]);
    w.line(`export function create${s.name}(`);
    w.line("  options: SenderOptions & { inputHandlers: DeprecatedInputHandlers },");
    w.line(`): ${s.name};`);
    w.doc(what);
    w.line(`export function create${s.name}(options: SenderOptions): ${s.name};`);
  } else w.doc(what);
  w.block(`export function create${s.name}(options: SenderOptions): ${s.name} {`, () => {
    w.value("const shape = ", shape as Value, ";");
    const args = [
      "PROTOCOL",
      "MESSAGE_VALIDATORS",
      "shape",
      "options as RuntimeSenderOptions",
      ...(ctx.eras && s.direction === "client->server" ? ["ERAS"] : []),
    ];
    // The interface above declares exactly the functions `shape` names: createSender's contract.
    w.list(`return ${RT.client.createSender.name}<${s.name}>(`, args, ");");
  });
}
