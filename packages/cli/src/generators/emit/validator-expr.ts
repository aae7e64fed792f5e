import type { Literal, ObjectProperty, VSchema } from "../../schema/validation.js";
import { num, quote, type Arg, type Call, type Statement } from "../print/printer.js";
import type { ValidationNames } from "./runtime-symbols.js";

// The expressions and statements the validator writer (validator-code.ts) is built from:
// checks with their top operator (so they print parenthesised as prettier prints them),
// property reads, key loops, and the order properties are checked in.

/** Property names Object.prototype has: read as own properties only, or `{}` would have them. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Inline checks longer than this become a helper function (keeps lines within the page). */
export const INLINE_MAX = 60;

export const lit = (value: Literal): string =>
  typeof value === "string" ? quote(value) : typeof value === "number" ? num(value) : String(value);
export const litText = (value: Literal): string =>
  typeof value === "string" ? JSON.stringify(value) : String(value);

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

/**
 * An expression and its top operator, so it is parenthesised exactly as prettier prints it;
 * a call keeps its callee and arguments, so a statement returning it can break them.
 */
export interface Expr {
  op: "atom" | "cmp" | "and" | "or";
  code: string;
  call?: { callee: string; args: readonly string[] };
}
export const atom = (code: string): Expr => ({ op: "atom", code });
export const callExpr = (callee: string, args: readonly string[]): Expr => ({
  op: "atom",
  code: `${callee}(${args.join(", ")})`,
  call: { callee, args },
});

/** `callee(args);` as a statement. */
export const call = (callee: string, args: readonly Arg[]): Call => ({
  head: callee,
  args,
  tail: ";",
});

/** `return x;`: a call breaks its arguments when the line is too long. */
export const returns = (x: Expr): Statement =>
  x.call ? { head: `return ${x.call.callee}`, args: x.call.args, tail: ";" } : `return ${x.code};`;
export const cmp = (code: string): Expr => ({ op: "cmp", code });
export const TRUE = atom("true");
export const FALSE = atom("false");
export function and(parts: Expr[]): Expr {
  const kept = parts.filter((x) => x.code !== "true");
  if (kept.length === 0) return TRUE;
  if (kept.length === 1) return kept[0]!;
  return {
    op: "and",
    code: kept.map((x) => (x.op === "or" ? `(${x.code})` : x.code)).join(" && "),
  };
}
export function or(parts: Expr[]): Expr {
  if (parts.length === 1) return parts[0]!;
  return {
    op: "or",
    code: parts.map((x) => (x.op === "and" ? `(${x.code})` : x.code)).join(" || "),
  };
}
export function not(x: Expr): Expr {
  if (x.code === "true") return FALSE;
  if (x.code === "false") return TRUE;
  return atom(x.op === "atom" ? `!${x.code}` : `!(${x.code})`);
}

/**
 * Stops collecting once the limit is reached (1 in first-error mode). Written only after a
 * push, never between checks: a valid value then pays no limit check at all (a push past
 * the limit is dropped anyway, so the check only saves work).
 */
export const stop = (rt: ValidationNames): string => `if (e.length >= ${rt.$limit}) return;`;

/** A statement of the error collector: `if (cond) { action; stop }`, or lines as they are. */
export type Stmt = { cond: Expr; action: Statement } | { lines: Statement[] };
export const lines = (rt: ValidationNames, stmts: Stmt[]): Statement[] =>
  stmts.flatMap((s) =>
    "lines" in s ? s.lines : [`if (${s.cond.code}) {`, s.action, stop(rt), "}"],
  );

export interface Discriminant {
  property: string;
  cases: { value: Literal; member: VSchema }[];
}

export const NOT_OBJECT = 'typeof v !== "object" || v === null || Array.isArray(v)';
/** NOT_OBJECT of the local `x`. */
export const notObject = (x: string): string =>
  `typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})`;
/** The depth argument of a check `depth` levels below the function's own value: `d`, `d + 1`... */
export const depthArg = (depth: number): string => (depth === 0 ? "d" : `d + ${depth}`);

export function typeCheck(t: string, v: string): Expr {
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
  return IDENT.test(name) ? `.${name}` : `[${quote(name)}]`;
}

/** Reads an own property: names Object.prototype also has are checked with hasOwnProperty. */
export function read(rt: ValidationNames, v: string, name: string): string {
  return INHERITED.has(name)
    ? `${rt.$own}(${v}, ${quote(name)}) ? ${v}${access(name)} : undefined`
    : `${v}${access(name)}`;
}

/** In a `for (const k in v)` loop: skip inherited keys and the declared properties. */
/** The properties an object's validator checks itself: those its `bases` do not check. */
export function ownProperties(s: Extract<VSchema, { kind: "object" }>): ObjectProperty[] {
  const inherited = s.inherited;
  return inherited ? s.properties.filter((p) => !inherited.has(p.name)) : s.properties;
}

export function skipDeclared(rt: ValidationNames, properties: ObjectProperty[]): Statement[] {
  const out = [`if (!${rt.$own}(v, k)) continue;`];
  if (properties.length === 0) return out;
  const test = properties.map((p) => `k === ${quote(p.name)}`).join(" || ");
  if (test.length <= INLINE_MAX) return [...out, `if (${test}) continue;`];
  return [
    ...out,
    "switch (k) {",
    ...properties.map((p) => `case ${quote(p.name)}:`),
    { deeper: "continue;" },
    "}",
  ];
}

/**
 * The order properties are checked in (and errors reported in): those with an inline check
 * of a primitive (or a reference to one, `id: RequestId`) first, then the others, each group
 * in declaration order. An invalid value is then usually rejected before any nested object
 * is walked, and first-error mode stops early as ajv(allErrors: false) does.
 */
export function checkOrder(
  properties: ObjectProperty[],
  resolve: (name: string) => VSchema | undefined,
): [ObjectProperty, number][] {
  // `seen` stops alias cycles (type A = B; type B = A).
  const cheap = (s: VSchema, seen = new Set<string>()): boolean => {
    if (s.kind === "ref") {
      const target = seen.has(s.name) ? undefined : resolve(s.name);
      return target !== undefined && cheap(target, seen.add(s.name));
    }
    return (
      s.kind === "const" ||
      s.kind === "enum" ||
      s.kind === "types" ||
      (s.kind === "constrained" && cheap(s.schema, seen))
    );
  };
  const indexed = properties.map((p, i): [ObjectProperty, number] => [p, i]);
  return [
    ...indexed.filter(([p]) => cheap(p.schema)),
    ...indexed.filter(([p]) => !cheap(p.schema)),
  ];
}

/** RFC 6901: `~` and `/` in a key become `~0` and `~1`. */
export function pointerEscape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
