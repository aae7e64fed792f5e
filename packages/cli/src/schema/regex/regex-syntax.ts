import { quoteText } from "../diagnostics.js";

// A `@pattern` read into a tree, for packages/cli/src/schema/regex/regex-safety.ts to decide whether the generated
// validators could spend more than linear time on it. The pattern has already compiled as
// `new RegExp(pattern, "u")` (the validators' flags), so this reader follows the Unicode
// grammar and may assume the text is well formed. What it cannot reason about
// (backreferences, lookarounds that repeat without bound, unknown group syntax) it refuses.

/** Inclusive code point ranges, sorted and disjoint. */
export type CharSet = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;
export const ANY: CharSet = [[0, MAX_CODE_POINT]];

/** `[start, end)` offsets into the pattern, for messages. */
export type Span = readonly [number, number];

export type RegexNode =
  | { kind: "char"; set: CharSet; span: Span }
  /** Zero width: `^`, `$`, or another check (`\b`, `\B`, a bounded lookaround). */
  | { kind: "assert"; anchor: "^" | "$" | "other" }
  | { kind: "seq"; items: RegexNode[] }
  | { kind: "alt"; options: RegexNode[] }
  | { kind: "repeat"; body: RegexNode; min: number; max: number; span: Span };

/** A pattern the checker will not vouch for: the reason, and the offending text. */
export class RegexRefusal extends Error {}

