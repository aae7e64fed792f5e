import { createHash } from "node:crypto";
import type { Declaration, Doc, TypeExpr } from "../../schema/model.js";
import { docOf, NameRegistry, pascalCase, SchemaTypes } from "./json-schema-types.js";
import { checkParses } from "../print/parse-check.js";
import { VERSION } from "../emit/package-info.js";
import { writeDeclarations } from "../print/print-types.js";
import { GeneratedFile } from "../print/generated-file.js";
import { docText, lineCommentText, str, type CodeWriter } from "../print/printer.js";
import { formatTypeScript } from "../print/render.js";
import type { PromptEntry, ServerSnapshot, ToolEntry } from "./server-snapshot.js";
import { planTemplates, RESOURCE_FILE_NAMES, writeTemplates } from "./typed-client-resources.js";
import { typedClientRuntimeLines } from "./typed-client-runtime.js";

// `mcp-gen client`: typed functions for one server's tools, prompts and resource templates,
// on top of the generated client (client.ts). A tool's arguments are typed from its
// inputSchema and its result from its outputSchema (json-schema-types.ts); prompt arguments
// are strings; a template's variables are read from its uriTemplate
// (typed-client-resources.ts). Names, descriptions and schema keys come from the server:
// each name becomes an identifier made here (never the server's text as code), and every
// text goes through printer.ts.

/** Where the emitted file finds the generated client, relative to itself. */
export interface TypedClientImports {
  /** The generated client module (`../out/client.js`). */
  client: string;
  /** The generated types module beside it (`../out/types.js`). */
  types: string;
  /**
   * The runtime's client entry as the generated client reaches it (`@mcp-gen/runtime/client`,
   * or the vendored copy): imported only for resource templates (UriTemplate).
   */
  runtime: string;
}

/** Names the emitted file declares itself: no tool's types may take them. */
const FILE_NAMES = [
  "CallOptions",
  "CallToolResult",
  "Client",
  "GetPromptResult",
  "SchemaValidator",
  "ServerPrompts",
  "ServerTools",
  "ServerToolsOptions",
  "ToolError",
  "ToolOutputError",
  "TypedToolResult",
  "createServerPrompts",
  "createServerTools",
  "toolCaller",
  ...RESOURCE_FILE_NAMES,
];

/** Members a function may not be called: `then` makes the object a thenable, `__proto__` its prototype. */
const UNSAFE_MEMBERS = new Set(["then", "__proto__", "constructor"]);

/**
 * A server's name as a function name: itself when it is an ASCII identifier name (reserved
 * words are fine as members: `tools.delete()`), else its letters and digits in camelCase
 * (`get-weather` -> getWeather); `fallback` when none are left (a name in another script).
 */
export function memberName(name: string, fallback: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(name)) return UNSAFE_MEMBERS.has(name) ? `${name}_` : name;
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  if (words.length === 0) return fallback;
  const camel = words
    .map((w, i) =>
      i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join("");
  const safe = /^[0-9]/.test(camel) ? `_${camel}` : camel;
  return UNSAFE_MEMBERS.has(safe) ? `${safe}_` : safe;
}

/** Function names for a list of entries (sorted), unique: a second `aB` is `aB2`. */
function memberNames(names: readonly string[], fallback: string): string[] {
  const registry = new NameRegistry();
  return names.map((n) => registry.claim(memberName(n, fallback)));
}

interface ToolPlan {
  tool: ToolEntry;
  member: string;
  args: string;
  argsOptional: boolean;
  result: string | undefined;
  outputSchemaConst: string | undefined;
}

interface PromptPlan {
  prompt: PromptEntry;
  member: string;
  args: string | undefined;
  argsOptional: boolean;
}

/** Whether a declaration's type admits `{}` (every property optional): the argument may be left out. */
function admitsEmpty(d: Declaration): boolean {
  const type: TypeExpr | undefined = d.kind === "alias" ? d.type : undefined;
  if (d.kind === "interface") return d.members.properties.every((p) => p.optional);
  return type?.kind === "record";
}

