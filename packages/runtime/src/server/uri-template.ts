// RFC 6570 URI templates: expansion (levels 1 to 4, lists but not associative arrays) and
// matching, its inverse, which resources/read needs to find the template a URI came from.
// Hand-written rather than a dependency: the runtime core has none, and the libraries that
// match (not only expand) are either unmaintained or CommonJS. Matching is not defined by the
// RFC (section 1.4: "some URI Templates can be used in reverse"); the rules here:
// - a variable of a simple, reserved, fragment, label or path expression (`{x}`, `{+x}`,
//   `{#x}`, `{.x}`, `{/x}`) is required: a URI without it does not match;
// - a variable of a named expression (`{;x}`, `{?x}`, `{&x}`) is optional, and its pairs may
//   come in any order, but a name the expression does not declare makes the URI not match;
// - an exploded variable (`{/list*}`, `{?list*}`) is a list (possibly empty);
// - `{x}` takes no "/", "?" or "#" (the RFC encodes them there); `{+x}` and `{#x}` take any
//   character, as few as the rest of the template lets them;
// - values are percent-decoded; a malformed escape makes the URI not match.

/** A variable's value for expansion: a string, or a list of strings (undefined: left out). */
export type TemplateValue = string | readonly string[] | undefined;

/** An expression's operator (RFC 6570 section 2.2): "" for a simple `{x}`. */
export type TemplateOperator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";
type Operator = TemplateOperator;

/** One variable as one expression of a template uses it. */
export interface TemplateVariableUse {
  readonly name: string;
  readonly operator: TemplateOperator;
  /** `{x*}`: a list whose items expand one by one. */
  readonly explode: boolean;
  /** `{x:3}`: the first 3 characters. */
  readonly prefix: number | undefined;
}

/** RFC 6570 appendix A: how each operator expands. */
const OPERATORS: Record<
  Operator,
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

/** What each operator's expansion may contain, as a regular expression that captures it all. */
const CAPTURES: Record<Operator, string> = {
  "": "([^/?#]*)",
  "+": "(.*?)",
  "#": "((?:#.*?)?)",
  ".": "((?:\\.[^/?#.]*)*)",
  "/": "((?:/[^/?#]*)*)",
  ";": "((?:;[^/?#;]*)*)",
  "?": "((?:\\?[^#]*?)?)",
  "&": "((?:&[^#]*?)?)",
};

interface VariableSpec {
  readonly name: string;
  readonly explode: boolean;
  /** `{x:3}`: the first 3 characters. */
  readonly prefix: number | undefined;
  /** A prefix of a variable the template also has whole: not read from a URI. */
  readonly prefixOfNamed: boolean;
}

interface Expression {
  readonly operator: Operator;
  readonly variables: readonly VariableSpec[];
}

/** URIs longer than this match no template (matching backtracks; a peer sends the URI). */
export const MAX_MATCHED_URI_LENGTH = 8192;
/** Expressions one template may hold (templates come from the server's author). */
const MAX_EXPRESSIONS = 64;

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:[A-Za-z0-9_.]|%[0-9A-Fa-f]{2})*$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const PERCENT_TRIPLET = /^%[0-9A-Fa-f]{2}/;

/**
 * One RFC 6570 URI template, parsed once: `expand` fills it in, `match` reads the variables
 * back out of a URI (see the rules above). The constructor throws a TypeError naming what is
 * wrong with a malformed template.
 */
export class UriTemplate {
  readonly template: string;
  /** Every variable name, in template order, each once. */
  readonly variableNames: readonly string[];
  /**
   * Each variable of each expression, in template order (a name the template uses twice is
   * here twice): what a generator needs to type the values `expand` takes.
   */
  readonly variableUses: readonly TemplateVariableUse[];
  private readonly parts: readonly (string | Expression)[];
  private readonly pattern: RegExp;

  constructor(template: string) {
    if (typeof template !== "string") throw new TypeError("A URI template must be a string");
    this.template = template;
    this.parts = markPrefixes(parseTemplate(template));
    this.variableUses = this.expressions().flatMap((e) =>
      e.variables.map(({ name, explode, prefix }) => ({
        name,
        operator: e.operator,
        explode,
        prefix,
      })),
    );
    this.variableNames = [...new Set(this.variableUses.map((v) => v.name))];
    const source = this.parts
      .map((part) => (typeof part === "string" ? escapeRegExp(part) : CAPTURES[part.operator]))
      .join("");
    this.pattern = new RegExp(`^${source}$`, "s");
  }

