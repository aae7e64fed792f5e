// RFC 6570 URI templates parsed: literals and expressions (section 2), which expansion
// (uri-template.ts) and matching (uri-template-match.ts) both read. Internal: the public
// names are re-exported by uri-template.ts.

/** An expression's operator (RFC 6570 section 2.2): "" for a simple `{x}`. */
export type TemplateOperator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

/** RFC 6570 appendix A: how each operator expands. */
export const OPERATORS: Record<
  TemplateOperator,
  { first: string; separator: string; named: boolean; ifEmpty: string; reserved: boolean }
> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", reserved: false },
};

export interface VariableSpec {
  readonly name: string;
  readonly explode: boolean;
  /** `{x:3}`: the first 3 characters. */
  readonly prefix: number | undefined;
  /** A prefix of a variable the template also has whole: not read from a URI. */
  readonly prefixOfNamed: boolean;
}

export interface Expression {
  readonly operator: TemplateOperator;
  readonly variables: readonly VariableSpec[];
}

/** A parsed template: literal text and expressions, in order. */
export type TemplatePart = string | Expression;

/** Expressions one template may hold (templates come from the server's author). */
const MAX_EXPRESSIONS = 64;

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:[A-Za-z0-9_.]|%[0-9A-Fa-f]{2})*$/;

/** `template`'s parts, each prefix variable marked whose name the template also has whole. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf("{", at);
    const close = template.indexOf("}", at);
    if (close !== -1 && (open === -1 || close < open))
      throw new TypeError(`URI template ${JSON.stringify(template)}: "}" without "{"`);
    if (open === -1) {
      parts.push(template.slice(at));
      break;
    }
    if (open > at) parts.push(template.slice(at, open));
    if (close === -1)
      throw new TypeError(`URI template ${JSON.stringify(template)}: "{" is not closed`);
    parts.push(parseExpression(template, template.slice(open + 1, close)));
    at = close + 1;
  }
  if (parts.filter((p) => typeof p !== "string").length > MAX_EXPRESSIONS)
    throw new TypeError(`URI template: more than ${MAX_EXPRESSIONS} expressions`);
  return markPrefixes(parts);
}

/** The parts, each prefix variable marked whose name is also in the template whole. */
function markPrefixes(parts: TemplatePart[]): TemplatePart[] {
  const specs = parts.flatMap((part) => (typeof part === "string" ? [] : part.variables));
  const whole = new Set(specs.filter((v) => v.prefix === undefined).map((v) => v.name));
  return parts.map((part) =>
    typeof part === "string"
      ? part
      : {
          ...part,
          variables: part.variables.map((v) => ({
            ...v,
            prefixOfNamed: v.prefix !== undefined && whole.has(v.name),
          })),
        },
  );
}

function parseExpression(template: string, body: string): Expression {
  const wrong = (why: string) =>
    new TypeError(`URI template ${JSON.stringify(template)}: {${body}} ${why}`);
  const first = body.charAt(0);
  const operator: TemplateOperator =
    first in OPERATORS && first !== "" ? (first as TemplateOperator) : "";
  // RFC 6570 section 2.2 reserves these for future extensions.
  if ("=,!@|".includes(first) && first !== "") throw wrong(`uses the reserved operator "${first}"`);
  const variables = body
    .slice(operator.length)
    .split(",")
    .map((spec): VariableSpec => {
      // The last ":" only (a regular expression here would backtrack over a spec of colons).
      const colon = spec.lastIndexOf(":");
      const length = colon === -1 ? "" : spec.slice(colon + 1);
      const prefixed = /^[1-9][0-9]{0,3}$/.test(length);
      const explode = spec.endsWith("*");
      const name = prefixed ? spec.slice(0, colon) : explode ? spec.slice(0, -1) : spec;
      if (!VARNAME.test(name)) throw wrong(`has an invalid variable name ${JSON.stringify(name)}`);
      const prefix = prefixed ? Number(length) : undefined;
      return { name, explode, prefix, prefixOfNamed: false };
    });
  return { operator, variables };
}
