import type { LoadedRevision } from "../../schema/index.js";
import type { CodeWriter } from "../print/printer.js";
import type { GeneratedFile } from "../print/generated-file.js";
import { RT } from "./runtime-symbols.js";

// defineTools in dispatcher.ts: the runtime's server/tools.ts (tools/list and tools/call from one table,
// arguments checked against inputSchema) bound to the revision's Tool, handler and context types.

/** The tools/list result type's name when the server side serves tools (and the schema names a Tool), else undefined. */
export function toolsListResult(loaded: LoadedRevision): string | undefined {
  const served = (method: string) =>
    loaded.protocol.methods.find(
      (m) => m.method === method && m.kind === "request" && m.directions.includes("client->server"),
    );
  const list = served("tools/list");
  if (!list?.result || !served("tools/call") || !loaded.model.byName.has("Tool")) return undefined;
  return list.result;
}

/** Writes the typed defineTools into dispatcher.ts (ServerHandlers, RequestContext and Promisable are declared there). */
export function writeDefineTools(w: GeneratedFile, listResult: string): void {
  const { server } = RT;
  // Aliased: dispatcher.ts exports its own typed defineTools.
  w.use(server.defineTools, "runtimeDefineTools");
  w.use(server.defineTool, "runtimeDefineTool");
  w.use(server.SchemaValidator);
  w.use(server.TypedInputSchema);
  w.use(server.TypedOutputSchema);
  w.use(server.TypedTool, "RuntimeTypedTool");
  const pick = 'Required<Pick<ServerHandlers, "tools/list" | "tools/call">>';
  w.line();
  w.reexport([server.SchemaValidator]);
  w.line('type ToolsCall = NonNullable<ServerHandlers["tools/call"]>;');
  w.line("type ToolsCallParams = Parameters<ToolsCall>[0];");
  w.line();
  w.doc(
    "What tools/list answers beside `tools`: its fields other than the tools, a cursor and resultType.",
  );
  w.block(
    "export type ToolListFields = {",
    () => {
      w.block(
        "[",
        () => {
          w.line(`K in keyof T.${listResult} as string extends K`);
          w.line("  ? never");
          w.line('  : K extends "tools" | "nextCursor" | "resultType"');
          w.line("    ? never");
          w.line("    : K");
        },
        `]: T.${listResult}[K];`,
      );
    },
    "};",
  );
  w.line();
  w.doc("One tool: its definition, as tools/list lists it, and what tools/call runs for it.");
  w.block("export interface ToolDefinition {", () => {
    w.line("tool: T.Tool;");
    w.doc(
      'Runs the tool on arguments that conform to its inputSchema (unless validate is "handler").',
    );
    w.list(
      "call: (",
      ["args: Record<string, unknown>", "ctx: RequestContext", "params: ToolsCallParams"],
      ") => ReturnType<ToolsCall>;",
    );
  });
  w.line();
  w.doc(
    'defineTools\' options: `validate`, a JSON Schema validator or "handler" (each tool checks its own arguments; required when a tool has a JSON Schema to check), and `list`, required where the revision requires fields there.',
  );
  w.block(
    "export type DefineToolsOptions = {",
    () => w.line(`validate?: ${RT.server.SchemaValidator.name} | "handler";`),
    "} & ({} extends ToolListFields ? { list?: ToolListFields } : { list: ToolListFields });",
  );
  writeDefineTool(w);
  w.line();
  w.doc(
    "tools/list and tools/call served from one table, arguments checked against each inputSchema; spread the result into the server handlers.",
  );
  w.list(
    "export function defineTools(",
    ["definitions: readonly ToolDefinition[]", "options: DefineToolsOptions"],
    `): ${pick} {`,
  );
  // Typed by inference: runtimeDefineTools's Tool, Ctx, Params, Result and ListFields are
  // the revision's (ToolDefinition, DefineToolsOptions), checked against the return type.
  w.line("  return runtimeDefineTools(definitions, options);");
  w.line("}");
}

/** Writes defineTool, the typed entry: the runtime's, bound to the revision's types. */
function writeDefineTool(w: CodeWriter): void {
  // The type arguments, one a line as prettier breaks them (no trailing comma there).
  const bound = ["T.Tool", "RequestContext", "ToolsCallParams", "Awaited<ReturnType<ToolsCall>>"];
  const typeArguments = (indent: string) =>
    [...bound, "In", "Out"].map((t, i, all) => `${indent}${t}${i < all.length - 1 ? "," : ""}`);
  w.line();
  w.doc(
    "A tool as defineTool takes it: `tool` (its schemas a JSON Schema literal or a Standard Schema) and `call`, typed by those schemas.",
  );
  w.line("export type TypedTool<In, Out> = RuntimeTypedTool<");
  for (const line of typeArguments("  ")) w.line(line);
  w.line(">;");
  w.line();
  w.doc(
    "One tool for defineTools, its `call`'s argument and structuredContent types inferred from its inputSchema and outputSchema: JSON Schema literals (checked by `validate`), or Standard Schemas that write JSON Schema (zod 4, ArkType, Valibot with toStandardJsonSchema), which check the values themselves.",
  );
  w.list(
    "export function defineTool<",
    [
      `const In extends ${RT.server.TypedInputSchema.name}`,
      `const Out extends ${RT.server.TypedOutputSchema.name} | undefined = undefined`,
    ],
    ">(entry: TypedTool<In, Out>): ToolDefinition {",
  );
  w.line("  return runtimeDefineTool<");
  for (const line of typeArguments("    ")) w.line(line);
  w.line("  >(entry);");
  w.line("}");
}