function functionDoc(
  kind: string,
  entry: { name: string; title?: string; description?: string },
): string[] {
  const head = `${kind} ${JSON.stringify(entry.name)}${entry.title ? `: ${entry.title}` : ""}`;
  const { text } = docOf(entry.description);
  return [head, ...(text ? ["", ...text.split("\n")] : [])].map(docText);
}

/** The SHA-256 of a snapshot's text, first 12 hex digits: names it in the header. */
export function snapshotHash(snapshotText: string): string {
  return createHash("sha256").update(snapshotText).digest("hex").slice(0, 12);
}

/**
 * The typed client file for `snapshot` (written as `snapshotFile`, whose text `snapshotText`
 * gives), formatted by prettier and checked to parse. The text is asked for once the schemas
 * are read: a schema past a cap fails before the listing is formatted, which takes seconds.
 */
export async function typedClientFile(
  snapshot: ServerSnapshot,
  snapshotFile: string,
  snapshotText: () => Promise<string>,
  imports: TypedClientImports,
): Promise<string> {
  const names = new NameRegistry(FILE_NAMES);
  const declarations: Declaration[] = [];
  const toolMembers = memberNames(
    snapshot.tools.map((t) => t.name),
    "tool",
  );
  const tools: ToolPlan[] = snapshot.tools.map((tool, i) => {
    const member = toolMembers[i]!;
    const base = pascalCase(member) || "Tool";
    const types = new SchemaTypes(names, base, `tool ${JSON.stringify(tool.name)}`);
    const args = names.claim(`${base}Arguments`);
    types.declare(
      args,
      tool.inputSchema,
      docOf(`The arguments of tool ${JSON.stringify(tool.name)}.`),
    );
    const result = tool.outputSchema ? names.claim(`${base}Result`) : undefined;
    if (result)
      types.declare(
        result,
        tool.outputSchema,
        docOf(`The structuredContent of tool ${JSON.stringify(tool.name)}.`),
      );
    declarations.push(...types.declarations);
    const argsDecl = types.declarations.find((d) => d.name === args)!;
    const outputSchemaConst = tool.outputSchema ? names.claim(`${base}OutputSchema`) : undefined;
    return { tool, member, args, argsOptional: admitsEmpty(argsDecl), result, outputSchemaConst };
  });
  const promptMembers = memberNames(
    snapshot.prompts.map((p) => p.name),
    "prompt",
  );
  const prompts: PromptPlan[] = snapshot.prompts.map((prompt, i) => {
    const member = promptMembers[i]!;
    const list = prompt.arguments ?? [];
    if (list.length === 0) return { prompt, member, args: undefined, argsOptional: true };
    const args = names.claim(`${pascalCase(member) || "Prompt"}PromptArguments`);
    const doc: Doc = docOf(`The arguments of prompt ${JSON.stringify(prompt.name)}.`);
    declarations.push({
      kind: "interface",
      name: args,
      exported: true,
      doc,
      loc: { file: "<server>", line: 0, column: 0 },
      extends: [],
      members: {
        properties: list.map((a) => ({
          name: a.name,
          optional: a.required !== true,
          type: { kind: "keyword", name: "string", loc: { file: "<server>", line: 0, column: 0 } },
          doc: docOf(a.description),
          loc: { file: "<server>", line: 0, column: 0 },
        })),
      },
    });
    return { prompt, member, args, argsOptional: list.every((a) => a.required !== true) };
  });

  const templateMembers = memberNames(
    snapshot.resourceTemplates.map((t) => t.name),
    "resource",
  );
  const templates = planTemplates(snapshot.resourceTemplates, templateMembers, names, declarations);

  // The runtime reached as the generated client reaches it: its client entry alone.
  const w = new GeneratedFile("typed-client.ts", {
    from(entry) {
      if (entry !== "client") throw new Error(`internal: the typed client imports no ${entry}`);
      return imports.runtime;
    },
  });
  w.import(imports.client, "CallOptions", true);
  w.import(imports.client, "Client", true);
  w.import(imports.types, "CallToolResult", true);
  if (prompts.length > 0) w.import(imports.types, "GetPromptResult", true);
  w.line("// Typed functions for one MCP server's tools and prompts, over the generated client:");
  w.line("// each tool's arguments typed from its inputSchema, its result from its outputSchema.");
  w.line(
    "// `mcp-gen client --check` tells when the server's listing no longer matches this file.",
  );
  w.line();
  for (const line of typedClientRuntimeLines()) w.line(line);
  w.line();
  writeDeclarations(w, declarations);
  writeTools(w, tools);
  if (prompts.length > 0) writePrompts(w, prompts);
  if (templates.length > 0) writeTemplates(w, templates, imports);
  const hash = snapshotHash(await snapshotText());
  const header = `// Code generated by mcp-gen ${VERSION} from an MCP server's listing (${lineCommentText(snapshotFile)}, sha256 ${hash}). DO NOT EDIT.`;
  const code = await formatTypeScript(w.toString(header));
  checkParses("typed-client.ts", code);
  return code;
}

