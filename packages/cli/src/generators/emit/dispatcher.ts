import type { LoadedRevision } from "../../schema/index.js";
import { runtimeFacts } from "../../schema/runtime-protocol.js";
import type { EmittedFile, Generator } from "./plugin.js";
import { GeneratedFile } from "../print/generated-file.js";
import { RT } from "./runtime-symbols.js";
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
import { writeStraightLineInput } from "./dispatcher-input.js";
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
  const w = new GeneratedFile("dispatcher.ts", runtime);
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
  writeStraightLineInput(w, plan);
  const listResult = toolsListResult(loaded);
  if (listResult) writeDefineTools(w, listResult);
  if (servesTables(loaded)) writeDefineServer(w, plan);
  return w.emit(header);
}

/** What dispatcher.ts imports (the printer sorts them: the order here is free). */
function writeImports(w: GeneratedFile, plan: DispatcherPlan): void {
  const { mrtr } = plan;
  const { server } = RT;
  w.import("./types.js", "* as T", true);
  w.import("./protocol.js", "MESSAGE_VALIDATORS");
  w.import("./methods.js", "ClientRequestMethod", true);
  w.import("./methods.js", "ServerRequestMethod", true);
  w.import("./protocol.js", "PROTOCOL");
  w.use(server.createRouter);
  w.use(server.DispatcherOptions, "RouterOptions");
  w.use(server.HandleContext);
  w.use(server.NotificationContext);
  w.use(server.Promisable);
  w.use(server.RequestContext, "RuntimeRequestContext");
  // Aliased: dispatcher.ts exports its own typed inputRequired and requireClientCapability.
  w.use(server.requireClientCapability, "runtimeRequireClientCapability");
  if (mrtr) w.use(server.inputRequired, "runtimeInputRequired");
  if (plan.eras) {
    w.import("./eras.js", "ERAS");
    w.use(server.createEraDispatcher);
  }
  if (mrtr) {
    w.import("./methods.js", "InputRequestResultMap", true);
    w.use(server.ExtensionResult);
  }
}

/** The file's opening comment, and what it passes on from the runtime for handlers to use. */
function writeReexports(w: GeneratedFile, plan: DispatcherPlan): void {
  const { server, tasks } = RT;
  w.line(
    "// The receiving side of MCP: typed handler interfaces over the runtime's JSON-RPC router,",
  );
  w.line(
    "// which enforces the protocol (envelopes, methods, params, results, versions, capabilities).",
  );
  w.line();
  w.reexport([RT.core.McpError]);
  w.reexport([server.notImplemented]);
  w.reexport([
    server.openRequestState,
    server.openStateFor,
    server.sealRequestState,
    server.sealStateFor,
    server.RequestStateOptions,
    server.StateSecret,
  ]);
  w.line(`export type { ${server.NotificationContext.name}, ${server.Promisable.name} };`);
  if (!plan.mrtr) return;
  // Extensions answer with their own resultType values (a task handle); see runtime/tasks.ts.
  w.reexport([
    tasks.createTaskStore,
    tasks.TASKS_EXTENSION,
    tasks.CreateTaskResult,
    tasks.DetailedTask,
    tasks.RunOptions,
    tasks.Task,
    tasks.TaskControl,
    tasks.TaskStore,
    tasks.TaskStoreOptions,
  ]);
  w.reexport([server.ExtensionResult, server.RouterExtension]);
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
