import { McpGenError } from "../../schema/diagnostics.js";
import type { SourceLocation } from "../../schema/model.js";

// The one way text from schema.ts reaches generated code. Method names, literal types,
// property and type names and docs are written by the spec's authors (or by whoever wrote
// a draft): printed raw, a `*/` in a method name closes the comment around it and what
// follows runs at import. Every emitter goes through these functions; none splices schema
// text into code by itself.

const LINE_TERMINATORS = /[\n\r\u2028\u2029]/g;

/** A JavaScript string literal for any string (JSON.stringify, plus the two line separators). */
export function str(value: string): string {
  const text = JSON.stringify(value);
  if (!/[\u2028\u2029]/.test(text)) return text;
  return text.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
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
  throw new McpGenError(
    "unsupported-construct",
    `${what} '${lineCommentText(name)}' ${why} and cannot name generated code`,
    at,
  );
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

/** The line width of generated code (prettier's printWidth, which the layouts here match). */
export const WIDTH = 100;

/** Raw code inside a value printed by `CodeWriter.value` (an identifier, an expression). */
export class Code {
  constructor(readonly text: string) {}
}

/**
 * A statement as an emitter states it; `CodeWriter.statements` decides where it breaks.
 * A string is printed as it is (one ending in `{` opens a level, one starting with `}`
 * closes one). `head(args)tail` is a call or a function head: arguments one a line when it
 * is too long (an array argument still too long, one element a line). `if (test) then`
 * moves `then` to the next line, one level deeper, when too long. `deeper` is one level
 * deeper for itself alone (a statement under a `case`).
 */
export type Statement =
  | SimpleStatement
  | { readonly if: string; readonly then: SimpleStatement }
  | { readonly deeper: Statement };
export type SimpleStatement = string | Call;
export interface Call {
  readonly head: string;
  readonly args: readonly Arg[];
  readonly tail: string;
}

/** An argument of a call: code, or the elements of an array literal. */
export type Arg = string | readonly string[];

const argText = (a: Arg) => (typeof a === "string" ? a : `[${a.join(", ")}]`);

/** A statement on one line. */
function statementText(s: SimpleStatement | { if: string; then: SimpleStatement }): string {
  if (typeof s === "string") return s;
  if ("if" in s) return `if (${s.if}) ${statementText(s.then)}`;
  return `${s.head}(${s.args.map(argText).join(", ")})${s.tail}`;
}

/** What `CodeWriter.value` prints: JSON data, with `Code` for expressions. */
export type Value =
  null | boolean | number | string | Code | readonly Value[] | { readonly [key: string]: Value };

const isObject = (v: Value): v is { readonly [key: string]: Value } =>
  v !== null && typeof v === "object" && !(v instanceof Code) && !Array.isArray(v);

/** A value on one line, spelled as prettier spells it. */
function flat(v: Value): string {
  if (v instanceof Code) return v.text;
  if (typeof v === "string") return quote(v);
  if (typeof v === "number") return num(v);
  if (v === null || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(flat).join(", ")}]`;
  const entries = Object.entries(v as { [key: string]: Value });
  return entries.length === 0
    ? "{}"
    : `{ ${entries.map(([k, x]) => `${objectKey(k)}: ${flat(x)}`).join(", ")} }`;
}

/**
 * Generated code, a line at a time, with the imports it needs collected as it goes. Lines
 * are written already indented. Files are printed laid out as prettier lays them out
 * (printWidth WIDTH), so generation runs no formatter; `exact` turns false when a line
 * leaves the cases covered here (a code line wider than WIDTH, or holding non-ASCII text,
 * whose width prettier measures differently): that file is written as printed, valid but
 * not prettier's layout, once it is checked to parse (packages/cli/src/generators/print/parse-check.ts).
 */
const INDENTS: string[] = [];

/** Two spaces a level, made once per depth (a generated file has tens of thousands of lines). */
function indent(depth: number): string {
  return (INDENTS[depth] ??= "  ".repeat(depth));
}

export class CodeWriter {
  private readonly lines: string[] = [];
  private readonly imports = new Map<
    string,
    { names: Set<string>; types: Set<string>; default?: string }
  >();
  private depth = 0;
  /** Whether the file is exactly what prettier would make of it. */
  exact = true;

  /** Records `import { name } from from` (or `import type` when `typeOnly`), printed once at the top. */
  import(from: string, name: string, typeOnly = false): string {
    const entry = this.importsOf(from);
    (typeOnly ? entry.types : entry.names).add(name);
    return name.replace(/^\* as /, "");
  }

  /** Records `import local from from` (a module's default export), printed once at the top. */
  importDefault(from: string, local: string): string {
    const entry = this.importsOf(from);
    if (entry.default !== undefined && entry.default !== local)
      throw new Error(
        `internal: ${from}'s default export imported as ${entry.default} and ${local}`,
      );
    entry.default = local;
    return local;
  }

  private importsOf(from: string): { names: Set<string>; types: Set<string>; default?: string } {
    let entry = this.imports.get(from);
    if (!entry) this.imports.set(from, (entry = { names: new Set(), types: new Set() }));
    return entry;
  }

  /**
   * Whether `text`, at the current indentation, fits the print width: the one width rule of
   * every printed file. Prettier measures display width (wide characters count 2, combining
   * marks 0); lengths agree with it on ASCII, so text with other characters whose width
   * could land either side of the limit leaves the file not `exact`.
   */
  fits(text: string): boolean {
    const width = 2 * this.depth + text.length;
    if (width * 2 > WIDTH && /[^\x00-\x7f]/.test(text)) this.exact = false;
    return width <= WIDTH;
  }

  /**
   * Text laid out by its caller, which measured its lines with `fits` (lines joined by `\n`,
   * already indented): written as it is, in one piece, so a megabyte of checks is not split
   * into lines and joined again.
   */
  laidOut(text: string): this {
    this.lines.push(text);
    return this;
  }

  line(text = ""): this {
    const line = text === "" || this.depth === 0 ? text : indent(this.depth) + text;
    // Comments are never reflowed by prettier: only code lines must fit. (The comment test
    // last: it is needed only for a line that would not fit, and a file has many lines.)
    if ((line.length > WIDTH || /[^\x20-\x7e]/.test(line)) && !/^\s*(\/\/|\/\*|\*)/.test(line))
      this.exact = false;
    this.lines.push(line);
    return this;
  }

  /** A `/** ... *\/` comment from schema text (escaped). */
  doc(text: string): this {
    return this.line(`/** ${docText(text)} */`);
  }

  /** A `/** ... *\/` comment of several lines, each escaped as `doc` escapes one. */
  docLines(lines: readonly string[]): this {
    this.line("/**");
    for (const text of lines) this.line(` * ${docText(text)}`);
    return this.line(" */");
  }

  /** `open` on one line, the body indented, `close` on its own line; `open` and `close` joined when the body is empty (`{}`, `[]`). */
  block(open: string, body: () => void, close = "}"): this {
    this.line(open);
    const before = this.lines.length;
    this.depth++;
    body();
    this.depth--;
    if (this.lines.length > before) return this.line(close);
    this.lines.pop();
    return this.line(`${open}${close}`);
  }

  /** Statements laid out as prettier lays them out (see `Statement`). */
  statements(stmts: readonly Statement[]): this {
    for (const s of stmts) {
      if (typeof s === "string" && s.startsWith("}")) this.depth--;
      this.statement(s);
      const opens = typeof s === "string" ? s.endsWith("{") : "head" in s && s.tail.endsWith("{");
      if (opens) this.depth++;
    }
    return this;
  }

  private statement(s: Statement): void {
    if (typeof s === "object" && "deeper" in s) {
      this.indented(() => this.statement(s.deeper));
      return;
    }
    const one = statementText(s);
    if (typeof s === "string" || this.fits(one)) {
      this.line(one);
    } else if ("if" in s) {
      this.line(`if (${s.if})`);
      this.indented(() => this.statement(s.then));
    } else {
      this.line(`${s.head}(`);
      this.indented(() => s.args.forEach((a) => this.argument(a)));
      this.line(`)${s.tail}`);
    }
  }

  private argument(a: Arg): void {
    if (typeof a === "string" || this.fits(`${argText(a)},`)) {
      this.line(`${argText(a)},`);
      return;
    }
    this.line("[");
    this.indented(() => a.forEach((x) => this.line(`${x},`)));
    this.line("],");
  }

  /** The lines written so far, without imports or a final newline. */
  text(): string {
    return this.lines.join("\n");
  }

  /** `body`'s lines one level deeper. */
  indented(body: () => void): this {
    this.depth++;
    body();
    this.depth--;
    return this;
  }

  /**
   * `open item, item close` on one line when it fits, else one item a line with trailing
   * commas (parameters, arguments, import and export lists). `spaced` lists (braces) have a
   * space inside on one line: `{ a, b }`.
   */
  list(open: string, items: readonly string[], close: string, spaced = false): this {
    const pad = spaced && items.length > 0 ? " " : "";
    const one = `${open}${pad}${items.join(", ")}${pad}${close}`;
    if (items.length === 0 || this.fits(one)) return this.line(one);
    return this.block(
      open.trimEnd(),
      () => items.forEach((item) => this.line(`${item},`)),
      close.trimStart(),
    );
  }

  /** `prefix value suffix`: objects and arrays on one line when they fit, else one entry a line (prettier's groups). */
  value(prefix: string, v: Value, suffix: string): this {
    const one = `${prefix}${flat(v)}${suffix}`;
    const entries: [string, Value][] = Array.isArray(v)
      ? v.map((x) => ["", x])
      : isObject(v)
        ? Object.entries(v)
        : [];
    if (typeof v === "string" && prefix.endsWith(": ") && !this.fits(one)) {
      // Prettier breaks after the key of a string that does not fit, and keeps the string
      // whole however long (so the line is exact even past the width).
      const text = `${"  ".repeat(this.depth + 1)}${flat(v)}${suffix}`;
      if (/[^\x20-\x7e]/.test(text)) this.exact = false;
      return this.line(prefix.trimEnd()).laidOut(text);
    }
    if (entries.length === 0 || (this.fits(one) && !breaksAlways(v))) return this.line(one);
    // Prettier fills arrays of numbers instead of one a line: not covered here.
    if (Array.isArray(v) && v.every((x) => typeof x === "number")) this.exact = false;
    const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
    return this.block(
      `${prefix}${open}`,
      () => {
        for (const [key, x] of entries)
          this.value(Array.isArray(v) ? "" : `${objectKey(key)}: `, x, ",");
      },
      `${close}${suffix}`,
    );
  }

  /**
   * A union type alias as prettier lays it out: `head A | B;` on one line when it fits, else
   * the union on the next line, else each member on its own `| ` line.
   */
  union(head: string, members: readonly string[], close = ";"): this {
    const union = `${members.length === 0 ? "never" : members.join(" | ")}${close}`;
    if (members.length < 2 || this.fits(`${head} ${union}`)) return this.line(`${head} ${union}`);
    this.line(head);
    return this.indented(() => {
      if (this.fits(union)) this.line(union);
      else members.forEach((m, i) => this.line(`| ${m}${i === members.length - 1 ? close : ""}`));
    });
  }

  /**
   * Writes the imports recorded so far here rather than at the top of the file (validators.ts
   * opens with its comment): they are then no longer pending for `toString`.
   */
  importsHere(): this {
    this.writeImports();
    this.imports.clear();
    return this;
  }

  /** The file: header, imports (sorted, so output never depends on call order), body. */
  toString(header: string): string {
    const body = this.lines.splice(0);
    this.writeImports();
    const importLines = this.lines.splice(0);
    // Not push(...body): a file of 100,000+ lines would pass that many arguments (stack overflow).
    for (const line of body) this.lines.push(line);
    return [
      // A file of its header alone (types.ts of a schema without declarations) has no blank line.
      ...(header ? [header, ...(this.lines.length + importLines.length > 0 ? [""] : [])] : []),
      ...importLines,
      ...(importLines.length > 0 ? [""] : []),
      ...this.lines,
      "",
    ].join("\n");
  }

  private writeImports(): void {
    for (const from of [...this.imports.keys()].sort()) {
      const { names, types, default: local } = this.imports.get(from)!;
      const star = [...names].find((n) => n.startsWith("* as "));
      const starType = [...types].find((n) => n.startsWith("* as "));
      if (starType) this.line(`import type ${starType} from ${str(from)};`);
      if (star) this.line(`import ${star} from ${str(from)};`);
      const named = [...names].filter((n) => !n.startsWith("* as ")).sort();
      const typed = [...types].filter((n) => !n.startsWith("* as ") && !names.has(n)).sort();
      if (local !== undefined && named.length === 0 && typed.length === 0)
        this.line(`import ${local} from ${str(from)};`);
      else if (named.length === 0 && typed.length > 0 && local === undefined)
        this.list("import type {", typed, `} from ${str(from)};`, true);
      else if (named.length > 0 || local !== undefined)
        this.list(
          local === undefined ? "import {" : `import ${local}, {`,
          [...named, ...typed.map((t) => `type ${t}`)],
          `} from ${str(from)};`,
          true,
        );
    }
  }
}

