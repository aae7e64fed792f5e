import type { Constraints, VSchema } from "../../schema/validation.js";
import { num, quote } from "../print/printer.js";
import { atom, cmp, or, type Expr } from "./validator-expr.js";
import type { ValidationNames } from "./runtime-symbols.js";

// The keyword constraints of a validation schema (minimum, format, pattern, ...) as
// conditions, shared by the boolean checks and the error collectors of validator-code.ts.

/** Formats the generated preamble implements (as ajv-formats' "full" mode checks them). */
const FORMAT_FUNCTIONS: Record<string, keyof ValidationNames> = {
  uri: "$fmtUri",
  byte: "$fmtByte",
  "uri-template": "$fmtUriTemplate",
};

/**
 * Each keyword as a condition that holds when `v` passes it. Keywords apply only to values
 * of their JSON type; `guarded: false` drops that guard where the constrained schema has
 * already checked the type (only valid in a conjunction after that check).
 */
export function constraintChecks(
  rt: ValidationNames,
  s: Extract<VSchema, { kind: "constrained" }>,
  v: string,
  guarded: boolean,
  patternConstant: (pattern: string) => string,
) {
  const c = s.constraints;
  const only = (types: string[]) =>
    !guarded && s.schema.kind === "types" && s.schema.types.every((t) => types.includes(t));
  const ifNumber = (test: Expr) =>
    only(["integer", "number"]) ? test : or([cmp(`typeof ${v} !== "number"`), test]);
  const ifString = (test: Expr) =>
    only(["string"]) ? test : or([cmp(`typeof ${v} !== "string"`), test]);
  const out: { keyword: keyof Constraints; value: string; pass: Expr; message: string }[] = [];
  const numeric = (keyword: keyof Constraints, op: string, words: string) => {
    const bound = c[keyword] as number | undefined;
    if (bound === undefined) return;
    out.push({
      keyword,
      value: String(bound),
      pass: ifNumber(cmp(`${v} ${op} ${num(bound)}`)),
      message: `${quote(`must be ${words} ${bound}, found `)} + ${v}`,
    });
  };
  numeric("minimum", ">=", ">=");
  numeric("maximum", "<=", "<=");
  numeric("exclusiveMinimum", ">", ">");
  numeric("exclusiveMaximum", "<", "<");
  if (c.multipleOf !== undefined) {
    out.push({
      keyword: "multipleOf",
      value: String(c.multipleOf),
      pass: ifNumber(atom(`${rt.$multipleOf}(${v}, ${num(c.multipleOf)})`)),
      message: quote(`must be a multiple of ${c.multipleOf}`),
    });
  }
  const helper = c.format ? FORMAT_FUNCTIONS[c.format] : undefined;
  const format = helper && rt[helper];
  if (format) {
    out.push({
      keyword: "format",
      value: c.format!,
      pass: ifString(atom(`${format}(${v})`)),
      message: `${rt.$found}(${quote(`must be a valid ${c.format}, found `)}, ${v})`,
    });
  }
  if (c.minLength !== undefined) {
    out.push({
      keyword: "minLength",
      value: String(c.minLength),
      pass: ifString(cmp(`${rt.$length}(${v}) >= ${num(c.minLength)}`)),
      message: quote(`must have at least ${c.minLength} characters`),
    });
  }
  if (c.maxLength !== undefined) {
    out.push({
      keyword: "maxLength",
      value: String(c.maxLength),
      pass: ifString(cmp(`${rt.$length}(${v}) <= ${num(c.maxLength)}`)),
      message: quote(`must have at most ${c.maxLength} characters`),
    });
  }
  if (c.pattern !== undefined) {
    out.push({
      keyword: "pattern",
      value: c.pattern,
      pass: ifString(atom(`${patternConstant(c.pattern)}.test(${v})`)),
      message: quote(`must match the pattern ${JSON.stringify(c.pattern)}`),
    });
  }
  return out;
}