  /** Whether `text` has any expression, i.e. names a template rather than one URI. */
  static isTemplate(text: string): boolean {
    return /\{[^{}]+\}/.test(text);
  }

  /** The URI this template names with `variables` (RFC 6570 section 3). */
  expand(variables: { readonly [name: string]: TemplateValue }): string {
    return this.parts
      .map((part) => (typeof part === "string" ? part : expandExpression(part, variables)))
      .join("");
  }

  /**
   * The variables of `uri` if this template could have expanded to it, else undefined.
   * Lists (exploded variables) come back as arrays; optional variables absent are left out.
   */
  match(uri: string): Record<string, string | string[]> | undefined {
    if (typeof uri !== "string" || uri.length > MAX_MATCHED_URI_LENGTH) return undefined;
    const found = this.pattern.exec(uri);
    if (found === null) return undefined;
    const variables: Record<string, string | string[]> = {};
    const expressions = this.expressions();
    for (const [i, expression] of expressions.entries()) {
      if (!readExpression(expression, found[i + 1] ?? "", variables)) return undefined;
    }
    return variables;
  }

  toString(): string {
    return this.template;
  }

  private expressions(): Expression[] {
    return this.parts.filter((part): part is Expression => typeof part !== "string");
  }
}

function parseTemplate(template: string): (string | Expression)[] {
  const parts: (string | Expression)[] = [];
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
  return parts;
}

/** The parts, each prefix variable marked whose name is also in the template whole. */
function markPrefixes(parts: (string | Expression)[]): (string | Expression)[] {
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
  const operator: Operator = first in OPERATORS && first !== "" ? (first as Operator) : "";
  // RFC 6570 section 2.2 reserves these for future extensions.
  if ("=,!@|".includes(first) && first !== "") throw wrong(`uses the reserved operator "${first}"`);
  const variables = body
    .slice(operator.length)
    .split(",")
    .map((spec): VariableSpec => {
      const prefixed = /^(.*):([1-9][0-9]{0,3})$/.exec(spec);
      const explode = spec.endsWith("*");
      const name = prefixed ? prefixed[1]! : explode ? spec.slice(0, -1) : spec;
      if (!VARNAME.test(name)) throw wrong(`has an invalid variable name ${JSON.stringify(name)}`);
      const prefix = prefixed ? Number(prefixed[2]) : undefined;
      return { name, explode, prefix, prefixOfNamed: false };
    });
  return { operator, variables };
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/** `value` percent-encoded, keeping unreserved characters (and reserved ones if `reserved`). */
function encode(value: string, reserved: boolean): string {
  let out = "";
  for (let i = 0; i < value.length;) {
    const char = String.fromCodePoint(value.codePointAt(i)!);
    i += char.length;
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) out += char;
    // {+x} and {#x} pass percent-encoded triplets through as they are (RFC 6570 3.2.1).
    else if (reserved && char === "%" && PERCENT_TRIPLET.test(value.slice(i - 1))) out += char;
    else
      for (const byte of new TextEncoder().encode(char))
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function expandExpression(
  expression: Expression,
  variables: { readonly [name: string]: TemplateValue },
): string {
  const op = OPERATORS[expression.operator];
  const expanded: string[] = [];
  for (const { name, explode, prefix } of expression.variables) {
    const value = Object.prototype.hasOwnProperty.call(variables, name)
      ? variables[name]
      : undefined;
    // An undefined variable, or an empty list, is left out (RFC 6570 section 2.3).
    if (value === undefined || value === null || (typeof value !== "string" && value.length === 0))
      continue;
    const pair = (text: string) =>
      op.named ? `${name}${text === "" ? op.ifEmpty : `=${text}`}` : text;
    if (typeof value === "string") {
      const cut = prefix === undefined ? value : [...value].slice(0, prefix).join("");
      expanded.push(pair(encode(cut, op.reserved)));
    } else if (!explode) {
      expanded.push(pair(value.map((item) => encode(item, op.reserved)).join(",")));
    } else {
      for (const item of value) expanded.push(pair(encode(item, op.reserved)));
    }
  }
  return expanded.length === 0 ? "" : op.first + expanded.join(op.separator);
}

/** Percent-decodes `text`; undefined for a malformed escape. */
function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Reads one expression's variables from its captured text into `into`; false: no match. */
function readExpression(
  expression: Expression,
  captured: string,
  into: Record<string, string | string[]>,
): boolean {
  const op = OPERATORS[expression.operator];
  const text = captured.slice(captured === "" ? 0 : op.first.length);
  return op.named
    ? readNamed(expression, captured === "" ? [] : text.split(op.separator), into)
    : readPositional(expression, captured === "" && op.first !== "" ? undefined : text, into);
}

/** `{x,y}`, `{/x,list*}` ...: values in order; each non-exploded variable required. */
function readPositional(
  expression: Expression,
  text: string | undefined,
  into: Record<string, string | string[]>,
): boolean {
  const { variables, operator } = expression;
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
      if (!agree(into, variable, taken)) return false;
      continue;
    }
    const value = values[at++];
    if (value === undefined || !agree(into, variable, value)) return false;
  }
  return at === values.length;
}

