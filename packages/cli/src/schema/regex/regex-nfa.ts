import { ANY, type CharSet, type RegexNode, type Span } from "./regex-syntax.js";

// A pattern's tree as the graph a backtracking engine walks (regex-safety.ts counts its
// paths). Nodes that read a character are the states; between them, the empty moves of
// alternation, repetition and assertions, collapsed into edges that remember how many
// distinct empty paths join two states (two ways is ambiguity even when the states are the
// same: `(a*)*` reads every `a` with one state, in exponentially many ways).

/** Work that exceeds the checker's budget: the pattern is refused as too complex to check. */
export class TooComplex extends Error {}

/** An unbounded repeat around a node: its text, and the split node that loops. */
interface Loop {
  span: Span;
  split: number;
}

type NfaNode =
  | { t: "char"; set: CharSet; span: Span; loops: Loop[]; next: number }
  | { t: "split"; outs: number[] }
  /** The end of one pass of the loop `loop`, back to its split; `free`: the pass may be empty. */
  | { t: "back"; loop: number; free: boolean }
  | { t: "assert"; anchor: "^" | "$" | "other"; next: number }
  | { t: "accept" };

/** Character-reading nodes at most, counting every copy of a counted repeat. */
const MAX_NODES = 3_000;
/** Steps of the empty-path search, over all states. */
const MAX_CLOSURE_STEPS = 200_000;
/** `x{n}` is copied out when that makes at most this many nodes. */
const MAX_COPIES_SIZE = 200;

const sizes = new WeakMap<RegexNode, number>();

/** The nodes a tree lowers to, with counted repeats copied out as `lower` copies them. */
function size(node: RegexNode): number {
  let n = sizes.get(node);
  if (n === undefined) {
    n = measure(node);
    sizes.set(node, n);
  }
  return n;
}

function measure(node: RegexNode): number {
  switch (node.kind) {
    case "char":
    case "assert":
      return 1;
    case "seq":
      return node.items.reduce((n, item) => n + size(item), 0);
    case "alt":
      return 1 + node.options.reduce((n, o) => n + size(o), 0);
    case "repeat": {
      const plan = counted(node);
      const copies = plan.mandatory + plan.optional + (plan.loop ? 1 : 0);
      return copies * (size(node.body) + 2) + 1;
    }
  }
}

/** Whether a tree can match the empty string (assertions assumed to hold). */
function nullable(node: RegexNode): boolean {
  switch (node.kind) {
    case "char":
      return false;
    case "assert":
      return true;
    case "seq":
      return node.items.every(nullable);
    case "alt":
      return node.options.some(nullable);
    case "repeat":
      return node.min === 0 || nullable(node.body);
  }
}

/** A body without choices: characters and assertions in sequence. */
function fixed(node: RegexNode): boolean {
  if (node.kind === "seq") return node.items.every(fixed);
  return node.kind === "char" || node.kind === "assert";
}

/**
 * How a repeat is lowered: `mandatory` copies, then `optional` nested optional copies, then a
 * loop. `x?` and `x{n}` of a body without choices (`[0-9a-f]{8}`, `(?:ab){3}`) are copied
 * out exactly: such copies add no second way to read a text. Any other `x{n,m}` is read as
 * `x x*` (`x*` when n is 0). Every way the engine matches the original is a way to match
 * that, so "safe" still holds; and a counted repeat is refused where its loop would be: its
 * bounded ambiguity (`(a|a){30}`: 2^30 ways; `a{0,99}a{0,99}`: 100 splits) still multiplies
 * the time by a factor nobody chose. Passes up to n may match nothing (`(?:a?){20}`), so the
 * loop of a nullable body with n > 1 may go round empty (`emptyPasses`).
 */
