import type { CodeWriter } from "../print/printer.js";

// The expressions zod.ts is made of, and their layout as prettier lays them out (printWidth
// 100): calls whose last argument is an object or array hug it, other calls that do not fit
// break one argument a line, objects are always expanded (one property a line, with its
// JSDoc), and a call too long to break moves after the `:` or `=` when it has at most one
// short argument (prettier's "poorly breakable" chains). The one tested shape outside these
// rules (a method chain that does not fit) leaves the file not `exact` (checked to parse).

/** Every call is marked pure, so a bundler drops the schemas a program does not use. */
export const PURE = "/* @__PURE__ */ ";

export type ZExpr =
  /** An identifier or literal. */
  | { kind: "atom"; text: string }
  /** `callee(args)`; `callee` is a name (`z.string`, a schema's helper). */
  | { kind: "call"; callee: string; args: ZExpr[] }
  /** `target.name(args)`: a method of a schema (`.refine`, `.gte`). */
  | { kind: "method"; target: ZExpr; name: string; args: ZExpr[] }
  | { kind: "object"; properties: ZProperty[] }
  | { kind: "array"; items: ZExpr[] }
  /** `() => body`, z.lazy's argument. */
  | { kind: "thunk"; body: ZExpr };

export interface ZProperty {
  /** The key as printed (`objectKey`). */
  key: string;
  /** The rendered JSDoc block, or "". */
  doc: string;
  value: ZExpr;
}

export const atom = (text: string): ZExpr => ({ kind: "atom", text });
export const call = (callee: string, ...args: ZExpr[]): ZExpr => ({ kind: "call", callee, args });
export const method = (target: ZExpr, name: string, ...args: ZExpr[]): ZExpr => ({
  kind: "method",
  target,
  name,
  args,
});

const callish = (e: ZExpr) => e.kind === "call" || e.kind === "method";

/** The expression on one line, without its pure mark. */
function bare(e: ZExpr): string {
  switch (e.kind) {
    case "atom":
      return e.text;
    case "call":
      return `${e.callee}(${e.args.map(flat).join(", ")})`;
    case "method":
      return `${bare(e.target)}.${e.name}(${e.args.map(flat).join(", ")})`;
    case "object":
      return "{}";
    case "array":
      return `[${e.items.map(flat).join(", ")}]`;
    case "thunk":
      return `() => ${flat(e.body)}`;
  }
}

/** The expression on one line, a call marked pure. */
export function flat(e: ZExpr): string {
  return (callish(e) ? PURE : "") + bare(e);
}

/** Whether the expression holds an object with properties (prettier keeps those expanded). */
function forced(e: ZExpr): boolean {
  switch (e.kind) {
    case "atom":
      return false;
    case "call":
      return e.args.some(forced);
    case "method":
      return forced(e.target) || e.args.some(forced);
    case "object":
      return e.properties.length > 0;
    case "array":
      return e.items.some(forced);
    case "thunk":
      return forced(e.body);
  }
}

/** An argument prettier counts as short: a literal or a name of at most a quarter of the width. */
function shortArgument(e: ZExpr): boolean {
  return e.kind === "atom" && e.text.length <= 25;
}

/** A chain of calls each with no argument or one short one: prettier breaks after `=` or `:` instead. */
function poorlyBreakable(e: ZExpr): boolean {
  if (e.kind === "atom") return true;
  if (e.kind === "call")
    return e.args.length === 0 || (e.args.length === 1 && shortArgument(e.args[0]!));
  if (e.kind === "method")
    return (
      (e.args.length === 0 || (e.args.length === 1 && shortArgument(e.args[0]!))) &&
      poorlyBreakable(e.target)
    );
  return false;
}

const huggable = (e: ZExpr) =>
  (e.kind === "object" && e.properties.length > 0) || (e.kind === "array" && e.items.length > 0);

/** Lays out expressions into a writer at the top level (depth 0), measuring with its width rule. */
export class Layout {
  constructor(private readonly w: CodeWriter) {}

  private fits(line: string): boolean {
    return this.w.fits(line);
  }

  private mark(lines: string[]): string[] {
    if (!lines.every((l) => /^\s*(\/\/|\/\*|\*)/.test(l) || this.fits(l))) this.w.exact = false;
    return lines;
  }

  /** `head value tail` after an assignment operator (`= ` or `: `, ending `head`). */
  assigned(indent: string, head: string, e: ZExpr, tail: string): string[] {
    const one = head + flat(e) + tail;
    if (!forced(e) && !this.fits(one) && poorlyBreakable(e))
      return this.mark([head.trimEnd(), `${indent}  ${flat(e)}${tail}`]);
    return this.expr(e, indent, head, tail);
  }

  /** The expression starting after `head` (which holds the line's indentation `indent`). */
  expr(e: ZExpr, indent: string, head: string, tail: string): string[] {
    const one = head + flat(e) + tail;
    if (!forced(e) && this.fits(one)) return [one];
    const inner = `${indent}  `;
    switch (e.kind) {
      case "atom":
        return this.mark([one]);
      case "object": {
        const body = e.properties.flatMap((p) => [
          ...(p.doc ? p.doc.split("\n").map((l) => inner + l) : []),
          ...this.assigned(inner, `${inner}${p.key}: `, p.value, ","),
        ]);
        return [`${head}{`, ...body, `${indent}}${tail}`];
      }
      case "array":
        return [
          `${head}[`,
          ...e.items.flatMap((item) => this.expr(item, inner, inner, ",")),
          `${indent}]${tail}`,
        ];
      case "thunk":
        // `() =>` then the body on the next line (prettier keeps only objects and arrays on the arrow's line).
        return [`${head}() =>`, ...this.expr(e.body, inner, inner, tail)];
      case "call":
        return this.call(`${head}${PURE}${e.callee}(`, e.args, indent, tail);
      case "method": {
        // A method of a short chain (`integer.gte(0)`) breaks as a call; longer chains are not covered.
        if (e.target.kind !== "atom") this.w.exact = false;
        return this.call(`${head}${flat(e.target)}.${e.name}(`, e.args, indent, tail);
      }
    }
  }

  private call(open: string, args: ZExpr[], indent: string, tail: string): string[] {
    const inner = `${indent}  `;
    const last = args[args.length - 1];
    const others = args.slice(0, -1);
    if (last && others.every((a) => !forced(a))) {
      const before = others.map((a) => `${flat(a)}, `).join("");
      // The last argument hugs the call: `z.union([` ... `])`, `z.looseObject({` ... `})`.
      if (huggable(last) && this.fits(`${open}${before}${last.kind === "object" ? "{" : "["}`))
        return this.expr(last, indent, `${open}${before}`, `)${tail}`);
      if (last.kind === "thunk" && this.fits(`${open}${before}() =>`))
        return [...this.expr(last, indent, `${open}${before}`, ","), `${indent})${tail}`];
    }
    return [open, ...args.flatMap((a) => this.expr(a, inner, inner, ",")), `${indent})${tail}`];
  }
}
