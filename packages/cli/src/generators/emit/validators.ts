import { buildValidationSchemas, type VSchema } from "../../schema/validation.js";
import { McpGenError } from "../../schema/diagnostics.js";
import type { EmittedFile, Generator } from "./plugin.js";
import type { RuntimeImports } from "./runtime.js";
import { RT, type RuntimeSymbol, type ValidationNames } from "./runtime-symbols.js";
import { GeneratedFile } from "../print/generated-file.js";
import { ValidatorWriter } from "./validator-code.js";
import { messageEntryPoints } from "./validator-messages.js";
import { CodeWriter, docText, objectKey, quote } from "../print/printer.js";

/** Names of the types that can reach themselves through references (they need a depth guard). */
export function recursiveTypes(schemas: ReadonlyMap<string, VSchema>): Set<string> {
  const refs = new Map<string, Set<string>>();
  const collect = (s: VSchema, into: Set<string>): void => {
    switch (s.kind) {
      case "ref":
        into.add(s.name);
        return;
      case "object":
        s.bases?.forEach((b) => into.add(b));
        s.properties.forEach((p) => collect(p.schema, into));
        if (s.additional) collect(s.additional, into);
        return;
      case "array":
        return collect(s.items, into);
      case "anyOf":
      case "allOf":
        return s.members.forEach((m) => collect(m, into));
      case "constrained":
        return collect(s.schema, into);
      default:
        return;
    }
  };
  for (const [name, schema] of schemas) {
    const into = new Set<string>();
    collect(schema, into);
    refs.set(name, into);
  }
  const recursive = new Set<string>();
  for (const start of schemas.keys()) {
    const stack = [...(refs.get(start) ?? [])];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(refs.get(next) ?? []));
    }
  }
  return recursive;
}

/** Names the message section of validators.ts exports beside `validate<Type>`. */
const MESSAGE_ENTRY_POINTS = new Set([
  "validateRequestMessage",
  "validateNotificationMessage",
  "validateMethodResult",
  "validateInputResult",
  "validateMessage",
]);

/** validators.ts: `isT` / `validateT` for every schema type, and message entry points. */
export const validatorsGenerator: Generator = {
  name: "validators",
  requires: ["types", "methods"],
  runtime: () => ["core"],
  description:
    "validators.ts: type guards and JSON-pointer validators for every schema type, message validation",
  emit({ loaded, header, runtime }) {
    const { model } = loaded;
    const schemas = buildValidationSchemas(model);
    const writer = new ValidatorWriter(schemas, recursiveTypes(schemas));
    const exported = model.declarations
      .filter((d) => d.kind !== "const" && d.exported)
      .map((d) => d.name);
    for (const name of exported) {
      if (MESSAGE_ENTRY_POINTS.has(`validate${name}`)) {
        const d = model.byName.get(name)!;
        throw new McpGenError(
          "unsupported-construct",
          `type '${name}' would give a validator named like the message entry point validate${name}`,
          d.loc,
        );
      }
    }
    const functions: string[] = [];
    for (const name of schemas.keys())
      functions.push(writer.isFunction(name), writer.validateFunction(name));
    functions.push(...writer.helpers);
    const { rt } = writer;
    const body = [
      ...writer.constants,
      ...functions,
      "// ---- public validators ---------------------------------------------------------------",
      ...exported.map((name) => publicValidators(rt, name)),
      validatorTable(rt, exported),
      messageEntryPoints(loaded, rt),
    ];
    return validatorsFiles(header, body, runtime, writer.uses.used);
  },
};

/**
 * validators.ts around its generated body (checks, collectors, entry points), with the
 * imports of the runtime helpers that body names (`used`, as its builders recorded them
 * through a ValidationUses). Laid out as prettier would (CodeWriter.statements):
 * formatting the largest output was most of the generation time. The body's parts are
 * written whole (`laidOut`), so the file is built in the one join of `emit`: joining the
 * body, then the head around it, held the 7.8 MB text of a schema of 20 copies of 2026-07-28
 * three times over.
 */