function writeTools(w: CodeWriter, tools: readonly ToolPlan[]): void {
  for (const t of tools.filter((x) => x.outputSchemaConst)) {
    w.line();
    w.doc(`The outputSchema of tool ${JSON.stringify(t.tool.name)}, for checking its results.`);
    w.value(`const ${t.outputSchemaConst!}: object = `, t.tool.outputSchema as never, ";");
  }
  w.line();
  w.doc("The server's tools, one function each (`tools/call` through the generated client).");
  w.block("export interface ServerTools {", () => {
    for (const t of tools) {
      w.docLines(functionDoc("Tool", t.tool));
      const resultType = t.result ? `TypedToolResult<${t.result}>` : "CallToolResult";
      w.line(
        `${t.member}(args${t.argsOptional ? "?" : ""}: ${t.args}, options?: CallOptions): Promise<${resultType}>;`,
      );
    }
  });
  w.line();
  w.docLines([
    "The server's tools over `client`. A result with isError is thrown as ToolError; a tool with an",
    "outputSchema must answer structuredContent, checked against it by `options.validate` when given",
    "(else ToolOutputError).",
  ]);
  w.block(
    'export function createServerTools(client: Pick<Client, "callTool">, options: ServerToolsOptions = {}): ServerTools {',
    () => {
      w.line("const call = toolCaller(client, options);");
      w.block(
        "return {",
        () => {
          for (const t of tools) {
            const schema = t.outputSchemaConst ?? "undefined";
            const cast = t.result ? ` as Promise<TypedToolResult<${t.result}>>` : "";
            w.line(
              `${t.member}: (args, callOptions) => call(${str(t.tool.name)}, args, ${schema}, callOptions)${cast},`,
            );
          }
        },
        "};",
      );
    },
  );
}

function writePrompts(w: CodeWriter, prompts: readonly PromptPlan[]): void {
  w.line();
  w.doc("The server's prompts, one function each (`prompts/get` through the generated client).");
  w.block("export interface ServerPrompts {", () => {
    for (const p of prompts) {
      w.docLines(functionDoc("Prompt", p.prompt));
      const args = p.args ? `args${p.argsOptional ? "?" : ""}: ${p.args}, ` : "";
      w.line(`${p.member}(${args}options?: CallOptions): Promise<GetPromptResult>;`);
    }
  });
  w.line();
  w.doc("The server's prompts over `client`.");
  w.block(
    'export function createServerPrompts(client: Pick<Client, "getPrompt">): ServerPrompts {',
    () => {
      w.block(
        "return {",
        () => {
          for (const p of prompts) {
            const name = str(p.prompt.name);
            w.line(
              p.args
                ? `${p.member}: (args, options) => client.getPrompt({ name: ${name}, ...(args ? { arguments: { ...args } } : {}) }, options),`
                : `${p.member}: (options) => client.getPrompt({ name: ${name} }, options),`,
            );
          }
        },
        "};",
      );
    },
  );
}
