import type { Constraints, Literal, ObjectProperty, VSchema } from "../schema/validation.js";
import { layout, num, str } from "./validator-layout.js";

// Compiles validation schemas to straight-line JavaScript: for each schema type a
// boolean check `$is_T(v, d)` (the fast path, no allocation) and an error collector
// `$va_T(v, p, e, d)` that only runs once the check failed. `d` is the nesting depth,
// so recursive types stop at MAX_DEPTH instead of overflowing the stack.
//
// Names: a schema type T owns `$is_T` and `$va_T` (after `$is`/`$va` always `_`); the
// helpers hoisted out of types are `$is$<n>` / `$va$<n>` and pattern constants `$re$<n>`
// (a `$` in that place), so no schema type name can produce a helper's name. Each schema
// node gets at most one helper of each kind, so output grows linearly with nesting.

/** Formats the generated preamble implements (as ajv-formats' "full" mode checks them). */
export const FORMAT_FUNCTIONS: Record<string, string> = {
  uri: "$fmtUri",
  byte: "$fmtByte",
  "uri-template": "$fmtUriTemplate",
};

/** Property names Object.prototype has: read as own properties only, or `{}` would have them. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Inline checks longer than this become a helper function (keeps lines within the page). */
const INLINE_MAX = 60;

const lit = (value: Literal): string => (typeof value === "string" ? str(value) : typeof value === "number" ? num(value) : String(value));
const litText = (value: Literal): string => (typeof value === "string" ? JSON.stringify(value) : String(value));

/** What a schema expects, for messages: `string`, `"tools/call"`, `object`... */
export function describeSchema(s: VSchema, depth = 0): string {
  switch (s.kind) {
    case "any":
      return "any value";
    case "never":
      return "no value";
    case "ref":
      return s.name;
    case "types":
      return s.types.join(" | ");
    case "const":
      return litText(s.value);
    case "enum":
      return s.values.map(litText).join(" | ");
    case "object":
      return "object";
    case "array":
      return "array";
    case "anyOf":
      return depth > 0 ? "union" : s.members.map((m) => describeSchema(m, depth + 1)).join(" | ");
    case "allOf":
      return s.members.map((m) => describeSchema(m, depth + 1)).join(" & ");
    case "constrained":
      return describeSchema(s.schema, depth);
  }
}

/** An expression and its top operator, so it is parenthesised exactly as prettier prints it. */
interface Expr {
  op: "atom" | "cmp" | "and" | "or";
  code: string;
}
const atom = (code: string): Expr => ({ op: "atom", code });
const cmp = (code: string): Expr => ({ op: "cmp", code });
const TRUE = atom("true");
const FALSE = atom("false");
function and(parts: Expr[]): Expr {
  const kept = parts.filter((x) => x.code !== "true");
  if (kept.length === 0) return TRUE;
  if (kept.length === 1) return kept[0]!;
  return { op: "and", code: kept.map((x) => (x.op === "or" ? `(${x.code})` : x.code)).join(" && ") };
}
function or(parts: Expr[]): Expr {
  if (parts.length === 1) return parts[0]!;
  return { op: "or", code: parts.map((x) => (x.op === "and" ? `(${x.code})` : x.code)).join(" || ") };
}
function not(x: Expr): Expr {
  if (x.code === "true") return FALSE;
  if (x.code === "false") return TRUE;
  return atom(x.op === "atom" ? `!${x.code}` : `!(${x.code})`);
}

/** A statement of the error collector: `if (cond) action;`, or lines as they are. */
type Stmt = { cond: Expr; action: string } | { lines: string[] };
const lines = (stmts: Stmt[]): string[] => stmts.flatMap((s) => ("lines" in s ? s.lines : [`if (${s.cond.code}) ${s.action}`]));

interface Discriminant {
  property: string;
  cases: { value: Literal; member: VSchema }[];
}

const NOT_OBJECT = 'typeof v !== "object" || v === null || Array.isArray(v)';

