import type { MethodInfo } from "../../schema/protocol.js";
import { prettierKey, quote, str, WIDTH, type CodeWriter } from "../print/printer.js";
import { schemaType } from "./protocol.js";
import { paramsType, type DispatcherPlan, type ReceivingSide } from "./dispatcher-plan.js";
import { RT } from "./runtime-symbols.js";
import { deprecatedInputs, deprecatedInputsTag } from "./deprecated-inputs.js";

// Per receiving side of dispatcher.ts: its handlers interface and the function that routes
// to them through the runtime; then the helpers handlers call (capability checks and, in
// multi round-trip revisions, inputRequired).

/** `export interface ServerHandlers`: a function per request method, optional ones per notification. */
export function writeHandlersInterface(
  w: CodeWriter,
  plan: DispatcherPlan,
  side: ReceivingSide,
): void {
  const { mrtr } = plan;
  // Only the server's requests come from clients of several revisions.
  const params = (m: MethodInfo) =>
    paramsType(m, side.direction === "client->server" ? (plan.missing.get(m.method) ?? []) : []);
  w.line();
  w.doc(
    `Handlers for what the ${side.side} receives: one entry per request method, optional ones per notification.`,
  );
  w.block(`export interface ${side.handlers} {`, () => {
    for (const m of side.requests) {
      const notes = `${m.inputRequired && mrtr ? ": may answer input_required (see inputRequired())" : ""}${m.deprecated !== undefined ? " (deprecated)" : ""}`;
      w.doc(`\`${m.method}\`${notes}`);
      const result = `HandlerResult<T.${m.result}>${m.inputRequired && mrtr ? " | T.InputRequiredResult" : ""}${mrtr ? ` | ${RT.server.ExtensionResult.name}` : ""}`;
      w.list(
        `${prettierKey(m.method)}?: (`,
        [`params: ${params(m)}`, "ctx: RequestContext"],
        `) => ${RT.server.Promisable.name}<${result}>;`,
      );
    }
    for (const m of side.notifications) {
      w.list(
        `${prettierKey(m.method)}?: (`,
        [`params: ${params(m)}`, `ctx: ${RT.server.NotificationContext.name}`],
        `) => ${RT.server.Promisable.name}<void>;`,
      );
    }
  });
}

/**
 * `createServerDispatcher` (or the client's): the runtime's router, or for a server of
 * several eras its era dispatcher, over the typed handlers. The server's overloads require
 * what server/discover needs unless the handlers answer it.
 */
export function writeCreateDispatcher(
  w: CodeWriter,
  plan: DispatcherPlan,
  side: ReceivingSide,
): void {
  const { serverOptions } = plan;
  w.line();
  w.doc(`Routes what a ${side.side} receives (${side.direction}) to \`handlers\`.`);
  const create = `export function create${side.name}Dispatcher(`;
  const server = serverOptions.members.length > 0 && side.direction === "client->server";
  if (server && serverOptions.required) {
    // Required unless the server answers server/discover itself.
    const discover = quote(plan.facts.wellKnown.discover!);
    const own = `${side.handlers} & { ${discover}: NonNullable<${side.handlers}[${discover}]> }`;
    w.list(create, [`handlers: ${own}`, "options?: DispatcherOptions"], "): Dispatcher;");
    w.list(
      create,
      [`handlers: ${side.handlers}`, "options: ServerDispatcherOptions"],
      "): Dispatcher;",
    );
  }
  const options =
    server && !serverOptions.required
      ? "options: ServerDispatcherOptions = {}"
      : "options: DispatcherOptions = {}";
  w.list(create, [`handlers: ${side.handlers}`, options], "): Dispatcher {");
  w.indented(() => {
    // No casts: the runtime takes any table of handlers keyed by its own methods (HandlerTable,
    // so `toString` is one more method), and its Answer type parameter is inferred from the
    // Dispatcher returned here (the runtime builds only this revision's envelopes).
    const args = ["handlers", "options as RouterOptions"];
    if (plan.eras && side.direction === "client->server")
      w.list(`return ${RT.server.createEraDispatcher.name}(`, ["ERAS", ...args], ");");
    else
      w.list(
        `return ${RT.server.createRouter.name}(`,
        ["PROTOCOL", "MESSAGE_VALIDATORS", str(side.direction), ...args],
        ");",
      );
  });
  w.line("}");
}