function counted(r: Extract<RegexNode, { kind: "repeat" }>): {
  mandatory: number;
  optional: number;
  loop: boolean;
  emptyPasses: boolean;
} {
  const exact = { optional: 0, loop: false, emptyPasses: false };
  if (r.max <= 1) return { ...exact, mandatory: r.min, optional: r.max - r.min };
  if (r.min === r.max && fixed(r.body) && size(r.body) * r.min <= MAX_COPIES_SIZE)
    return { ...exact, mandatory: r.min };
  return {
    mandatory: Math.min(r.min, 1),
    optional: 0,
    loop: true,
    emptyPasses: r.min > 1 && nullable(r.body),
  };
}

export interface Transition {
  to: number;
  /** Distinct empty paths to `to` (1, or 2 for "more than one"). */
  ways: number;
  /** With two ways: a loop one goes round and the other does not, if they differ so. */
  via?: Span;
}

/** The collapsed graph: state 0 starts a match, the others each read one character. */
export interface StateGraph {
  sets: CharSet[];
  /** The innermost-last unbounded repeats around each state's atom (for messages). */
  loops: Span[][];
  /** Edges from a state after it read its character (from state 0: before any). */
  next: Transition[][];
  /** State 0's edges at a start position after 0, where `^` fails. */
  laterStart: Transition[];
  /** Whether an assertion-free empty path leads from the state to the end of the pattern. */
  accepting: boolean[];
}

class Builder {
  readonly nodes: NfaNode[] = [];
  /** The text of each loop, by its split node. */
  readonly loopSpans = new Map<number, Span>();

  add(node: NfaNode): number {
    if (this.nodes.length >= MAX_NODES * 3) throw new TooComplex();
    this.nodes.push(node);
    return this.nodes.length - 1;
  }

  lower(node: RegexNode, next: number, loops: Loop[]): number {
    switch (node.kind) {
      case "char":
        return this.add({ t: "char", set: node.set, span: node.span, loops, next });
      case "assert":
        return this.add({ t: "assert", anchor: node.anchor, next });
      case "seq":
        return node.items.reduceRight((after, item) => this.lower(item, after, loops), next);
      case "alt":
        return this.add({ t: "split", outs: node.options.map((o) => this.lower(o, next, loops)) });
      case "repeat":
        return this.repeat(node, next, loops);
    }
  }

  private repeat(r: Extract<RegexNode, { kind: "repeat" }>, next: number, loops: Loop[]): number {
    const plan = counted(r);
    let tail = next;
    if (plan.loop) {
      const split: NfaNode = { t: "split", outs: [] };
      tail = this.add(split);
      const back = this.add({ t: "back", loop: tail, free: plan.emptyPasses });
      this.loopSpans.set(tail, r.span);
      split.outs = [this.lower(r.body, back, [...loops, { span: r.span, split: tail }]), next];
    }
    for (let k = 0; k < plan.optional; k++)
      tail = this.add({ t: "split", outs: [this.lower(r.body, tail, loops), next] });
    for (let k = 0; k < plan.mandatory; k++) tail = this.lower(r.body, tail, loops);
    return tail;
  }
}

/** The empty paths that reach one node: how many (1, or 2 for "more"), which loops they end. */
interface Arrival {
  ways: number;
  ended: readonly number[];
  /** When two paths differ in the loops they go round: one of those loops (its split). */
  via?: number;
}

interface Reach {
  /** Per char node: the empty paths to it, all of them and those without `^`. */
  all: Map<number, Arrival>;
  noCaret: Map<number, Arrival>;
  accepts: boolean;
}

function arrive(m: Map<number, Arrival>, node: number, ended: readonly number[]): void {
  const first = m.get(node);
  if (!first) m.set(node, { ways: 1, ended });
  else if (first.ways === 1) {
    const via = [...first.ended, ...ended].find(
      (l) => !first.ended.includes(l) || !ended.includes(l),
    );
    m.set(node, { ways: 2, ended, ...(via === undefined ? {} : { via }) });
  }
}

