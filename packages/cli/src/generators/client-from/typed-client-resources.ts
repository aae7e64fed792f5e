import { UriTemplate, type TemplateVariableUse } from "@mcp-gen/runtime/client";
import { McpGenError } from "../../schema/diagnostics.js";
import type { Declaration, SourceLocation, TypeExpr } from "../../schema/model.js";
import { docOf, NameRegistry, pascalCase } from "./json-schema-types.js";
import { CodeWriter, docText, lineCommentText, str } from "../print/printer.js";
import { quoted, type ResourceTemplateEntry } from "./server-snapshot.js";
import type { GeneratedFile } from "../print/generated-file.js";
import { RT } from "../emit/runtime-symbols.js";

// `mcp-gen client`: typed functions for a server's resource templates (typed-client.ts emits
// the rest of the file). Each takes the template's variables, one member each, expands the
// RFC 6570 template with the runtime's UriTemplate (the parser the server side matches
// with, so the two read templates alike) and reads the resource (`resources/read`). "Arguments
// may be auto-completed through the completion API" (2026-07-28 server/resources, "Resource
// Templates"): each template with variables also gets a `completion/complete` helper with a
// `ref/resource` reference (server/utilities/completion, "Reference Types").

/** Names the resource-template part of the file declares: no tool's types may take them. */
export const RESOURCE_FILE_NAMES = [
  "CompleteResult",
  "ReadResourceResult",
  "ServerResourceCompletions",
  "ServerResourceTemplates",
  RT.client.TemplateValue.name,
  RT.client.UriTemplate.name,
  "createServerResourceCompletions",
  "createServerResourceTemplates",
  "templateCompleter",
  "templateReader",
];

/** One template variable as the function takes it. */
interface VariablePlan {
  name: string;
  /** Exploded somewhere (`{/path*}`, `{?tag*}`): a list of strings. */
  list: boolean;
  /** Only in named expressions (`{?q}`, `{&q}`, `{;q}`), which leave out a value not given. */
  optional: boolean;
}

export interface TemplatePlan {
  template: ResourceTemplateEntry;
  member: string;
  variables: VariablePlan[];
  /** The variables' interface, when there are any. */
  args: string | undefined;
  argsOptional: boolean;
}

const NAMED_OPERATORS = new Set([";", "?", "&"]);
const SERVER: SourceLocation = { file: "<server>", line: 0, column: 0 };

/** The template parsed by the runtime; a template it cannot parse is one line naming it. */
function parsed(entry: ResourceTemplateEntry): UriTemplate {
  try {
    return new UriTemplate(entry.uriTemplate);
  } catch (error) {
    // The runtime's message repeats the template: say it once, capped, then why.
    const why = String((error as Error).message).replace(/^URI template "(?:[^"\\]|\\.)*": /, "");
    const reason = lineCommentText(why.length > 120 ? `${why.slice(0, 120)}...` : why);
    throw new McpGenError(
      "protocol",
      `resource template ${quoted(entry.name)}: uriTemplate ${quoted(entry.uriTemplate)} is not an RFC 6570 URI template (${reason})`,
    );
  }
}

/** The variables of a template by name, typed from how its expressions use them. */
function variablesOf(uses: readonly TemplateVariableUse[]): VariablePlan[] {
  const byName = new Map<string, VariablePlan>();
  for (const use of uses) {
    const named = NAMED_OPERATORS.has(use.operator);
    const known = byName.get(use.name);
    if (known === undefined)
      byName.set(use.name, { name: use.name, list: use.explode, optional: named });
    else {
      known.list ||= use.explode;
      known.optional &&= named;
    }
  }
  return [...byName.values()];
}

/**
 * The plan of each template: its function's name (unique among the templates, as tools' and
 * prompts' are among theirs) and its variables' interface, declared into `declarations`.
 */
export function planTemplates(
  templates: readonly ResourceTemplateEntry[],
  members: readonly string[],
  names: NameRegistry,
  declarations: Declaration[],
): TemplatePlan[] {
  return templates.map((template, i) => {
    const member = members[i]!;
    const variables = variablesOf(parsed(template).variableUses);
    if (variables.length === 0)
      return { template, member, variables, args: undefined, argsOptional: true };
    const args = names.claim(`${pascalCase(member) || "Resource"}Variables`);
    const string: TypeExpr = { kind: "keyword", name: "string", loc: SERVER };
    declarations.push({
      kind: "interface",
      name: args,
      exported: true,
      doc: docOf(
        `The variables of resource template ${JSON.stringify(template.name)} (${template.uriTemplate}).`,
      ),
      loc: SERVER,
      extends: [],
      members: {
        properties: variables.map((v) => ({
          name: v.name,
          optional: v.optional,
          type: v.list ? { kind: "array", element: string, loc: SERVER } : string,
          doc: docOf(undefined),
          loc: SERVER,
        })),
      },
    });
    return { template, member, variables, args, argsOptional: variables.every((v) => v.optional) };
  });
}