/** `{;x}`, `{?x,y}`, `{&list*}`: name=value pairs, in any order, each name declared. */
function readNamed(
  expression: Expression,
  pairs: readonly string[],
  into: Record<string, string | string[]>,
): boolean {
  const lists = new Map<string, string[]>();
  for (const v of expression.variables) if (v.explode) lists.set(v.name, []);
  const seen = new Set<string>();
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    const name = decode(equals === -1 ? pair : pair.slice(0, equals));
    const value = decode(equals === -1 ? "" : pair.slice(equals + 1));
    const variable = expression.variables.find((v) => v.name === name);
    if (variable === undefined || value === undefined) return false;
    const list = lists.get(variable.name);
    if (list !== undefined) list.push(value);
    else if (seen.has(variable.name) || !agree(into, variable, value)) return false;
    seen.add(variable.name);
  }
  for (const variable of expression.variables) {
    const list = lists.get(variable.name);
    if (list !== undefined && !agree(into, variable, list)) return false;
  }
  return true;
}

/** Records `value` for `variable`; false when the template named it before with another value. */
function agree(
  into: Record<string, string | string[]>,
  variable: VariableSpec,
  value: string | string[],
): boolean {
  // `{/var:1,var}`: the prefix is read where the template has the whole value too.
  if (variable.prefixOfNamed) return true;
  const before = into[variable.name];
  if (before !== undefined) return JSON.stringify(before) === JSON.stringify(value);
  into[variable.name] = value;
  return true;
}

// The variables a template declares, read from its string literal by the type checker:
// `TemplateVariables<"file:///{path}{?q}">` is `{ path: string; q?: string }`.

type OperatorChar = "+" | "#" | "." | "/" | ";" | "?" | "&";
type NamedOperatorChar = ";" | "?" | "&";

type ExpressionsOf<T extends string> = T extends `${string}{${infer Body}}${infer Rest}`
  ? Body | ExpressionsOf<Rest>
  : never;
type SpecsOf<List extends string> = List extends `${infer Head},${infer Tail}`
  ? Head | SpecsOf<Tail>
  : List;
type NameOf<Spec extends string> = Spec extends `${infer Name}*`
  ? Name
  : Spec extends `${infer Name}:${string}`
    ? Name
    : Spec;
/** The specs of expressions whose operator is (or is not) a named one. */
type NamedSpecs<T extends string> =
  ExpressionsOf<T> extends infer Body
    ? Body extends `${NamedOperatorChar}${infer List}`
      ? SpecsOf<List>
      : never
    : never;
type PositionalSpecs<T extends string> =
  ExpressionsOf<T> extends infer Body
    ? Body extends `${NamedOperatorChar}${string}`
      ? never
      : Body extends `${OperatorChar}${infer List}`
        ? SpecsOf<List>
        : Body extends string
          ? SpecsOf<Body>
          : never
    : never;
type Lists<T extends string> = Extract<NamedSpecs<T> | PositionalSpecs<T>, `${string}*`>;
type Simplify<O> = { [K in keyof O]: O[K] };

/**
 * The variables `match` reads from a URI of template `T`, by name: a string for each
 * required one, an optional string for those of `{?x}`, `{&x}` and `{;x}`, a list for an
 * exploded one (`{/path*}`). A template that is not a literal gives a record of them all.
 */
export type TemplateVariables<T extends string> = string extends T
  ? { readonly [name: string]: string | string[] | undefined }
  : Simplify<
      { readonly [S in Lists<T> as NameOf<S>]: string[] } & {
        readonly [S in Exclude<PositionalSpecs<T>, Lists<T>> as NameOf<S>]: string;
      } & { readonly [S in Exclude<NamedSpecs<T>, Lists<T>> as NameOf<S>]?: string }
    >;
