import { CodeWriter, ident, num, prettierKey, quote } from "./printer.js";
import { renderDoc } from "../../schema/jsdoc.js";
import type { Declaration, ObjectMembers, Property, TypeExpr } from "../../schema/model.js";

// Prints the schema model back to TypeScript, already laid out as prettier lays it out
// (printWidth 100, two-space indent, double quotes): types.ts is the biggest file after the
// validators, and formatting it dominated generation time. The layout rules below cover
// the shapes the spec uses; anything else is printed correctly but marked `exact: false`
// (valid TypeScript, checked to parse, not prettier's layout). Every name and literal goes
// through packages/cli/src/generators/print/printer.ts, so no schema text reaches the output unescaped.

/** Printed declarations, and whether prettier would leave them exactly as they are. */
export interface PrintedDeclarations {
  code: string;
  exact: boolean;
}

/** Every declaration, one blank line apart, each with its JSDoc. */
export function printDeclarations(declarations: readonly Declaration[]): PrintedDeclarations {
  const w = new CodeWriter();
  writeDeclarations(w, declarations);
  return { code: w.text(), exact: w.exact };
}

/**
 * The declarations of `printDeclarations`, written into `w` at the top level (not inside a
 * block): line by line, measured by `w`'s width rule, so a file of them (types.ts) is built
 * in the one join of `w.toString` (types.ts is 1.9 MB, two bytes a character, for a schema
 * of 20 copies of 2026-07-28).
 */
export function writeDeclarations(w: CodeWriter, declarations: readonly Declaration[]): void {
  const p = new Printer(w);
  let first = true;
  for (const d of declarations) {
    if (!first) w.laidOut("");
    first = false;
    for (const line of p.declaration(d)) w.laidOut(line);
  }
}

/**
 * Declarations as prettier lays them out, measured by the CodeWriter they are written into
 * (its `fits`, the width rule of every file), which also records when a shape leaves the
 * layouts covered here (`exact`).
 */
class Printer {
  constructor(private readonly w: CodeWriter) {}

  private set exact(value: false) {
    this.w.exact = value;
  }

  /** Whether a line (already indented) fits the print width. */
  private fits(line: string): boolean {
    return this.w.fits(line);
  }

  declaration(d: Declaration): string[] {
    const name = ident(d.name, d.kind === "const" ? "constant" : "type name", d.loc);
    const exported = d.exported ? "export " : "";
    const lines = this.doc(renderDoc(d.doc), "");
    switch (d.kind) {
      case "const": {
        const value =
          typeof d.value === "string"
            ? quote(d.value)
            : typeof d.value === "number"
              ? num(d.value)
              : String(d.value);
        return [...lines, ...this.breakAfterOperator(`${exported}const ${name} = `, value, true)];
      }
      case "alias":
        return [...lines, ...this.alias(`${exported}type ${name} = `, d.type)];
      case "interface": {
        const bases = d.extends.map((t) => this.flat(t));
        let head = [
          `${exported}interface ${name}${bases.length > 0 ? ` extends ${bases.join(", ")}` : ""} {`,
        ];
        const [base] = d.extends;
        if (
          !this.fits(head[0]!) &&
          d.extends.length === 1 &&
          base?.kind === "omit" &&
          !hasObject(base.base)
        ) {
          // One Omit base breaks inside its type arguments, one a line (its keys as a union alias would).
          const keys = base.keys.length === 0 ? ["never"] : base.keys.map(quote);
          const keyLines = this.fits(`  ${keys.join(" | ")}`)
            ? [`  ${keys.join(" | ")}`]
            : keys.map((k) => `  | ${k}`);
          head = [
            `${exported}interface ${name} extends Omit<`,
            `  ${this.flat(base.base)},`,
            ...keyLines,
            "> {",
          ];
          if (!head.every((l) => this.fits(l))) this.exact = false;
        } else if (!this.fits(head[0]!)) {
          // Several bases move to their own line; other single bases break inside (not covered).
          const moved = `  extends ${bases.join(", ")} {`;
          if (bases.length < 2 || !this.fits(moved)) this.exact = false;
          head = [`${exported}interface ${name}`, moved];
        }
        return [...lines, ...this.withBody(head, d.members, "", "")];
      }
    }
  }

  /** `type X = ...;`: unions break after `=` (then one member a line), objects hug the `=`. */
  private alias(prefix: string, t: TypeExpr): string[] {
    if (t.kind === "union" && !t.members.some(hasObject)) {
      const members = t.members.map((m) => this.flat(m));
      const joined = members.join(" | ");
      if (this.fits(`${prefix}${joined};`)) return [`${prefix}${joined};`];
      if (this.fits(`  ${joined};`)) return [prefix.trimEnd(), `  ${joined};`];
      const lines = [
        prefix.trimEnd(),
        ...members.map((m, i) => `  | ${m}${i === members.length - 1 ? ";" : ""}`),
      ];
      if (!lines.every((l) => this.fits(l))) this.exact = false;
      return lines;
    }
    if (!hasObject(t)) return this.breakAfterOperator(prefix, this.flat(t), isAtomic(t));
    return this.typed(prefix, t, ";", "");
  }

  /** `prefix value;` on one line, or the value on the next line when that line is too long. */
  private breakAfterOperator(prefix: string, value: string, atomic: boolean): string[] {
    if (this.fits(`${prefix}${value};`)) return [`${prefix}${value};`];
    // Prettier breaks inside composite types (type arguments, arrays) first: not covered.
    if (!atomic) this.exact = false;
    return [prefix.trimEnd(), `  ${value};`];
  }