export class ValidatorWriter {
  /** Hoisted helper functions, laid out, in creation order (deterministic). */
  readonly helpers: string[] = [];
  /** Module-level constants (compiled patterns). */
  readonly constants: string[] = [];
  private counter = 0;
  private readonly isHelpers = new Map<VSchema, string>();
  private readonly vaHelpers = new Map<VSchema, string>();
  private readonly patterns = new Map<string, string>();

  constructor(
    private readonly schemas: ReadonlyMap<string, VSchema>,
    private readonly recursive: ReadonlySet<string>,
  ) {}

  /** The object schema behind refs, if the schema is (an alias of) an object. */
  private objectOf(s: VSchema, seen = new Set<string>()): Extract<VSchema, { kind: "object" }> | undefined {
    if (s.kind === "object") return s;
    if (s.kind === "ref" && !seen.has(s.name)) {
      seen.add(s.name);
      const target = this.schemas.get(s.name);
      return target ? this.objectOf(target, seen) : undefined;
    }
    return undefined;
  }

  private constOf(s: VSchema, seen = new Set<string>()): Literal | undefined {
    if (s.kind === "const") return s.value;
    if (s.kind === "ref" && !seen.has(s.name)) {
      seen.add(s.name);
      const target = this.schemas.get(s.name);
      return target ? this.constOf(target, seen) : undefined;
    }
    return undefined;
  }

  /** A required property with a distinct literal in every member (`method`, `type`). */
  discriminant(members: VSchema[]): Discriminant | undefined {
    const objects = members.map((m) => this.objectOf(m));
    if (objects.length < 2 || objects.some((o) => o === undefined)) return undefined;
    const [first] = objects as Extract<VSchema, { kind: "object" }>[];
    for (const candidate of first!.properties) {
      const cases: Discriminant["cases"] = [];
      for (const [i, o] of objects.entries()) {
        const p = o!.properties.find((x) => x.name === candidate.name);
        const value = p && p.required ? this.constOf(p.schema) : undefined;
        if (value === undefined || cases.some((c) => c.value === value)) break;
        cases.push({ value, member: members[i]! });
      }
      if (cases.length === members.length) return { property: candidate.name, cases };
    }
    return undefined;
  }

  // ---- the boolean fast path -------------------------------------------------------

  /** `$is_<name>(v, d)`, laid out. */
  isFunction(name: string): string {
    const guard = this.recursive.has(name) ? ["if (d > MAX_DEPTH) return false;"] : [];
    return layout([`function $is_${name}(v: any, d: number): boolean {`, ...guard, ...this.isBody(this.schemas.get(name)!), "}"]);
  }

  private isBody(s: VSchema): string[] {
    switch (s.kind) {
      case "object":
        return this.objectIsBody(s);
      case "array":
        return this.arrayIsBody(s, undefined);
      case "anyOf": {
        const disc = this.discriminant(s.members);
        if (disc) return this.discriminatedIsBody(disc);
        return [...s.members.map((m) => `if (${this.isExpr(m, "v").code}) return true;`), "return false;"];
      }
      case "allOf":
        return [...s.members.map((m) => `if (${not(this.isExpr(m, "v")).code}) return false;`), "return true;"];
      case "constrained":
        if (s.schema.kind === "array") return this.arrayIsBody(s.schema, s.constraints);
        return [
          `if (${not(this.isExpr(s.schema, "v")).code}) return false;`,
          ...this.constraintChecks(s, "v", false).map((c) => `if (${not(c.pass).code}) return false;`),
          "return true;",
        ];
      default:
        return [`return ${this.isExpr(s, "v").code};`];
    }
  }

