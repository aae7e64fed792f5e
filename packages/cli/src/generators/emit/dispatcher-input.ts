import type { LoadedRevision } from "../../schema/index.js";
import type { InputRequestInfo } from "../../schema/protocol.js";
import { quote, str } from "../print/printer.js";
import type { GeneratedFile } from "../print/generated-file.js";
import type { DispatcherPlan } from "./dispatcher-plan.js";
import { RT } from "./runtime-symbols.js";

// dispatcher.ts's straight-line input (multi round-trip revisions): `withInput(handler,
// options)` gives a handler an `input` whose methods ask the client and resolve with its
// answer, one per input request of the revision, named after its request type
// (CreateMessageRequest -> createMessage), so a draft's new input request needs no change
// here. The runtime's withInput (server/straight-line.ts) replays the handler per round.

/** `createMessage` for CreateMessageRequest; undefined when the name says nothing more. */
function askName(request: InputRequestInfo): string | undefined {
  const base = request.type.replace(/Request$/, "");
  if (base === "" || !/^[A-Za-z][A-Za-z0-9]*$/.test(base)) return undefined;
  const name = base[0]!.toLowerCase() + base.slice(1);
  return name === "ask" ? undefined : name;
}

/** Each input request with its method name on `Input`, and its deprecation if any. */
function asks(loaded: LoadedRevision) {
  const seen = new Set<string>();
  return loaded.protocol.inputRequests.flatMap((request) => {
    const name = askName(request);
    if (name === undefined || seen.has(name)) return [];
    seen.add(name);
    return [{ name, request }];
  });
}

/** The `Input` interface and `withInput`, in revisions with multi round-trip requests. */
export function writeStraightLineInput(w: GeneratedFile, plan: DispatcherPlan): void {
  if (!plan.mrtr || plan.loaded.protocol.inputRequests.length === 0) return;
  const runtimeWithInput = w.use(RT.server.withInput, "runtimeWithInput");
  const options = w.use(RT.server.StraightLineOptions);
  w.import("./methods.js", "InputRequestMethod", true);
  w.import("./methods.js", "InputRequestParamsMap", true);
  const methods = asks(plan.loaded);
  w.line();
  w.doc(
    "What a handler served by withInput asks the client with: each method resolves with the client's answer, checked as its result.",
  );
  w.block("export interface Input {", () => {
    w.doc("Asks the client with any input request of this revision.");
    w.line("ask<M extends InputRequestMethod>(");
    w.line("  method: M,");
    w.line("  params: InputRequestParamsMap[M],");
    w.line("): Promise<InputRequestResultMap[M]>;");
    for (const { name, request } of methods) {
      const what = `Asks \`${request.method}\` (${request.type}).`;
      if (request.deprecated === undefined) w.doc(what);
      else w.docLines([what, `@deprecated ${request.deprecated}`]);
      const method = quote(request.method);
      w.line(`${name}(`);
      w.line(`  params${request.paramsOptional ? "?" : ""}: InputRequestParamsMap[${method}],`);
      w.line(`): Promise<InputRequestResultMap[${method}]>;`);
    }
  });
  w.line();
  w.docLines([
    "Serves a handler that awaits the client's input as ordinary calls (`await input.elicit(...)`), in every era: a round that meets an unanswered ask answers input_required, and the client's retry runs the handler again with the answers so far (sealed into requestState with `options.secret`).",
    "Code before an ask runs again on each later round (its notifications are not sent twice): keep it idempotent; an ask that differs on replay is an error. See the guide's input page.",
  ]);
  const served = "(args: Args, ctx: RequestContext) => Promise<Result | T.InputRequiredResult>";
  w.line("export function withInput<Args, Result>(");
  w.line("  handler: (args: Args, ctx: RequestContext, input: Input) => Promise<Result>,");
  w.line(`  options: ${options},`);
  w.line(`): ${served} {`);
  w.line(`  return ${runtimeWithInput}<Args, Result, RequestContext, T.InputRequiredResult>(`);
  w.line("    PROTOCOL,");
  w.line("    (args, ctx, ask) =>");
  w.line("      handler(args, ctx, {");
  w.line("        ask: (method, params) => ask(method, params) as never,");
  for (const { name, request } of methods)
    w.line(`        ${name}: (params) => ask(${str(request.method)}, params) as never,`);
  w.line("      }),");
  w.line("    options,");
  w.line("  );");
  w.line("}");
}
