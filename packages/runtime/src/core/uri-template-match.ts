// Matching, the inverse of expansion: which text of a URI each expression of a template
// expanded to (one linear pass of uri-template-vm.ts), then the variables read back from it,
// percent-decoded and checked against what the template allows. Internal: UriTemplate.match
// is the public face (its rules are listed at the top of uri-template.ts).

import {
  OPERATORS,
  type Expression,
  type TemplateOperator,
  type TemplatePart,
  type VariableSpec,
} from "./uri-template-syntax.js";
import {
  anyBut,
  capture,
  literal,
  optional,
  Program,
  repeat,
  sequence,
  type Pattern,
} from "./uri-template-vm.js";

/** What a template's author lets values hold beyond the defaults (every one off by default). */
export interface TemplateAllowances {
  /** `..` as a segment of a value (`{+path}`: `a/../b`; `{x}`: `..`). */
  readonly dotSegments?: boolean;
  /** NUL (`%00`) in a value of any operator but `{x}`'s, which never takes it. */
  readonly nul?: boolean;
}

/**
 * What each operator's expansion may contain, captured whole: `{x}`, `{.x}`, `{/x}` and
 * `{;x}` take as much as they can, `{+x}`, `{#x}`, `{?x}` and `{&x}` as little, as long as
 * the rest of the URI still matches (earlier expressions first).
 */
const CAPTURES: Record<TemplateOperator, Pattern> = {
  "": repeat(anyBut("/?#"), true),
  "+": repeat(anyBut(""), false),
  "#": optional(sequence(literal("#"), repeat(anyBut(""), false)), true),
  ".": repeat(sequence(literal("."), repeat(anyBut("/?#."), true)), true),
  "/": repeat(sequence(literal("/"), repeat(anyBut("/?#"), true)), true),
  ";": repeat(sequence(literal(";"), repeat(anyBut("/?#;"), true)), true),
  "?": optional(sequence(literal("?"), repeat(anyBut("#"), false)), true),
  "&": optional(sequence(literal("&"), repeat(anyBut("#"), false)), true),
};

/** A template's matcher: `run` finds each expression's text in a URI, or none. */
export function compileMatcher(parts: readonly TemplatePart[]): Program {
  let expressions = 0;
  const patterns = parts.map((part) =>
    typeof part === "string" ? literal(part) : capture(expressions++, CAPTURES[part.operator]),
  );
  return new Program(sequence(...patterns), expressions);
}

/** The variables of `uri`, read with `program` (compileMatcher's of `parts`), or undefined. */
export function matchTemplate(
  parts: readonly TemplatePart[],
  program: Program,
  uri: string,
  allow: TemplateAllowances,
): Record<string, string | string[]> | undefined {
  const { slots } = program.run(uri);
  if (slots === undefined) return undefined;
  const variables: Record<string, string | string[]> = {};
  let index = 0;
  for (const part of parts) {
    if (typeof part === "string") continue;
    const [start, end] = [slots[2 * index]!, slots[2 * index + 1]!];
    index++;
    const reader = new ExpressionReader(part, allow, variables);
    if (!reader.read(uri.slice(start, end))) return undefined;
  }
  return variables;
}

/** `{x}` never takes these once decoded: it names one segment (RFC 6570 encodes them there). */
const SIMPLE_REFUSED = /[/?#\\\0]/;
/** Operators whose values are paths or path segments: `..` there climbs a directory. */
const PATH_OPERATORS = new Set<TemplateOperator>(["", "+", "#", ".", "/"]);

/** Reads one expression's captured text into the variables; false: the URI does not match. */
class ExpressionReader {
  constructor(
    private readonly expression: Expression,
    private readonly allow: TemplateAllowances,
    private readonly into: Record<string, string | string[]>,
  ) {}

  read(captured: string): boolean {
    const op = OPERATORS[this.expression.operator];
    const text = captured.slice(captured === "" ? 0 : op.first.length);
    return op.named
      ? this.readNamed(captured === "" ? [] : text.split(op.separator))
      : this.readPositional(captured === "" && op.first !== "" ? undefined : text);
  }

  /** `{x,y}`, `{/x,list*}` ...: values in order; each non-exploded variable required. */
  private readPositional(text: string | undefined): boolean {
    const { variables, operator } = this.expression;
    const op = OPERATORS[operator];
    // One variable where the separator is ",": the whole text, commas and all.
    const items =
      text === undefined
        ? []
        : variables.length === 1 && !variables[0]!.explode && op.separator === ","
          ? [text]
          : text.split(op.separator);
    const decoded = items.map(decode);
    if (decoded.some((item) => item === undefined)) return false;
    const values = decoded as string[];
    let at = 0;
    for (const [i, variable] of variables.entries()) {
      if (variable.explode) {
        // A list takes what the variables after it leave.
        const rest = variables.length - i - 1;
        const taken = values.slice(at, Math.max(at, values.length - rest));
        at += taken.length;
        if (!this.agree(variable, taken)) return false;
        continue;
      }
      const value = values[at++];
      if (value === undefined || !this.agree(variable, value)) return false;
    }
    return at === values.length;
  }

  /** `{;x}`, `{?x,y}`, `{&list*}`: name=value pairs, in any order, each name declared. */
  private readNamed(pairs: readonly string[]): boolean {
    const { variables } = this.expression;
    const lists = new Map<string, string[]>();
    for (const v of variables) if (v.explode) lists.set(v.name, []);
    const seen = new Set<string>();
    for (const pair of pairs) {
      const equals = pair.indexOf("=");
      const name = decode(equals === -1 ? pair : pair.slice(0, equals));
      const value = decode(equals === -1 ? "" : pair.slice(equals + 1));
      const variable = variables.find((v) => v.name === name);
      if (variable === undefined || value === undefined) return false;
      const list = lists.get(variable.name);
      if (list !== undefined) list.push(value);
      else if (seen.has(variable.name) || !this.agree(variable, value)) return false;
      seen.add(variable.name);
    }
    for (const variable of variables) {
      const list = lists.get(variable.name);
      if (list !== undefined && !this.agree(variable, list)) return false;
    }
    return true;
  }

  /** Records `value` if allowed; false when refused, or named before with another value. */
  private agree(variable: VariableSpec, value: string | string[]): boolean {
    const items = typeof value === "string" ? [value] : value;
    if (items.some((item) => !this.allowed(item))) return false;
    // `{/var:1,var}`: the prefix is read where the template has the whole value too.
    if (variable.prefixOfNamed) return true;
    const before = this.into[variable.name];
    if (before !== undefined) return JSON.stringify(before) === JSON.stringify(value);
    this.into[variable.name] = value;
    return true;
  }

  /** Whether a decoded value is one the expression's operator (and the author) allows. */
  private allowed(value: string): boolean {
    const { operator } = this.expression;
    if (operator === "" && SIMPLE_REFUSED.test(value)) return false;
    if (!this.allow.nul && value.includes("\0")) return false;
    if (!this.allow.dotSegments && PATH_OPERATORS.has(operator) && hasDotDotSegment(value))
      return false;
    return true;
  }
}

/** Whether `value` has `..` between slashes or backslashes (or as all of it). */
function hasDotDotSegment(value: string): boolean {
  return value.includes("..") && value.split(/[/\\]/).includes("..");
}

/** Percent-decodes `text`; undefined for a malformed escape. */
function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