  /** A boolean expression testing `v` (an identifier). Objects, arrays and long checks are hoisted. */
  isExpr(s: VSchema, v: string): Expr {
    switch (s.kind) {
      case "any":
        return TRUE;
      case "never":
        return FALSE;
      case "ref":
        return atom(`$is_${s.name}(${v}, d + 1)`);
      case "types":
        return or(s.types.map((t) => typeCheck(t, v)));
      case "const":
        return cmp(`${v} === ${lit(s.value)}`);
      case "enum":
        return this.short(s, v, or(s.values.map((x) => cmp(`${v} === ${lit(x)}`))));
      case "anyOf":
        if (this.discriminant(s.members)) return this.hoistIs(s, v);
        return this.short(s, v, or(s.members.map((m) => this.isExpr(m, v))));
      case "allOf":
        return this.short(s, v, and(s.members.map((m) => this.isExpr(m, v))));
      case "object":
      case "array":
        return this.hoistIs(s, v);
      case "constrained":
        if (s.schema.kind === "array") return this.hoistIs(s, v);
        return this.short(s, v, and([this.isExpr(s.schema, v), ...this.constraintChecks(s, v, false).map((c) => c.pass)]));
    }
  }

  private short(s: VSchema, v: string, inline: Expr): Expr {
    return inline.code.length <= INLINE_MAX ? inline : this.hoistIs(s, v);
  }

  private hoistIs(s: VSchema, v: string): Expr {
    let name = this.isHelpers.get(s);
    if (!name) {
      name = `$is$${++this.counter}`;
      this.isHelpers.set(s, name);
      this.helpers.push(layout([`function ${name}(v: any, d: number): boolean {`, ...this.isBody(s), "}"]));
    }
    return atom(`${name}(${v}, d)`);
  }

  private objectIsBody(s: Extract<VSchema, { kind: "object" }>): string[] {
    const out = [`if (${NOT_OBJECT}) return false;`];
    checkOrder(s.properties).forEach(([p, i]) => {
      const x = `p${i}`;
      out.push(`const ${x} = ${read("v", p.name)};`);
      const check = this.isExpr(p.schema, x);
      if (p.required) out.push(check.code === "true" ? `if (${x} === undefined) return false;` : `if (${not(check).code}) return false;`);
      else if (check.code !== "true") out.push(`if (${and([cmp(`${x} !== undefined`), not(check)]).code}) return false;`);
    });
    if (s.additional) {
      const check = this.isExpr(s.additional, "x");
      if (check.code !== "true") {
        out.push("for (const k in v) {", ...skipDeclared(s.properties), "const x = v[k];", `if (${not(check).code}) return false;`, "}");
      }
    }
    out.push("return true;");
    return out;
  }

  private arrayIsBody(s: Extract<VSchema, { kind: "array" }>, constraints: Constraints | undefined): string[] {
    const out = ["if (!Array.isArray(v)) return false;"];
    if (constraints?.maxItems !== undefined) out.push(`if (v.length > ${num(constraints.maxItems)}) return false;`);
    if (constraints?.minItems !== undefined) out.push(`if (v.length < ${num(constraints.minItems)}) return false;`);
    const check = this.isExpr(s.items, "x");
    if (check.code !== "true") out.push("for (let i = 0; i < v.length; i++) {", "const x = v[i];", `if (${not(check).code}) return false;`, "}");
    out.push("return true;");
    return out;
  }

  private discriminatedIsBody(disc: Discriminant): string[] {
    const out = [`if (${NOT_OBJECT}) return false;`, `switch (${read("v", disc.property)}) {`];
    for (const c of disc.cases) out.push(`case ${lit(c.value)}:`, `\treturn ${this.isExpr(c.member, "v").code};`);
    out.push("default:", "\treturn false;", "}");
    return out;
  }

  // ---- the error collector -----------------------------------------------------------

  /** `$va_<name>(v, p, e, d)`, laid out: pushes errors for `v` at pointer `p`. */
  validateFunction(name: string): string {
    const guard = this.recursive.has(name) ? ["if (d > MAX_DEPTH) return $tooDeep(e, p);"] : [];
    return layout([`function $va_${name}(v: any, p: string, e: $Errors, d: number): void {`, ...guard, ...this.vaBody(this.schemas.get(name)!), "}"]);
  }

