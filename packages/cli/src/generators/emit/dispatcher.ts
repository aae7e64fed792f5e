import type { LoadedRevision } from "../../schema/index.js";
import { runtimeFacts } from "../../schema/runtime-protocol.js";
import type { EmittedFile, Generator } from "./plugin.js";
import { CodeWriter, str } from "../print/printer.js";
import type { RuntimeImports } from "./runtime.js";
import { planDispatcher, receivingSides, type DispatcherPlan } from "./dispatcher-plan.js";
import {
  writeDispatcherInterface,
  writeHandlerTypes,
  writeOptionTypes,
} from "./dispatcher-shapes.js";
import {
  writeCreateDispatcher,
  writeHandlerHelpers,
  writeHandlersInterface,
} from "./dispatcher-handlers.js";
import { toolsListResult, writeDefineTools } from "./dispatcher-tools.js";
import { servesTables, writeDefineServer } from "./dispatcher-server.js";
import { handlersFile } from "./dispatcher-skeleton.js";
import { httpServerFile } from "./dispatcher-http.js";

// dispatcher.ts: the typed face of the runtime's router for one revision (handler
// interfaces per receiving side, the request context bound to the revision's types), and
// handlers.ts, a skeleton written once. dispatcher.ts is written in steps, one per part of
// the file, each in a dispatcher-*.ts module and all reading one DispatcherPlan.

function dispatcherFile(
  loaded: LoadedRevision,
  header: string,
  older: readonly LoadedRevision[],
  runtime: RuntimeImports,
): EmittedFile {
  const plan = planDispatcher(loaded, older, runtime);
  const w = new CodeWriter();
  writeImports(w, plan);
  writeReexports(w, plan);
  writeHandlerTypes(w, plan);
  writeOptionTypes(w, plan);
  writeDispatcherInterface(w, plan);
  for (const side of receivingSides(loaded)) {
    writeHandlersInterface(w, plan, side);
    writeCreateDispatcher(w, plan, side);
  }
  writeHandlerHelpers(w, plan);
  const listResult = toolsListResult(loaded);
  if (listResult) writeDefineTools(w, listResult, plan.server);
  if (servesTables(loaded)) writeDefineServer(w, plan);
  const code = w.toString(header);
  return { path: "dispatcher.ts", kind: "generated", code, preformatted: w.exact };
}

/** What dispatcher.ts imports (the printer sorts them: the order here is free). */
function writeImports(w: CodeWriter, plan: DispatcherPlan): void {
  const { server, mrtr } = plan;
  w.import("./types.js", "* as T", true);
  w.import("./protocol.js", "MESSAGE_VALIDATORS");
  w.import("./protocol.js", "PROTOCOL");
  w.import(server, "createRouter");
  w.import(server, "DispatcherOptions as RouterOptions", true);
  w.import(server, "HandleContext", true);
  w.import(server, "NotificationContext", true);
  w.import(server, "Promisable", true);
  w.import(server, "RequestContext as RuntimeRequestContext", true);
  // Aliased: dispatcher.ts exports its own typed inputRequired and requireClientCapability.
  w.import(server, "requireClientCapability as runtimeRequireClientCapability");
  if (mrtr) w.import(server, "inputRequired as runtimeInputRequired");
  if (plan.eras) {
    w.import("./eras.js", "ERAS");
    w.import(server, "createEraDispatcher");
  }
  if (mrtr) {
    w.import("./methods.js", "InputRequestResultMap", true);
    w.import(server, "ExtensionResult", true);
  }
}

/** The file's opening comment, and what it passes on from the runtime for handlers to use. */
function writeReexports(w: CodeWriter, plan: DispatcherPlan): void {
  const { runtime, server } = plan;
  w.line(
    "// The receiving side of MCP: typed handler interfaces over the runtime's JSON-RPC router,",
  );
  w.line(
    "// which enforces the protocol (envelopes, methods, params, results, versions, capabilities).",
  );
  w.line();
  w.line(`export { McpError } from ${str(runtime.from("core"))};`);
  w.line(`export { notImplemented } from ${str(server)};`);
  w.line("export {");
  w.line("  openRequestState,");
  w.line("  openStateFor,");
  w.line("  sealRequestState,");
  w.line("  sealStateFor,");
  w.line("  type RequestStateOptions,");
  w.line("  type StateSecret,");
  w.line(`} from ${str(server)};`);
  w.line("export type { NotificationContext, Promisable };");
  if (!plan.mrtr) return;
  // Extensions answer with their own resultType values (a task handle); see the runtime's extensions/tasks/.
  w.list(
    "export {",
    [
      "createTaskStore",
      "TASKS_EXTENSION",
      "type CreateTaskResult",
      "type DetailedTask",
      "type RunOptions",
      "type Task",
      "type TaskControl",
      "type TaskStore",
      "type TaskStoreOptions",
    ],
    `} from ${str(runtime.from("tasks"))};`,
    true,
  );
  w.line(`export type { ExtensionResult, RouterExtension } from ${str(server)};`);
}

/** dispatcher.ts (always regenerated), handlers.ts (a skeleton, written only when missing), http-server.ts. */
export const dispatcherGenerator: Generator = {
  name: "dispatcher",
  description:
    "dispatcher.ts: typed handler interfaces over the runtime router; handlers.ts skeleton (once); http-server.ts",
  requires: ["types", "methods", "validators", "protocol", "eras"],
  eras: true,
  runtime({ loaded, auth }) {
    const { features } = runtimeFacts(loaded);
    return [
      "core",
      "server",
      ...(features.mrtr ? (["tasks"] as const) : []),
      // Stateless Streamable HTTP: http-server.ts.
      ...(features.perRequestVersion ? (["fetch", "node/http", "auth"] as const) : []),
      // The JWT verifier imports jose: only when asked (config `auth`, --auth).
      ...(features.perRequestVersion && auth ? (["auth/verify"] as const) : []),
    ];
  },
  emit(ctx) {
    const { loaded, header } = ctx;
    const files: EmittedFile[] = [
      dispatcherFile(loaded, header, ctx.legacy, ctx.runtime),
      handlersFile(loaded),
    ];
    // Stateless Streamable HTTP: requests carry their protocol version in _meta.
    if (runtimeFacts(loaded).features.perRequestVersion) files.push(httpServerFile(ctx.runtime));
    return files;
  },
};
