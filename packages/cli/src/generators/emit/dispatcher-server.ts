import type { LoadedRevision } from "../../schema/index.js";
import type { GeneratedFile } from "../print/generated-file.js";
import { RT } from "./runtime-symbols.js";
import type { DispatcherPlan } from "./dispatcher-plan.js";

// defineServer and its tables in dispatcher.ts: the runtime's server/resources.ts, prompts.ts and
// define-server.ts bound to the revision's Resource, ResourceTemplate, Prompt, result and
// context types, so a template's variables and a prompt's arguments are typed from their
// literals and what `read` and `get` return is checked against the revision's results.

/** The schema types and server methods the tables need; undefined when the revision lacks one. */
const NEEDED_TYPES = ["Resource", "ResourceTemplate", "Prompt", "PromptArgument"];
const NEEDED_METHODS = [
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
];

/** Whether the revision's server side has resources and prompts (every revision so far). */
export function servesTables(loaded: LoadedRevision): boolean {
  const served = new Set(
    loaded.protocol.methods
      .filter((m) => m.kind === "request" && m.directions.includes("client->server"))
      .map((m) => m.method),
  );
  return (
    NEEDED_METHODS.every((m) => served.has(m)) &&
    NEEDED_TYPES.every((t) => loaded.model.byName.has(t))
  );
}

/** Writes resourceTemplate, prompt, defineResources, definePrompts and defineServer. */
export function writeDefineServer(w: GeneratedFile, plan: DispatcherPlan): void {
  const { serverOptions } = plan;
  const { server } = RT;
  w.use(server.defineServer, "runtimeDefineServer");
  w.use(server.defineResources, "runtimeDefineResources");
  w.use(server.definePrompts, "runtimeDefinePrompts");
  w.use(server.resourceTemplate, "runtimeResourceTemplate");
  w.use(server.prompt, "runtimePrompt");
  for (const type of [
    server.ListName,
    server.PromptDefinition,
    server.PromptTable,
    server.ResourceTable,
    server.Server,
    server.StaticResource,
    server.TemplateEntry,
    server.TemplateResource,
  ])
    w.use(type);
  w.use(server.PromptEntry, "RuntimePromptEntry");
  w.use(server.ServerParts, "RuntimeServerParts");
  writeTableTypes(w);
  // A function, not a bare object in the entries' array: there a union of entry types gives
  // `read` no contextual type, and its parameters would be implicitly any.
  w.doc("A resource at a fixed URI (a function so that `read` is typed in place).");
  w.line("export function resource(entry: ResourceDefinition): ResourceEntry {");
  w.line("  return entry;");
  w.line("}");
  w.line();
  w.doc("Resources under an RFC 6570 URI template, its variables typed from the template literal.");
  w.line("export function resourceTemplate<const Uri extends string>(");
  w.line(
    `  entry: ${RT.server.TemplateResource.name}<Uri, T.ResourceTemplate, T.Resource, RequestContext, ReadResourceAnswer>,`,
  );
  w.line("): TemplateResourceEntry {");
  w.line("  return runtimeResourceTemplate(entry);");
  w.line("}");
  w.line();
  w.doc("A prompt, its `get`'s arguments typed from its argument declarations.");
  w.line("export function prompt<const Declared extends readonly T.PromptArgument[] = []>(");
  w.line(
    `  entry: ${RT.server.PromptDefinition.name}<Declared, T.Prompt, RequestContext, PromptGetParams, GetPromptAnswer>,`,
  );
  w.line("): PromptEntry {");
  w.line("  return runtimePrompt(entry);");
  w.line("}");
  w.line();
  w.doc(
    "resources/list, resources/templates/list and resources/read served from one table: give it to defineServer, or spread its `handlers` into the ServerHandlers.",
  );
  // No trailing comma after a rest parameter (prettier's layout).
  w.line("export function defineResources(");
  w.line("  entries: readonly ResourceEntry[],");
  w.line("  ...[options]: ListOption<ResourceListFields, { maxUriLength?: number }>");
  w.line(`): ${RT.server.ResourceTable.name}<`);
  w.line("  RequestContext,");
  w.line("  T.Resource,");
  w.line("  T.ResourceTemplate,");
  w.line("  ReadResourceAnswer,");
  w.line("  ResourceListFields");
  w.line("> {");
  w.line("  return runtimeDefineResources(entries, options);");
  w.line("}");
  w.line();
  w.doc(
    "prompts/list and prompts/get served from one table: give it to defineServer, or spread its `handlers` into the ServerHandlers.",
  );
  // No trailing comma after a rest parameter (prettier's layout).
  w.line("export function definePrompts(");
  w.line("  entries: readonly PromptEntry[],");
  w.line("  ...[options]: ListOption<PromptListFields>");
  w.line(
    `): ${RT.server.PromptTable.name}<RequestContext, T.Prompt, GetPromptAnswer, PromptListFields> {`,
  );
  w.line("  return runtimeDefinePrompts(entries, options);");
  w.line("}");
  w.line();
  w.doc(
    "What defineServer assembles: the tables, and handlers of other methods mixed in as they are.",
  );
  w.block(
    "export type ServerParts = RuntimeServerParts<RequestContext> & {",
    () => {
      w.line('tools?: Required<Pick<ServerHandlers, "tools/list" | "tools/call">>;');
      w.line("handlers?: ServerHandlers;");
    },
    "};",
  );
  w.line();
  const options =
    serverOptions.members.length > 0 ? "ServerDispatcherOptions" : "DispatcherOptions";
  w.doc(
    "The dispatcher serving `parts` (tools, resources, prompts, their completions, the capabilities they imply), and the calls that tell clients of changes.",
  );
  w.list(
    `export function defineServer<const L extends ${RT.server.ListName.name} = never>(`,
    [
      "parts: ServerParts & { listChanged?: readonly L[] }",
      serverOptions.required ? `options: ${options}` : `options: ${options} = {}`,
    ],
    "): Server<Dispatcher, L> {",
  );
  w.indented(() => {
    w.list(
      `return runtimeDefineServer<Dispatcher, ${options}, RequestContext, L>(`,
      [
        "{ create: createServerDispatcher, listen: PROTOCOL.wellKnown.subscriptionsListen }",
        "parts",
        "options",
      ],
      ");",
    );
  });
  w.line("}");
}