  private vaBody(s: VSchema): string[] {
    switch (s.kind) {
      case "object":
        return this.objectVaBody(s);
      case "array":
        return this.arrayVaBody(s, undefined);
      case "constrained":
        if (s.schema.kind === "array") return this.arrayVaBody(s.schema, s.constraints);
        return lines(this.vaStatements(s, "v", "p"));
      case "anyOf": {
        const disc = this.discriminant(s.members);
        if (disc) return this.discriminatedVaBody(disc);
        return lines(this.vaStatements(s, "v", "p"));
      }
      default:
        return lines(this.vaStatements(s, "v", "p"));
    }
  }

  /** Statements that validate `v` at path expression `p`, pushing into `e`. */
  vaStatements(s: VSchema, v: string, p: string): Stmt[] {
    switch (s.kind) {
      case "any":
        return [];
      case "never":
        return [{ lines: [`$fail(e, ${p}, "no value is allowed here", undefined);`] }];
      case "ref":
        return [{ cond: not(atom(`$is_${s.name}(${v}, d + 1)`)), action: `$va_${s.name}(${v}, ${p}, e, d + 1);` }];
      case "types":
      case "const":
      case "enum":
        return [{ cond: not(this.isExpr(s, v)), action: `$expected(e, ${p}, ${str(describeSchema(s))}, ${v});` }];
      case "allOf":
        return s.members.flatMap((m) => this.vaStatements(m, v, p));
      case "anyOf": {
        if (this.discriminant(s.members)) return this.hoistVa(s, v, p);
        const members = s.members.map((m) => this.hoistVaFunction(m));
        return [{ cond: not(this.isExpr(s, v)), action: `$anyOf(e, ${p}, ${v}, d, [${members.join(", ")}], ${str(describeSchema(s))});` }];
      }
      case "object":
      case "array":
        return this.hoistVa(s, v, p);
      case "constrained": {
        if (s.schema.kind === "array") return this.hoistVa(s, v, p);
        const checks = this.constraintChecks(s, v, true).map((c) => ({
          cond: not(c.pass),
          action: `$fail(e, ${p}, ${c.message}, ${str(`${c.keyword} ${c.value}`)});`,
        }));
        return [...this.vaStatements(s.schema, v, p), ...checks];
      }
    }
  }

  private hoistVaFunction(s: VSchema): string {
    if (s.kind === "ref") return `$va_${s.name}`;
    let name = this.vaHelpers.get(s);
    if (!name) {
      name = `$va$${++this.counter}`;
      this.vaHelpers.set(s, name);
      this.helpers.push(layout([`function ${name}(v: any, p: string, e: $Errors, d: number): void {`, ...this.vaBody(s), "}"]));
    }
    return name;
  }

  private hoistVa(s: VSchema, v: string, p: string): Stmt[] {
    return [{ cond: not(this.isExpr(s, v)), action: `${this.hoistVaFunction(s)}(${v}, ${p}, e, d);` }];
  }

  private objectVaBody(s: Extract<VSchema, { kind: "object" }>): string[] {
    const out = [`if (${NOT_OBJECT}) {`, '$expected(e, p, "object", v);', "return;", "}"];
    checkOrder(s.properties).forEach(([p, i], order) => {
      const x = `p${i}`;
      const path = `p + ${str("/" + pointerEscape(p.name))}`;
      const checks = this.vaStatements(p.schema, x, path);
      // First-error mode (a limit of 1) returns as soon as it has its error.
      if (order > 0) out.push("if (e.length >= $limit) return;");
      out.push(`const ${x} = ${read("v", p.name)};`);
      const missing = `$missing(e, ${path}, ${str(p.name)});`;
      const single = checks.length === 1 && "cond" in checks[0]! ? checks[0] : undefined;
      if (p.required) {
        out.push(`if (${x} === undefined) ${missing}`);
        if (single) out.push(`else if (${single.cond.code}) ${single.action}`);
        else if (checks.length > 0) out.push("else {", ...lines(checks), "}");
      } else if (single) {
        out.push(`if (${and([cmp(`${x} !== undefined`), single.cond]).code}) ${single.action}`);
      } else if (checks.length > 0) {
        out.push(`if (${x} !== undefined) {`, ...lines(checks), "}");
      }
    });
    if (s.additional) {
      const checks = this.vaStatements(s.additional, "x", 'p + "/" + $escape(k)');
      if (checks.length > 0) {
        out.push("for (const k in v) {", "if (e.length >= $limit) return;", ...skipDeclared(s.properties), "const x = v[k];", ...lines(checks), "}");
      }
    }
    return out;
  }