/** CapabilityPath and requireClientCapability; inputRequired in multi round-trip revisions. */
export function writeHandlerHelpers(w: CodeWriter, plan: DispatcherPlan): void {
  const { loaded } = plan;
  w.line();
  w.doc(
    'A client capability as a path into ClientCapabilities: "elicitation" or ["sampling", "tools"].',
  );
  w.line(
    `export type CapabilityPath = keyof ${schemaType(loaded, "ClientCapabilities", "Record<string, unknown>")} | readonly string[];`,
  );
  w.line();
  w.doc("Throws the error for a capability this request did not declare.");
  w.block(
    "export function requireClientCapability(ctx: RequestContext, capability: CapabilityPath): void {",
    () => {
      w.line(
        "runtimeRequireClientCapability(PROTOCOL, ctx, capability as string | readonly string[]);",
      );
    },
  );
  if (!plan.mrtr) return;
  w.line();
  const what =
    "Builds the interim answer of a multi round-trip request; refuses input the request's client capabilities do not declare.";
  writeDeprecatedInputRequired(w, plan, what);
  w.doc(what);
  w.block(
    "export function inputRequired(",
    () => {
      w.line("ctx: RequestContext,");
      w.line(
        `input: { inputRequests?: ${schemaType(loaded, "InputRequests", "{}")}; requestState?: string },`,
      );
    },
    "): T.InputRequiredResult {",
  );
  w.line("  return runtimeInputRequired(PROTOCOL, ctx, input) as T.InputRequiredResult;");
  w.line("}");
}

/**
 * inputRequired's `@deprecated` overload (deprecated-inputs.ts): it matches when the
 * `inputRequests` literal asks a request the revision deprecates; a record of any key (a
 * value of the wide type) does not, so only code that names such a request is flagged.
 */
function writeDeprecatedInputRequired(w: CodeWriter, plan: DispatcherPlan, what: string): void {
  const deprecated = deprecatedInputs(plan.loaded);
  if (deprecated.length === 0) return;
  const methods = deprecated.map((r) => quote(r.method)).join(" | ");
  const requests = schemaType(plan.loaded, "InputRequests", "{}");
  w.doc("The input requests this revision deprecates.");
  const oneLine = `type DeprecatedInputRequest = Extract<T.InputRequest, { method: ${methods} }>;`;
  // Laid out as prettier lays out a type argument list too wide for one line.
  if (oneLine.length <= WIDTH) w.line(oneLine);
  else {
    w.line("type DeprecatedInputRequest = Extract<");
    w.line("  T.InputRequest,");
    w.line(`  { method: ${methods} }`);
    w.line(">;");
  }
  w.line();
  w.doc(
    "`unknown` when `R` (written out, not a record of any key) asks a deprecated input request.",
  );
  w.line("type AsksDeprecated<R> = string extends keyof R");
  w.line("  ? never");
  w.line("  : [Extract<R[keyof R], DeprecatedInputRequest>] extends [never]");
  w.line("    ? never");
  w.line("    : unknown;");
  w.line();
  w.docLines([what, deprecatedInputsTag("Asks", deprecated)]);
  w.line(`export function inputRequired<R extends ${requests}>(`);
  w.line("  ctx: RequestContext,");
  w.line("  input: { inputRequests: R & AsksDeprecated<R>; requestState?: string },");
  w.line("): T.InputRequiredResult;");
  w.doc(what);
  w.line("export function inputRequired(");
  w.line("  ctx: RequestContext,");
  w.line(`  input: { inputRequests?: ${requests}; requestState?: string },`);
  w.line("): T.InputRequiredResult;");
}