  /**
   * `prefix TYPE suffix` where `prefix` already holds the line's indentation. Objects are
   * always expanded, one member a line, as prettier keeps an object whose first member
   * starts on a new line.
   */
  private typed(prefix: string, t: TypeExpr, suffix: string, indent: string): string[] {
    if (!hasObject(t)) {
      const line = prefix + this.flat(t) + suffix;
      if (!this.fits(line)) this.exact = false;
      return [line];
    }
    if (t.kind === "object") return this.withBody([prefix + "{"], t.members, indent, suffix);
    // `{ ... }[]`: the array hugs the object.
    if (t.kind === "array" && t.element.kind === "object")
      return this.withBody([prefix + "{"], t.element.members, indent, `[]${suffix}`);
    const [first, second] = t.kind === "intersection" ? t.members : [];
    if (
      t.kind === "intersection" &&
      t.members.length === 2 &&
      first &&
      !hasObject(first) &&
      second?.kind === "object"
    ) {
      // `A & {` hugs the object (prettier's intersection of a non-object and an object).
      const head = `${prefix}${this.flat(first)} & {`;
      if (!this.fits(head)) this.exact = false;
      return this.withBody([head], second.members, indent, suffix);
    }
    // Objects inside unions, arrays or type arguments: correct (docs kept), but left to prettier to lay out.
    this.exact = false;
    return (prefix + this.flat(t, false, indent) + suffix).split("\n");
  }

  /** `head` (ending in `{`), the members one level deeper, then the closing `}`. */
  private withBody(
    head: string[],
    members: ObjectMembers,
    indent: string,
    suffix: string,
  ): string[] {
    const inner = `${indent}  `;
    const body: string[] = [];
    for (const p of members.properties)
      body.push(...this.doc(renderDoc(p.doc), inner), ...this.property(p, inner));
    const index = members.indexSignature;
    if (index) {
      const key = ident(index.keyName, "index signature key", index.loc);
      body.push(
        ...this.doc(renderDoc(index.doc), inner),
        ...this.typed(`${inner}[${key}: ${index.keyType}]: `, index.type, ";", inner),
      );
    }
    if (body.length === 0) return [...head.slice(0, -1), `${head[head.length - 1]!}}${suffix}`];
    return [...head, ...body, `${indent}}${suffix}`];
  }

  private property(p: Property, indent: string): string[] {
    // Prettier unquotes any ES5 identifier name, non-ASCII ones included; prettierKey only ASCII ones.
    if (
      /[^\x00-\x7f]/.test(p.name) &&
      /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u.test(p.name)
    )
      this.exact = false;
    return this.typed(
      `${indent}${prettierKey(p.name)}${p.optional ? "?" : ""}: `,
      p.type,
      ";",
      indent,
    );
  }

  private doc(rendered: string, indent: string): string[] {
    return rendered ? rendered.split("\n").map((line) => indent + line) : [];
  }

  /**
   * A type on one line. Objects only occur here in `display` text (as `{ a: T; b?: U }`) or,
   * given the `block` indentation, in output left to prettier (expanded, with their docs).
   */
  flat(t: TypeExpr, display = false, block?: string): string {
    const wrap = (m: TypeExpr, kinds: TypeExpr["kind"][]) =>
      kinds.includes(m.kind) ? `(${this.flat(m, display, block)})` : this.flat(m, display, block);
    const name = (n: string, at: TypeExpr["loc"]) => (display ? n : ident(n, "type reference", at));
    switch (t.kind) {
      case "keyword":
        return t.name;
      case "literal":
        return typeof t.value === "string"
          ? quote(t.value)
          : typeof t.value === "number"
            ? num(t.value)
            : String(t.value);
      case "typeof":
        return `typeof ${name(t.name, t.loc)}`;
      case "ref":
        return name(t.name, t.loc);
      case "array":
        return `${wrap(t.element, ["union", "intersection"])}[]`;
      case "object": {
        if (block !== undefined) return this.withBody(["{"], t.members, block, "").join("\n");
        const members = t.members.properties.map(
          (p) => `${prettierKey(p.name)}${p.optional ? "?" : ""}: ${this.flat(p.type, display)}`,
        );
        const index = t.members.indexSignature;
        if (index)
          members.push(
            `[${display ? index.keyName : ident(index.keyName, "index signature key", index.loc)}: ${index.keyType}]: ${this.flat(index.type, display)}`,
          );
        return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`;
      }
      case "union":
        return t.members.map((m) => this.flat(m, display, block)).join(" | ");
      case "intersection":
        return t.members.map((m) => wrap(m, ["union"])).join(" & ");
      case "omit":
        return `Omit<${this.flat(t.base, display, block)}, ${t.keys.length === 0 ? "never" : t.keys.map(quote).join(" | ")}>`;
      case "record":
        return `Record<${this.flat(t.key, display, block)}, ${this.flat(t.value, display, block)}>`;
    }
  }
}

function hasObject(t: TypeExpr): boolean {
  switch (t.kind) {
    case "object":
      return true;
    case "array":
      return hasObject(t.element);
    case "union":
    case "intersection":
      return t.members.some(hasObject);
    case "omit":
      return hasObject(t.base);
    case "record":
      return hasObject(t.key) || hasObject(t.value);
    default:
      return false;
  }
}

/** Types prettier cannot break inside, so a line too long moves them whole after the `=`. */
function isAtomic(t: TypeExpr): boolean {
  return t.kind === "keyword" || t.kind === "literal" || t.kind === "ref" || t.kind === "typeof";
}