export function validatorsFiles(
  header: string,
  body: readonly string[],
  runtime: RuntimeImports,
  used: readonly RuntimeSymbol[],
): EmittedFile[] {
  const w = new GeneratedFile("validators.ts", runtime);
  const intro = [
    "// Validators for every type of the MCP schema: `isT` (a type guard, no allocation on",
    "// success) and `validateT` (JSON-pointer errors), with the semantics of the revision's",
    "// schema.json. They never throw and never mutate or coerce their input.",
  ];
  w.line("/* eslint-disable */");
  w.line(`import type * as T from ${quote("./types.js")};`);
  importsFromMethods(w, body);
  importsFromRuntime(w, used);
  w.line();
  w.line(
    "// ---- per-type checks -----------------------------------------------------------------",
  );
  for (const part of body) w.line().laidOut(part.replace(/\n+$/, ""));
  return [w.emit([header, ...intro].join("\n"), { preformatted: true })];
}

/** The method-table types of methods.ts the message entry points' signatures may name. */
const METHOD_TYPES = [
  "Direction",
  "InputRequestMethod",
  "InputRequestResultMap",
  "InputRequiredMethod",
  "RequestResultMap",
];

/**
 * The import of methods.ts types, those the message entry points use (older revisions have no
 * `input_required`, so no InputRequiredMethod). The entry points are the body's last part:
 * only it is scanned, not the megabytes of checks before it.
 */
function importsFromMethods(w: CodeWriter, body: readonly string[]): void {
  const entryPoints = body[body.length - 1] ?? "";
  const used = METHOD_TYPES.filter((name) =>
    new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(entryPoints),
  );
  if (used.length > 0) namedList(w, "import type", used, "./methods.js");
}

/** What validators.ts re-exports from the runtime's validation: its public API beside `isT` / `validateT`. */
const { core } = RT;
const PUBLIC = [
  core.MAX_DEPTH,
  core.MAX_ERRORS,
  core.classifyMessage,
  core.MessageInfo,
  core.MessageKind,
  core.ValidateOptions,
  core.ValidationError,
  core.ValidationResult,
  core.Validator,
];

/**
 * The import and re-export lines of validators.ts: the runtime's validation helpers the
 * generated code names (only those, so no output imports a name it does not use), imported
 * by symbol, then the public ones.
 */
function importsFromRuntime(w: GeneratedFile, used: readonly RuntimeSymbol[]): void {
  for (const helper of used) w.use(helper);
  w.importsHere();
  w.reexport(PUBLIC.filter((s) => !s.typeOnly));
  w.reexport(PUBLIC.filter((s) => s.typeOnly));
}

/** `keyword { a, b } from "m";` on one line, or one name a line, as prettier prints it. */
function namedList(w: CodeWriter, keyword: string, names: readonly string[], from: string): void {
  w.list(`${keyword} {`, names, `} from ${quote(from)};`, true);
}

/** `isT` and `validateT`: exceptions (throwing getters, proxies) become a failed validation. */
function publicValidators(rt: ValidationNames, name: string): string {
  return new CodeWriter()
    .statements([
      `/** Whether \`value\` is a valid \`${docText(name)}\`. */`,
      {
        head: `export function is${name}`,
        args: ["value: unknown"],
        tail: `: value is T.${name} {`,
      },
      "try {",
      { head: `return $is_${name}`, args: ["value", "0"], tail: ";" },
      "} catch {",
      "return false;",
      "}",
      "}",
      "",
      `/** Validates \`value\` as a \`${docText(name)}\`: the value itself, or JSON-pointer errors. */`,
      {
        head: `export function validate${name}`,
        args: ["value: unknown", `options?: ${rt.ValidateOptions}`],
        tail: `: ${rt.ValidationResult}<T.${name}> {`,
      },
      "try {",
      { if: `!options?.firstError && $is_${name}(value, 0)`, then: `return ${rt.$ok}(value);` },
      "} catch {}",
      { head: `return ${rt.$result}`, args: ["value", `$va_${name}`, "options"], tail: ";" },
      "}",
    ])
    .text();
}

function validatorTable(rt: ValidationNames, names: string[]): string {
  return [
    "/** The validator of every schema type, by type name. */",
    `export const VALIDATORS: { readonly [name: string]: ${rt.Validator} } = ${objectLiteral(names.map((n) => [n, `validate${n}`]))};`,
  ].join("\n");
}

/** An object literal as prettier prints one written across lines. */
function objectLiteral(entries: [string, string][], indent = ""): string {
  if (entries.length === 0) return "{}";
  return ["{", ...entries.map(([k, v]) => `${indent}  ${objectKey(k)}: ${v},`), `${indent}}`].join(
    "\n",
  );
}
