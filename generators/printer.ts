import { McpGenError } from "../schema/diagnostics.js";
import type { SourceLocation } from "../schema/model.js";

// The one way text from schema.ts reaches generated code. Method names, literal types,
// property and type names and docs are written by the spec's authors (or by whoever wrote
// a draft): printed raw, a `*/` in a method name closes the comment around it and what
// follows runs at import. Every emitter goes through these functions; none splices schema
// text into code by itself.

const LINE_TERMINATORS = /[\n\r\u2028\u2029]/g;

/** A JavaScript string literal for any string (JSON.stringify, plus the two line separators). */
export function str(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Any JSON value as a JavaScript expression (strings escaped as `str` does). */
export function json(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError("json(): value has no JSON form");
  return text.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Text safe inside a `/** ... *\/` comment on one line: no comment end, no line break. */
export function docText(value: string): string {
  return value.replace(LINE_TERMINATORS, " ").replace(/\*\//g, "*\\/");
}

/** Text safe inside a `//` comment: no line terminator can end it early. */
export function lineCommentText(value: string): string {
  return value.replace(LINE_TERMINATORS, " ");
}

/** Words that cannot name a binding (strict mode, ES modules, TypeScript type names). */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield await arguments eval " +
    "any boolean never number object string symbol undefined unknown bigint"
  ).split(" "),
);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/**
 * `name` as a declaration name in generated code, or a located error when it cannot be one
 * (schema type names become exported names, so they are never rewritten silently).
 */
export function ident(name: string, what: string, at?: SourceLocation): string {
  if (isIdentifier(name)) return name;
  const why = IDENTIFIER.test(name) ? "is a reserved word" : "is not an identifier";
  throw new McpGenError("unsupported-construct", `${what} '${lineCommentText(name)}' ${why} and cannot name generated code`, at);
}

/** A property key: bare when it is an identifier name (reserved words are fine there), else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : str(name);
}

/** `obj.name`, or `obj["name"]` when the name is not an identifier. */
export function member(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${str(name)}]`;
}

/** `"a" | "b"` for a set of string literals, `never` for none. */
export function literalUnion(values: readonly string[]): string {
  return values.length === 0 ? "never" : values.map(str).join(" | ");
}

/**
 * Generated code, a line at a time, with the imports it needs collected as it goes. Lines
 * are written already indented, so output reads well even before prettier.
 */
export class CodeWriter {
  private readonly lines: string[] = [];
  private readonly imports = new Map<string, { names: Set<string>; types: Set<string> }>();
  private depth = 0;

  /** Records `import { name } from from` (or `import type` when `typeOnly`), printed once at the top. */
  import(from: string, name: string, typeOnly = false): string {
    let entry = this.imports.get(from);
    if (!entry) this.imports.set(from, (entry = { names: new Set(), types: new Set() }));
    (typeOnly ? entry.types : entry.names).add(name);
    return name.replace(/^\* as /, "");
  }

  line(text = ""): this {
    this.lines.push(text === "" ? "" : "  ".repeat(this.depth) + text);
    return this;
  }

  /** A `/** ... *\/` comment from schema text (escaped). */
  doc(text: string): this {
    return this.line(`/** ${docText(text)} */`);
  }

  /** `open` on one line, the body indented, `close` on its own line. */
  block(open: string, body: () => void, close = "}"): this {
    this.line(open);
    this.depth++;
    body();
    this.depth--;
    return this.line(close);
  }

  /** The file: header, imports (sorted, so output never depends on call order), body. */
  toString(header: string): string {
    const importLines: string[] = [];
    for (const from of [...this.imports.keys()].sort()) {
      const { names, types } = this.imports.get(from)!;
      const star = [...names].find((n) => n.startsWith("* as "));
      const starType = [...types].find((n) => n.startsWith("* as "));
      if (starType) importLines.push(`import type ${starType} from ${str(from)};`);
      if (star) importLines.push(`import ${star} from ${str(from)};`);
      const named = [...names].filter((n) => !n.startsWith("* as ")).sort();
      const typed = [...types].filter((n) => !n.startsWith("* as ") && !names.has(n)).sort();
      if (named.length === 0 && typed.length > 0) importLines.push(`import type { ${typed.join(", ")} } from ${str(from)};`);
      else if (named.length > 0) importLines.push(`import { ${[...named, ...typed.map((t) => `type ${t}`)].join(", ")} } from ${str(from)};`);
    }
    return [...(header ? [header, ""] : []), ...importLines, ...(importLines.length > 0 ? [""] : []), ...this.lines, ""].join("\n");
  }
}

// Prettier's own spelling of literals, for files printed already laid out (`preformatted`):
// prettier would otherwise rewrite them and the file would no longer be what it prints.

/**
 * A string literal as prettier prints it with double quotes preferred: double quotes unless
 * the text holds more double than single quotes. Same escapes as `str` otherwise.
 */
export function quote(value: string): string {
  const doubled = str(value);
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  if (doubles <= singles) return doubled;
  // Inside single quotes: `\"` needs no escape, `'` does. JSON escapes nothing else that matters.
  const body = doubled.slice(1, -1).replace(/\\(.)|'/gs, (match, escaped: string | undefined) =>
    escaped === undefined ? "\\'" : escaped === '"' ? '"' : match,
  );
  return `'${body}'`;
}

/** A property key as prettier prints it (quoteProps "as-needed"): bare when an identifier name, else `quote`d. */
export function prettierKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name);
}

/** A number literal as prettier prints it (`1e+21` is `1e21`). */
export function num(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`num(): ${value} has no literal form`);
  return String(value).replace("e+", "e");
}