function templateDoc(template: ResourceTemplateEntry): string[] {
  const head = `Resource template ${JSON.stringify(template.name)}${template.title ? `: ${template.title}` : ""}`;
  const { text } = docOf(template.description);
  const lines = [head, "", `URI template: ${template.uriTemplate}`];
  if (template.mimeType) lines.push(`MIME type: ${template.mimeType}`);
  if (text) lines.push("", ...text.split("\n"));
  return lines.map(docText);
}

/** The helper every template's function reads through (emitted when there are templates). */
const READER = `/** Reads the resource a URI template names with \`variables\` (each template parsed once). */
function templateReader(client: Pick<Client, "readResource">) {
  const parsed = new Map<string, ${RT.client.UriTemplate.name}>();
  return (uriTemplate: string, variables: object | undefined, options: CallOptions | undefined): Promise<ReadResourceResult> => {
    let template = parsed.get(uriTemplate);
    if (template === undefined) parsed.set(uriTemplate, (template = new ${RT.client.UriTemplate.name}(uriTemplate)));
    const values = { ...variables } as { readonly [name: string]: ${RT.client.TemplateValue.name} };
    return client.readResource({ uri: template.expand(values) }, options);
  };
}`;

/**
 * The template part of the file: `ServerResourceTemplates` and its factory, then the
 * completion helpers of the templates that have variables. `runtime` is the specifier of
 * the runtime's client entry, `types` that of the generated types module.
 */
export function writeTemplates(
  w: GeneratedFile,
  templates: readonly TemplatePlan[],
  imports: { types: string },
): void {
  w.use(RT.client.UriTemplate);
  w.use(RT.client.TemplateValue);
  w.import(imports.types, "ReadResourceResult", true);
  w.line();
  for (const line of READER.split("\n")) w.line(line);
  w.line();
  w.doc("The server's resource templates, one function each (`resources/read` of the URI).");
  w.block("export interface ServerResourceTemplates {", () => {
    for (const t of templates) {
      w.docLines(templateDoc(t.template));
      const args = t.args ? `variables${t.argsOptional ? "?" : ""}: ${t.args}, ` : "";
      w.line(`${t.member}(${args}options?: CallOptions): Promise<ReadResourceResult>;`);
    }
  });
  w.line();
  w.docLines([
    "The server's resource templates over `client`: each function expands its template",
    "(RFC 6570, values percent-encoded) and reads the resource at that URI.",
  ]);
  w.block(
    'export function createServerResourceTemplates(client: Pick<Client, "readResource">): ServerResourceTemplates {',
    () => {
      w.line("const read = templateReader(client);");
      w.block(
        "return {",
        () => {
          for (const t of templates) {
            const uri = str(t.template.uriTemplate);
            w.line(
              t.args
                ? `${t.member}: (variables, options) => read(${uri}, variables, options),`
                : `${t.member}: (options) => read(${uri}, undefined, options),`,
            );
          }
        },
        "};",
      );
    },
  );
  const completable = templates.filter((t) => t.args);
  if (completable.length > 0) writeCompletions(w, completable, imports.types);
}

/** The helper every template's completion function calls through. */
const COMPLETER = `/** Asks the server to complete one variable of a URI template (\`completion/complete\`, \`ref/resource\`). */
function templateCompleter(client: Pick<Client, "complete">) {
  return (
    uriTemplate: string,
    variable: string,
    value: string,
    context: { readonly [name: string]: string | undefined } | undefined,
    options: CallOptions | undefined,
  ): Promise<CompleteResult> => {
    const chosen = context ? { context: { arguments: { ...context } as { [name: string]: string } } } : {};
    const ref = { type: "ref/resource" as const, uri: uriTemplate };
    return client.complete({ ref, argument: { name: variable, value }, ...chosen }, options);
  };
}`;

function writeCompletions(w: CodeWriter, templates: readonly TemplatePlan[], types: string): void {
  w.import(types, "CompleteResult", true);
  w.line();
  for (const line of COMPLETER.split("\n")) w.line(line);
  w.line();
  w.docLines([
    "Completions for the variables of the server's resource templates (`completion/complete`",
    "with a `ref/resource` reference): the values the server suggests for `variable` given",
    "what is typed so far (`value`), and the variables already chosen (`context`).",
  ]);
  w.block("export interface ServerResourceCompletions {", () => {
    for (const t of templates) {
      w.docLines([`Completes a variable of resource template ${JSON.stringify(t.template.name)}.`]);
      const variable = t.variables.map((v) => str(v.name)).join(" | ");
      w.line(
        `${t.member}(variable: ${variable}, value: string, context?: { readonly [name in ${variable}]?: string }, options?: CallOptions): Promise<CompleteResult>;`,
      );
    }
  });
  w.line();
  w.doc("The completions of the server's resource templates over `client`.");
  w.block(
    'export function createServerResourceCompletions(client: Pick<Client, "complete">): ServerResourceCompletions {',
    () => {
      w.line("const complete = templateCompleter(client);");
      w.block(
        "return {",
        () => {
          for (const t of templates) {
            const uri = str(t.template.uriTemplate);
            w.line(
              `${t.member}: (variable, value, context, options) => complete(${uri}, variable, value, context, options),`,
            );
          }
        },
        "};",
      );
    },
  );
}
