import type { Constraints, VSchema } from "../../schema/validation.js";
import { num, quote, type Call, type Statement } from "../print/printer.js";
import {
  call,
  lines,
  lit,
  litText,
  stop,
  not,
  NOT_OBJECT,
  pointerEscape,
  read,
  returns,
  type Discriminant,
  type Expr,
  type Stmt,
} from "./validator-expr.js";
import type { ValidationNames } from "./runtime-symbols.js";

// The bodies of the functions validator-code.ts hoists for arrays and unions told apart by
// one property (objects': validator-objects.ts): each as a boolean check (`$is`, the fast
// path) and as an error collector (`$va`). What they need of the writer (a child's check or
// collector, a named schema) comes through BodyWriter.

/** What the bodies need of the ValidatorWriter compiling them. */
export interface BodyWriter {
  /** A boolean expression testing `v` against `s`, `depth` levels below the function's `v`. */
  isExpr(s: VSchema, v: string, depth?: number): Expr;
  /** Statements collecting the errors of `v` against `s`, at path expression `p`. */
  vaStatements(s: VSchema, v: string, p: string, depth?: number): Stmt[];
  /** A call into a child's collector, whose errors then get the child's path `p` in front. */
  descend(collect: Call, p: string): Stmt[];
  /** A schema type by name (to order an object's property checks). */
  schemaNamed(name: string): VSchema | undefined;
  /** The object type `name`, if a check that uses it may write its checks in place. */
  smallObject(name: string): Extract<VSchema, { kind: "object" }> | undefined;
  /** The runtime's validation helpers, each recorded as used when named. */
  readonly rt: ValidationNames;
}

/** The path expression of a collector's own value: paths are relative to it. */
export const HERE = '""';

/** `$expected(...)` with its message prefix written here rather than built on every failure. */
export function expectedCall(rt: ValidationNames, p: string, expected: string, v: string): Call {
  return call(rt.$expected, ["e", p, quote(expected), quote(`expected ${expected}, found `), v]);
}

export function missingCall(rt: ValidationNames, path: string, name: string): Call {
  return call(rt.$missing, ["e", path, quote(`required property "${name}" is missing`)]);
}

// ---- the boolean fast path -------------------------------------------------------

export function arrayCheckBody(
  w: BodyWriter,

  s: Extract<VSchema, { kind: "array" }>,
  constraints: Constraints | undefined,
): Statement[] {
  const out: Statement[] = ["if (!Array.isArray(v)) return false;"];
  if (constraints?.maxItems !== undefined)
    out.push(`if (v.length > ${num(constraints.maxItems)}) return false;`);
  if (constraints?.minItems !== undefined)
    out.push(`if (v.length < ${num(constraints.minItems)}) return false;`);
  const check = w.isExpr(s.items, "x");
  if (check.code !== "true")
    out.push(
      "for (let i = 0; i < v.length; i++) {",
      "const x = v[i];",
      { if: not(check).code, then: "return false;" },
      "}",
    );
  out.push("return true;");
  return out;
}

export function discriminatedCheckBody(w: BodyWriter, disc: Discriminant): Statement[] {
  const out: Statement[] = [
    `if (${NOT_OBJECT}) return false;`,
    `switch (${read(w.rt, "v", disc.property)}) {`,
  ];
  for (const c of disc.cases)
    out.push(`case ${lit(c.value)}:`, { deeper: returns(w.isExpr(c.member, "v")) });
  out.push("default:", { deeper: "return false;" }, "}");
  return out;
}

// ---- the error collector -----------------------------------------------------------

export function arrayCollectorBody(
  w: BodyWriter,

  s: Extract<VSchema, { kind: "array" }>,
  constraints: Constraints | undefined,
): Statement[] {
  const out: Statement[] = [
    "if (!Array.isArray(v)) {",
    expectedCall(w.rt, HERE, "array", "v"),
    "return;",
    "}",
  ];
  const { maxItems, minItems } = constraints ?? {};
  if (maxItems !== undefined) {
    out.push(
      `if (v.length > ${num(maxItems)}) {`,
      call(w.rt.$fail, [
        "e",
        '""',
        `${quote(`must have at most ${maxItems} items, found `)} + v.length`,
        quote(`maxItems ${maxItems}`),
      ]),
      stop(w.rt),
      "}",
    );
  }
  if (minItems !== undefined) {
    out.push(
      `if (v.length < ${num(minItems)}) {`,
      call(w.rt.$fail, [
        "e",
        '""',
        `${quote(`must have at least ${minItems} items, found `)} + v.length`,
        quote(`minItems ${minItems}`),
      ]),
      stop(w.rt),
      "}",
    );
  }
  const checks = w.vaStatements(s.items, "x", '"/" + i');
  if (checks.length > 0)
    out.push(
      "for (let i = 0; i < v.length; i++) {",
      "const x = v[i];",
      ...lines(w.rt, checks),
      "}",
    );
  return out;
}

export function discriminatedCollectorBody(w: BodyWriter, disc: Discriminant): Statement[] {
  const path = quote("/" + pointerEscape(disc.property));
  const expected = disc.cases.map((c) => litText(c.value)).join(" | ");
  const out: Statement[] = [
    `if (${NOT_OBJECT}) {`,
    expectedCall(w.rt, HERE, "object", "v"),
    "return;",
    "}",
    `const t = ${read(w.rt, "v", disc.property)};`,
    "switch (t) {",
  ];
  for (const c of disc.cases) {
    out.push(
      `case ${lit(c.value)}:`,
      ...lines(w.rt, w.vaStatements(c.member, "v", HERE)).map((l) => ({ deeper: l })),
      { deeper: "return;" },
    );
  }
  out.push(
    "case undefined:",
    { deeper: missingCall(w.rt, path, disc.property) },
    { deeper: "return;" },
    "default:",
    { deeper: expectedCall(w.rt, path, expected, "t") },
    "}",
  );
  return out;
}