function normalize(ranges: (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function union(...sets: CharSet[]): CharSet {
  return normalize(sets.flat());
}

export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]![0], b[j]![0]);
    const hi = Math.min(a[i]![1], b[j]![1]);
    if (lo <= hi) out.push([lo, hi]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

const one = (c: number): CharSet => [[c, c]];
const DIGIT: CharSet = [[0x30, 0x39]];
const WORD: CharSet = normalize([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
// WhiteSpace and LineTerminator, as ECMAScript's \s.
const SPACE: CharSet = normalize(
  [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]
    .concat([0xfeff])
    .map((c) => [c, c] as const)
    .concat([[0x2000, 0x200a]]),
);
const LINE_TERMINATORS: CharSet = normalize([0x0a, 0x0d, 0x2028, 0x2029].map((c) => [c, c]));
const DOT: CharSet = complement(LINE_TERMINATORS);
const CONTROL: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };
const CLASS_ESCAPES: Record<string, CharSet> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};

/** The code points a property escape matches, found by asking the engine that will run it. */
const properties = new Map<string, CharSet>();
function propertySet(body: string): CharSet {
  let set = properties.get(body);
  if (!set) {
    const re = new RegExp(`^\\p{${body}}$`, "u");
    const ranges: [number, number][] = [];
    let start = -1;
    for (let c = 0; c <= MAX_CODE_POINT + 1; c++) {
      const inside = c <= MAX_CODE_POINT && re.test(String.fromCodePoint(c));
      if (inside && start < 0) start = c;
      else if (!inside && start >= 0) {
        ranges.push([start, c - 1]);
        start = -1;
      }
    }
    set = ranges;
    properties.set(body, set);
  }
  return set;
}

/** Nested groups beyond this are refused rather than risk the reader's stack. */
const MAX_GROUP_DEPTH = 50;

class Reader {
  private i = 0;
  private depth = 0;

  constructor(private readonly p: string) {}

  read(): RegexNode {
    const node = this.alternation();
    if (this.i < this.p.length) this.refuse(`unexpected ${quoteText(this.p[this.i]!)}`);
    return node;
  }

  private refuse(why: string, from = this.i): never {
    throw new RegexRefusal(`${why} (at ${from + 1})`);
  }

  private alternation(): RegexNode {
    const options = [this.sequence()];
    while (this.p[this.i] === "|") {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.p.length && this.p[this.i] !== "|" && this.p[this.i] !== ")")
      items.push(this.quantified());
    return items.length === 1 ? items[0]! : { kind: "seq", items };
  }

  private quantified(): RegexNode {
    const start = this.i;
    const atom = this.atom();
    const bounds = this.quantifier();
    if (!bounds) return atom;
    return { kind: "repeat", body: atom, ...bounds, span: [start, this.i] };
  }

  private quantifier(): { min: number; max: number } | undefined {
    const c = this.p[this.i];
    let bounds: { min: number; max: number } | undefined;
    if (c === "*") bounds = { min: 0, max: Infinity };
    else if (c === "+") bounds = { min: 1, max: Infinity };
    else if (c === "?") bounds = { min: 0, max: 1 };
    if (bounds) this.i++;
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i));
      if (!m) return undefined;
      const min = Number(m[1]);
      bounds = { min, max: m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]) };
      this.i += m[0].length;
    } else return undefined;
    if (this.p[this.i] === "?") this.i++; // lazy: the same paths, tried in another order
    return bounds;
  }

  private atom(): RegexNode {
    const start = this.i;
    const c = this.p[this.i]!;
    if (c === "^" || c === "$") {
      this.i++;
      return { kind: "assert", anchor: c };
    }
    if (c === "(") return this.group();
    if (c === "[") return this.charClass();
    if (c === ".") {
      this.i++;
      return { kind: "char", set: DOT, span: [start, this.i] };
    }
    if (c === "\\") return this.escape();
    const code = this.p.codePointAt(this.i)!;
    this.i += code > 0xffff ? 2 : 1;
    return { kind: "char", set: one(code), span: [start, this.i] };
  }

  private group(): RegexNode {
    const start = this.i;
    const rest = this.p.slice(this.i);
    const look = /^\(\?(?:=|!|<=|<!)/.exec(rest);
    if (look) this.i += look[0].length;
    else if (rest.startsWith("(?:")) this.i += 3;
    else if (/^\(\?<[^>]+>/.test(rest)) this.i = this.p.indexOf(">", this.i) + 1;
    else if (rest.startsWith("(?")) this.refuse("unsupported group syntax", start);
    else this.i += 1;
    if (++this.depth > MAX_GROUP_DEPTH) this.refuse("groups nested too deep to check", start);
    const body = this.alternation();
    this.depth--;
    this.i++; // `)`
    if (!look) return body;
    // A lookaround is tried afresh at every position it is reached: only a bounded one costs
    // a bounded time there.
    if (unbounded(body)) {
      const text = this.p.slice(start, this.i);
      this.refuse(`the lookaround ${quoteText(text)} repeats without bound`, start);
    }
    return { kind: "assert", anchor: "other" };
  }

  private escape(): RegexNode {
    const start = this.i;
    const c = this.p[this.i + 1]!;
    if (c === "b" || c === "B") {
      this.i += 2;
      return { kind: "assert", anchor: "other" };
    }
    if (c === "k" || /[1-9]/.test(c))
      this.refuse("backreferences can backtrack without bound and are not supported", start);
    const set = this.escapeSet(false);
    return { kind: "char", set, span: [start, this.i] };
  }

  /** The characters of an escape (after `\`, this.i at the backslash), in a class or not. */
  private escapeSet(inClass: boolean): CharSet {
    const c = this.p[this.i + 1]!;
    this.i += 2;
    const named = CLASS_ESCAPES[c];
    if (named) return named;
    if (c === "p" || c === "P") {
      const end = this.p.indexOf("}", this.i);
      const set = propertySet(this.p.slice(this.i + 1, end));
      this.i = end + 1;
      return c === "p" ? set : complement(set);
    }
    return one(this.escapedCode(c, inClass));
  }

  /** The code point of a single-character escape whose letter `c` was just read. */
  private escapedCode(c: string, inClass: boolean): number {
    if (c in CONTROL) return CONTROL[c]!;
    if (c === "b" && inClass) return 8;
    if (c === "0") return 0;
    if (c === "c") return this.p.charCodeAt(this.i++) % 32;
    if (c === "x") return this.hex(2);
    if (c === "u") {
      if (this.p[this.i] === "{") {
        const end = this.p.indexOf("}", this.i);
        const code = parseInt(this.p.slice(this.i + 1, end), 16);
        this.i = end + 1;
        return code;
      }
      const lead = this.hex(4);
      // Under the u flag a surrogate pair written as two escapes is one code point.
      if (lead >= 0xd800 && lead <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.rest())) {
        this.i += 2;
        const trail = this.hex(4);
        return (lead - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
      }
      return lead;
    }
    return c.codePointAt(0)!; // an identity escape: `\.`, `\/`, `\-`...
  }

  private rest(): string {
    return this.p.slice(this.i, this.i + 8);
  }

  private hex(digits: number): number {
    const code = parseInt(this.p.slice(this.i, this.i + digits), 16);
    this.i += digits;
    return code;
  }

  private charClass(): RegexNode {
    const start = this.i;
    this.i++;
    const negated = this.p[this.i] === "^";
    if (negated) this.i++;
    const parts: CharSet[] = [];
    while (this.p[this.i] !== "]") {
      const low = this.classAtom();
      if (this.p[this.i] === "-" && this.p[this.i + 1] !== "]" && low.single !== undefined) {
        this.i++;
        const high = this.classAtom();
        parts.push([[low.single, high.single ?? low.single]]);
      } else parts.push(low.set);
    }
    this.i++;
    const set = union(...parts);
    return { kind: "char", set: negated ? complement(set) : set, span: [start, this.i] };
  }

  private classAtom(): { set: CharSet; single?: number } {
    if (this.p[this.i] === "\\") {
      const letter = this.p[this.i + 1]!;
      const set = this.escapeSet(true);
      const isClass = letter in CLASS_ESCAPES || letter === "p" || letter === "P";
      return isClass ? { set } : { set, single: set[0]![0] };
    }
    const code = this.p.codePointAt(this.i)!;
    this.i += code > 0xffff ? 2 : 1;
    return { set: one(code), single: code };
  }
}

/** Whether a tree repeats something without an upper bound. */
export function unbounded(node: RegexNode): boolean {
  switch (node.kind) {
    case "repeat":
      return node.max === Infinity || unbounded(node.body);
    case "seq":
      return node.items.some(unbounded);
    case "alt":
      return node.options.some(unbounded);
    default:
      return false;
  }
}

/** The tree of a pattern that compiles with the `u` flag; RegexRefusal for what is not checked. */
export function parseRegex(pattern: string): RegexNode {
  return new Reader(pattern).read();
}