  private arrayVaBody(s: Extract<VSchema, { kind: "array" }>, constraints: Constraints | undefined): string[] {
    const out = ["if (!Array.isArray(v)) {", '$expected(e, p, "array", v);', "return;", "}"];
    const { maxItems, minItems } = constraints ?? {};
    if (maxItems !== undefined) {
      out.push(`if (v.length > ${num(maxItems)}) $fail(e, p, ${str(`must have at most ${maxItems} items, found `)} + v.length, ${str(`maxItems ${maxItems}`)});`);
    }
    if (minItems !== undefined) {
      out.push(`if (v.length < ${num(minItems)}) $fail(e, p, ${str(`must have at least ${minItems} items, found `)} + v.length, ${str(`minItems ${minItems}`)});`);
    }
    const checks = this.vaStatements(s.items, "x", 'p + "/" + i');
    if (checks.length > 0) out.push("for (let i = 0; i < v.length && e.length < $limit; i++) {", "const x = v[i];", ...lines(checks), "}");
    return out;
  }

  private discriminatedVaBody(disc: Discriminant): string[] {
    const path = `p + ${str("/" + pointerEscape(disc.property))}`;
    const expected = str(disc.cases.map((c) => litText(c.value)).join(" | "));
    const out = [`if (${NOT_OBJECT}) {`, '$expected(e, p, "object", v);', "return;", "}", `const t = ${read("v", disc.property)};`, "switch (t) {"];
    for (const c of disc.cases) {
      out.push(`case ${lit(c.value)}:`, ...lines(this.vaStatements(c.member, "v", "p")).map((l) => `\t${l}`), "\treturn;");
    }
    out.push("case undefined:", `\t$missing(e, ${path}, ${str(disc.property)});`, "\treturn;", "default:", `\t$expected(e, ${path}, ${expected}, t);`, "}");
    return out;
  }

  // ---- keyword constraints -----------------------------------------------------------

  /**
   * Each keyword as a condition that holds when `v` passes it. Keywords apply only to values
   * of their JSON type; `guarded: false` drops that guard where the constrained schema has
   * already checked the type (only valid in a conjunction after that check).
   */
  private constraintChecks(s: Extract<VSchema, { kind: "constrained" }>, v: string, guarded: boolean) {
    const c = s.constraints;
    const only = (types: string[]) => !guarded && s.schema.kind === "types" && s.schema.types.every((t) => types.includes(t));
    const ifNumber = (test: Expr) => (only(["integer", "number"]) ? test : or([cmp(`typeof ${v} !== "number"`), test]));
    const ifString = (test: Expr) => (only(["string"]) ? test : or([cmp(`typeof ${v} !== "string"`), test]));
    const out: { keyword: keyof Constraints; value: string; pass: Expr; message: string }[] = [];
    const numeric = (keyword: keyof Constraints, op: string, words: string) => {
      const bound = c[keyword] as number | undefined;
      if (bound === undefined) return;
      out.push({ keyword, value: String(bound), pass: ifNumber(cmp(`${v} ${op} ${num(bound)}`)), message: `${str(`must be ${words} ${bound}, found `)} + ${v}` });
    };
    numeric("minimum", ">=", ">=");
    numeric("maximum", "<=", "<=");
    numeric("exclusiveMinimum", ">", ">");
    numeric("exclusiveMaximum", "<", "<");
    if (c.multipleOf !== undefined) {
      out.push({ keyword: "multipleOf", value: String(c.multipleOf), pass: ifNumber(atom(`$multipleOf(${v}, ${num(c.multipleOf)})`)), message: str(`must be a multiple of ${c.multipleOf}`) });
    }
    const format = c.format ? FORMAT_FUNCTIONS[c.format] : undefined;
    if (format) {
      out.push({ keyword: "format", value: c.format!, pass: ifString(atom(`${format}(${v})`)), message: `${str(`must be a valid ${c.format}, found `)} + $describe(${v})` });
    }
    if (c.minLength !== undefined) {
      out.push({ keyword: "minLength", value: String(c.minLength), pass: ifString(cmp(`$length(${v}) >= ${num(c.minLength)}`)), message: str(`must have at least ${c.minLength} characters`) });
    }
    if (c.maxLength !== undefined) {
      out.push({ keyword: "maxLength", value: String(c.maxLength), pass: ifString(cmp(`$length(${v}) <= ${num(c.maxLength)}`)), message: str(`must have at most ${c.maxLength} characters`) });
    }
    if (c.pattern !== undefined) {
      out.push({ keyword: "pattern", value: c.pattern, pass: ifString(atom(`${this.patternConstant(c.pattern)}.test(${v})`)), message: str(`must match the pattern ${JSON.stringify(c.pattern)}`) });
    }
    return out;
  }