/** The re-exports and the types the tables are written with (list fields, answers, entries). */
function writeTableTypes(w: GeneratedFile): void {
  const { server } = RT;
  w.line();
  w.reexport(
    [
      server.UriTemplate,
      server.Completer,
      server.ListName,
      server.PromptArguments,
      server.Server,
      server.TemplateVariables,
    ],
    false,
  );
  w.line();
  w.line(
    "type AnswerOf<M extends keyof ServerHandlers> = Awaited<ReturnType<NonNullable<ServerHandlers[M]>>>;",
  );
  w.line('type PromptGetParams = Parameters<NonNullable<ServerHandlers["prompts/get"]>>[0];');
  // Lists' own fields (ttlMs, cacheScope where required), as ToolListFields does for tools.
  w.block(
    "type ListFieldsOf<R, Items extends string> = {",
    () => {
      w.line("[");
      w.line("  K in keyof R as string extends K");
      w.line("    ? never");
      w.line('    : K extends Items | "nextCursor" | "resultType"');
      w.line("      ? never");
      w.line("      : K");
      w.line("]: R[K];");
    },
    "};",
  );
  // Over the print width on one line: prettier's layout of a conditional type.
  w.line("type ListOption<F, Extra = {}> = {} extends F");
  w.line("  ? [options?: { list?: F } & Extra]");
  w.line("  : [options: { list: F } & Extra];");
  w.doc("What a resource's `read` answers: resources/read's result (or input_required).");
  w.line('export type ReadResourceAnswer = AnswerOf<"resources/read">;');
  w.doc("What a prompt's `get` answers: prompts/get's result (or input_required).");
  w.line('export type GetPromptAnswer = AnswerOf<"prompts/get">;');
  w.doc(
    "What resources/list and resources/templates/list answer beside their items (ttlMs and cacheScope where required).",
  );
  w.line('export type ResourceListFields = ListFieldsOf<T.ListResourcesResult, "resources"> &');
  w.line('  ListFieldsOf<T.ListResourceTemplatesResult, "resourceTemplates">;');
  w.doc("What prompts/list answers beside `prompts`.");
  w.line('export type PromptListFields = ListFieldsOf<T.ListPromptsResult, "prompts">;');
  w.doc("A resource at a fixed URI: its definition, as resources/list lists it, and its reader.");
  w.line(
    `export type ResourceDefinition = ${RT.server.StaticResource.name}<T.Resource, RequestContext, ReadResourceAnswer>;`,
  );
  w.doc("What resourceTemplate returns (its variables' type erased).");
  w.line(`export type TemplateResourceEntry = ${RT.server.TemplateEntry.name}<`);
  w.line("  RequestContext,");
  w.line("  T.Resource,");
  w.line("  T.ResourceTemplate,");
  w.line("  ReadResourceAnswer");
  w.line(">;");
  w.doc("An entry of defineResources: what resource or resourceTemplate returns.");
  w.line("export type ResourceEntry = ResourceDefinition | TemplateResourceEntry;");
  w.doc("An entry of definePrompts: what prompt returns.");
  w.line(
    "export type PromptEntry = RuntimePromptEntry<RequestContext, T.Prompt, GetPromptAnswer>;",
  );
  w.line();
}
