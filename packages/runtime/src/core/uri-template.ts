// RFC 6570 URI templates: expansion (levels 1 to 4, lists but not associative arrays) and
// matching, its inverse, which resources/read needs to find the template a URI came from.
// Hand-written rather than a dependency: the runtime core has none, and of the npm libraries
// that match (not only expand), uri-templates and uri-template-lite compile to backtracking
// regular expressions, uri-template-matcher backtracks by hand, and uri-template-router
// (a state machine) is CommonJS with routing rules of its own (issue 35, checked Dec 2026).
// Matching is not defined by the RFC (section 1.4: "some URI Templates can be used in
// reverse"); the rules here:
// - a variable of a simple, reserved, fragment, label or path expression (`{x}`, `{+x}`,
//   `{#x}`, `{.x}`, `{/x}`) is required: a URI without it does not match;
// - a variable of a named expression (`{;x}`, `{?x}`, `{&x}`) is optional, and its pairs may
//   come in any order, but a name the expression does not declare makes the URI not match;
// - an exploded variable (`{/list*}`, `{?list*}`) is a list (possibly empty);
// - `{x}` takes no "/", "?" or "#" (the RFC encodes them there); `{+x}` and `{#x}` take any
//   character;
// - where a URI splits more than one way, earlier expressions choose first: `{x}`, `{.x}`,
//   `{/x}` and `{;x}` take as much as they can, `{+x}`, `{#x}`, `{?x}` and `{&x}` as little,
//   as long as the rest of the URI still matches (`log://{a}-{b}.log` reads
//   `log://1-2-3.log` as a "1-2", b "3");
// - matching costs time linear in the URI (a Pike VM: uri-template-vm.ts), and URIs longer
//   than `maxUriLength` (8192 by default) match nothing;
// - values are percent-decoded, then checked: a malformed escape, a `{x}` value with "/",
//   "?", "#", "\" or NUL, a `..` segment in a value of `{x}`, `{+x}`, `{#x}`, `{.x}` or
//   `{/x}`, or NUL in any value make the URI not match (the last two unless the template's
//   `allow` lets them: see TemplateAllowances).

import { compileMatcher, matchTemplate, type TemplateAllowances } from "./uri-template-match.js";
import {
  OPERATORS,
  parseTemplate,
  type Expression,
  type TemplateOperator,
  type TemplatePart,
} from "./uri-template-syntax.js";
import type { Program } from "./uri-template-vm.js";

export type { TemplateAllowances } from "./uri-template-match.js";
export type { TemplateOperator } from "./uri-template-syntax.js";

/** A variable's value for expansion: a string, or a list of strings (undefined: left out). */
export type TemplateValue = string | readonly string[] | undefined;

/** One variable as one expression of a template uses it. */
export interface TemplateVariableUse {
  readonly name: string;
  readonly operator: TemplateOperator;
  /** `{x*}`: a list whose items expand one by one. */
  readonly explode: boolean;
  /** `{x:3}`: the first 3 characters. */
  readonly prefix: number | undefined;
}

/** Options of a UriTemplate: what `match` accepts. */
export interface UriTemplateOptions {
  /** URIs longer than this (in UTF-16 code units) match nothing; default 8192. */
  readonly maxUriLength?: number | undefined;
  /** Values the template's author lets through: `..` segments, NUL (both refused by default). */
  readonly allow?: TemplateAllowances | undefined;
}

/** The default `maxUriLength`: URIs longer than this match no template. */
export const MAX_MATCHED_URI_LENGTH = 8192;

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const PERCENT_TRIPLET = /^%[0-9A-Fa-f]{2}/;

/**
 * One RFC 6570 URI template, parsed once: `expand` fills it in, `match` reads the variables
 * back out of a URI (see the rules above). The constructor throws a TypeError naming what is
 * wrong with a malformed template or option.
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
  private readonly parts: readonly TemplatePart[];
  private readonly maxUriLength: number;
  private readonly allow: TemplateAllowances;
  /** Compiled on the first `match`: a client only expands. */
  private matcher: Program | undefined;

  constructor(template: string, options: UriTemplateOptions = {}) {
    if (typeof template !== "string") throw new TypeError("A URI template must be a string");
    const { maxUriLength = MAX_MATCHED_URI_LENGTH, allow = {} } = options;
    if (!Number.isSafeInteger(maxUriLength) || maxUriLength < 1)
      throw new TypeError("UriTemplate: maxUriLength must be a positive integer");
    this.template = template;
    this.maxUriLength = maxUriLength;
    this.allow = { dotSegments: allow.dotSegments === true, nul: allow.nul === true };
    this.parts = parseTemplate(template);
    this.variableUses = this.expressions().flatMap((e) =>
      e.variables.map(({ name, explode, prefix }) => ({
        name,
        operator: e.operator,
        explode,
        prefix,
      })),
    );
    this.variableNames = [...new Set(this.variableUses.map((v) => v.name))];
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
   * Takes time linear in `uri`; a URI longer than `maxUriLength` matches nothing.
   */
  match(uri: string): Record<string, string | string[]> | undefined {
    if (typeof uri !== "string" || uri.length > this.maxUriLength) return undefined;
    this.matcher ??= compileMatcher(this.parts);
    return matchTemplate(this.parts, this.matcher, uri, this.allow);
  }

  toString(): string {
    return this.template;
  }

  private expressions(): Expression[] {
    return this.parts.filter((part): part is Expression => typeof part !== "string");
  }
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