/**
 * The empty paths from `from` to the nodes that read a character, counted (capped at 2).
 * ECMAScript refuses a pass of a loop that read nothing, so a path may end a pass only of a
 * loop in `open` (the loops around the character just read: their pass read it), and only
 * once, unless the loop's passes may be empty; ending passes a bounded number of times, the
 * paths are finite. A path through `$` that goes on
 * to read is dead (`$` holds only at the end), as is one through `^` after a character.
 */
function reach(
  nodes: NfaNode[],
  from: number,
  open: readonly number[],
  budget: { steps: number },
): Reach {
  const out: Reach = { all: new Map(), noCaret: new Map(), accepts: false };
  interface Step {
    at: number;
    caret: boolean;
    dollar: boolean;
    asserted: boolean;
    /** The loops of `open` whose pass this path has ended. */
    ended: readonly number[];
  }
  // Depth first with an explicit stack: a chain of empty moves can be thousands long.
  const stack: Step[] = [{ at: from, caret: false, dollar: false, asserted: false, ended: [] }];
  while (stack.length > 0) {
    if (--budget.steps < 0) throw new TooComplex();
    const step = stack.pop()!;
    const node = nodes[step.at]!;
    if (node.t === "char") {
      if (step.dollar) continue;
      arrive(out.all, step.at, step.ended);
      if (!step.caret) arrive(out.noCaret, step.at, step.ended);
    } else if (node.t === "accept") {
      if (!step.asserted) out.accepts = true;
    } else if (node.t === "split") {
      for (const o of node.outs) stack.push({ ...step, at: o });
    } else if (node.t === "back") {
      // A pass that read the character may end; then, in a loop whose passes may be
      // empty, one empty pass (a second would add no way to read the text).
      const passes = (open.includes(node.loop) ? 1 : 0) + (node.free ? 1 : 0);
      if (step.ended.filter((l) => l === node.loop).length < passes)
        stack.push({ ...step, at: node.loop, ended: [...step.ended, node.loop] });
    } else {
      const caret = step.caret || node.anchor === "^";
      const dollar = step.dollar || node.anchor === "$";
      stack.push({ ...step, at: node.next, caret, dollar, asserted: true });
    }
  }
  return out;
}

function edges(m: Map<number, Arrival>, state: Map<number, number>, b: Builder): Transition[] {
  return [...m].map(([node, { ways, via }]) => {
    const loop = via === undefined ? undefined : b.loopSpans.get(via);
    return { to: state.get(node)!, ways, ...(loop ? { via: loop } : {}) };
  });
}

/** The collapsed graph of a pattern's tree. */
export function stateGraph(tree: RegexNode): StateGraph {
  const b = new Builder();
  const accept = b.add({ t: "accept" });
  const root = b.lower(tree, accept, []);
  // States numbered in the pattern's reading order, so the first problem found is the first.
  const chars = b.nodes
    .flatMap((n, i) => (n.t === "char" ? [{ i, at: n.span[0] }] : []))
    .sort((x, y) => x.at - y.at || x.i - y.i)
    .map((c) => c.i);
  if (chars.length > MAX_NODES) throw new TooComplex();
  const state = new Map(chars.map((node, i) => [node, i + 1]));
  const budget = { steps: MAX_CLOSURE_STEPS };
  const start = reach(b.nodes, root, [], budget);
  const g: StateGraph = {
    sets: [ANY],
    loops: [[]],
    next: [edges(start.all, state, b)],
    laterStart: edges(start.noCaret, state, b),
    accepting: [start.accepts],
  };
  for (const node of chars) {
    const n = b.nodes[node] as Extract<NfaNode, { t: "char" }>;
    const open = n.loops.map((l) => l.split);
    const after = reach(b.nodes, n.next, open, budget);
    g.sets.push(n.set);
    g.loops.push(n.loops.map((l) => l.span));
    g.next.push(edges(after.noCaret, state, b));
    g.accepting.push(after.accepts);
  }
  return g;
}