  /** Patterns are compiled once, at module load, not on every call. */
  private patternConstant(pattern: string): string {
    let name = this.patterns.get(pattern);
    if (!name) {
      name = `$re$${this.patterns.size + 1}`;
      this.patterns.set(pattern, name);
      this.constants.push(layout([`const ${name} = new RegExp(${str(pattern)}, "u");`]));
    }
    return name;
  }
}

function typeCheck(t: string, v: string): Expr {
  switch (t) {
    case "string":
    case "boolean":
      return cmp(`typeof ${v} === "${t}"`);
    case "null":
      return cmp(`${v} === null`);
    case "integer":
      return atom(`Number.isInteger(${v})`);
    case "number":
      return atom(`Number.isFinite(${v})`);
    default:
      throw new Error(`unknown JSON type ${t}`);
  }
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

function access(name: string): string {
  return IDENT.test(name) ? `.${name}` : `[${str(name)}]`;
}

/** Reads an own property: names Object.prototype also has are checked with hasOwnProperty. */
function read(v: string, name: string): string {
  return INHERITED.has(name) ? `$own(${v}, ${str(name)}) ? ${v}${access(name)} : undefined` : `${v}${access(name)}`;
}

/** In a `for (const k in v)` loop: skip inherited keys and the declared properties. */
function skipDeclared(properties: ObjectProperty[]): string[] {
  const out = ["if (!$own(v, k)) continue;"];
  if (properties.length === 0) return out;
  const test = properties.map((p) => `k === ${str(p.name)}`).join(" || ");
  if (test.length <= INLINE_MAX) return [...out, `if (${test}) continue;`];
  return [...out, "switch (k) {", ...properties.map((p) => `case ${str(p.name)}:`), "\tcontinue;", "}"];
}

/**
 * The order properties are checked in (and errors reported in): those with an inline check
 * of a primitive first, then the others, each group in declaration order. An invalid value
 * is then usually rejected before any nested object is walked.
 */
function checkOrder(properties: ObjectProperty[]): [ObjectProperty, number][] {
  const cheap = (s: VSchema): boolean =>
    s.kind === "const" || s.kind === "enum" || s.kind === "types" || (s.kind === "constrained" && cheap(s.schema));
  const indexed = properties.map((p, i): [ObjectProperty, number] => [p, i]);
  return [...indexed.filter(([p]) => cheap(p.schema)), ...indexed.filter(([p]) => !cheap(p.schema))];
}

/** RFC 6901: `~` and `/` in a key become `~0` and `~1`. */
export function pointerEscape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