/**
 * Prettier breaks an array of two or more objects (or arrays) of more than one entry each,
 * one a line, even when it would fit.
 */
function breaksAlways(v: Value): boolean {
  if (!Array.isArray(v) || v.length < 2) return false;
  const objects = v.every((x: Value) => isObject(x) && Object.keys(x).length > 1);
  const arrays = v.every((x: Value) => Array.isArray(x) && x.length > 1);
  return objects || arrays;
}

// Prettier's own spelling of literals, for files printed already laid out (`preformatted`):
// prettier would otherwise rewrite them and the file would no longer be what it prints.

/**
 * A string literal as prettier prints it with double quotes preferred: double quotes unless
 * the text holds more double than single quotes. Same escapes as `str` otherwise.
 */
export function quote(value: string): string {
  const doubled = str(value);
  // Most strings hold no double quote: double quotes, then, whatever the single ones.
  if (!value.includes('"')) return doubled;
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  if (doubles <= singles) return doubled;
  // Inside single quotes: `\"` needs no escape, `'` does. JSON escapes nothing else that matters.
  const body = doubled
    .slice(1, -1)
    .replace(/\\(.)|'/gs, (match, escaped: string | undefined) =>
      escaped === undefined ? "\\'" : escaped === '"' ? '"' : match,
    );
  return `'${body}'`;
}

/** A property key as prettier prints it (quoteProps "as-needed"): bare when an identifier name, else `quote`d. */
export function prettierKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name);
}

/**
 * A key of an object literal: `prettierKey`, except `__proto__`, which is computed. Written
 * plain or quoted, `{ __proto__: x }` sets the object's prototype and has no such key
 * (a method or type of that name would be missing from the tables keyed by them).
 */
export function objectKey(name: string): string {
  return name === "__proto__" ? `[${quote(name)}]` : prettierKey(name);
}

/** A number literal as prettier prints it (`1e+21` is `1e21`). */
export function num(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`num(): ${value} has no literal form`);
  return String(value).replace("e+", "e");
}
