import { quoteText } from "../diagnostics.js";
import { stateGraph, TooComplex, type StateGraph, type Transition } from "./regex-nfa.js";
import {
  ANY,
  intersect,
  parseRegex,
  RegexRefusal,
  type CharSet,
  type Span,
} from "./regex-syntax.js";

// Whether a `@pattern`, run as the generated validators run it (`new RegExp(p, "u").test(s)`
// on V8's backtracking engine), can take more than linear time in the length of `s`.
// Strings may be megabytes long, so even quadratic time is a denial of service.
//
// A backtracking engine that fails tries every path the pattern's automaton has for the
// input; its time is linear exactly when the number of such paths is (Weideman et al.,
// "Analyzing matching time behavior of backtracking regular expression matchers by using
// ambiguity of NFA", 2016). So this checks the automaton of regex-nfa.ts for
// - exponential ambiguity: a state with two different paths back to itself that read the
//   same text (`(a|a)*`, `(\w|\d)*`, `(a+)+`, `(a*)*`), and
// - polynomial ambiguity: states p != q with paths p->p, p->q and q->q that all read the
//   same text (`\d*\d*`, `\d+\.?\d+`), where p may be the engine's own retry from every
//   start position of an unanchored pattern (`[a-z]+$` tried from each offset).
// It over-approximates the engine (every path it can take is a path here; assertions are
// assumed to hold) so "safe" is sound; a safe-but-ambiguous pattern may be refused. One
// refinement keeps common patterns: `test` stops at the first match, so a state from which
// every continuation can end the match without an assertion (the tail of `^[a-z]+`, any
// state of `(a|a)*` alone) never backtracks into what came before, and is left out.

/** Budget for the product graphs (pairs and triples of states). */
const MAX_PRODUCT_STEPS = 1_000_000;

/** Why `pattern` may backtrack catastrophically ("can ..." / "cannot ..."), or undefined. */
export function backtrackingProblem(pattern: string): string | undefined {
  try {
    return new Checker(pattern, stateGraph(parseRegex(pattern))).problem();
  } catch (error) {
    if (error instanceof RegexRefusal)
      return `cannot be checked for catastrophic backtracking: ${error.message}`;
    if (error instanceof TooComplex)
      return "is too large to check for catastrophic backtracking (mcp-gen's limit); simplify it";
    throw error;
  }
}

/** Strongly connected components (iterative Tarjan): component index per node. */
function components(count: number, succ: (n: number) => readonly number[]): number[] {
  const index = new Array<number>(count).fill(-1);
  const low = new Array<number>(count).fill(0);
  const comp = new Array<number>(count).fill(-1);
  const stack: number[] = [];
  let counter = 0;
  let comps = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [n, i] = top;
      const next = succ(n);
      if (i < next.length) {
        top[1]++;
        const m = next[i]!;
        if (index[m] === -1) {
          index[m] = low[m] = counter++;
          stack.push(m);
          work.push([m, 0]);
        } else if (comp[m] === -1) low[n] = Math.min(low[n]!, index[m]!);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[n]!);
      }
      if (low[n] === index[n]) {
        for (let m = stack.pop()!; ; m = stack.pop()!) {
          comp[m] = comps;
          if (m === n) break;
        }
        comps++;
      }
    }
  }
  return comp;
}

class Checker {
  private readonly sets: CharSet[];
  private readonly loops: Span[][];
  /** Edges between live states only. */
  private readonly next: Transition[][];
  private readonly prev: number[][];
  /** The state that stands for "retry from the next start position", if there is one. */
  private readonly retry: number | undefined;
  private readonly comp: number[];
  private readonly accepting: boolean[];
  private steps = MAX_PRODUCT_STEPS;
  private readonly pairs = new Map<number, CharSet>();

  constructor(
    private readonly pattern: string,
    g: StateGraph,
  ) {
    this.sets = [...g.sets];
    this.loops = [...g.loops];
    const next = g.next.map((t) => [...t]);
    const accepting = (this.accepting = [...g.accepting]);
    // Unless a match can end at position 0 without reading anything (then `test` never
    // moves on), the engine retries from each later position: a state that reads any
    // character, loops, and leads where the start leads (except through `^`).
    if (!accepting[0] && g.laterStart.length > 0) {
      this.retry = this.sets.length;
      this.sets.push(ANY);
      this.loops.push([]);
      next.push([{ to: this.retry, ways: 1 }, ...g.laterStart]);
      next[0]!.push({ to: this.retry, ways: 1 });
      accepting.push(false);
    }
    const live = liveStates(next, accepting);
    this.next = next.map((t, s) => (live[s] ? t.filter((e) => live[e.to]) : []));
    this.prev = this.next.map(() => []);
    this.next.forEach((t, s) => t.forEach((e) => this.prev[e.to]!.push(s)));
    const targets = this.next.map((t) => t.map((e) => e.to));
    this.comp = components(targets.length, (n) => targets[n]!);
  }

  problem(): string | undefined {
    return this.exponential() ?? this.polynomial();
  }

  private tick(): void {
    if (--this.steps < 0) throw new TooComplex();
  }

  private meet(a: number, b: number): CharSet {
    const key = a < b ? a * this.sets.length + b : b * this.sets.length + a;
    let set = this.pairs.get(key);
    if (!set) {
      set = intersect(this.sets[a]!, this.sets[b]!);
      this.pairs.set(key, set);
    }
    return set;
  }

  private describe(span: Span): string {
    return `${quoteText(this.pattern.slice(span[0], span[1]))} (at ${span[0] + 1})`;
  }

  /** A state with two paths back to itself over the same text, within one component. */
  private exponential(): string | undefined {
    const n = this.next.length;
    const pairOf = (a: number, b: number) => a * n + b;
    const adjacency = new Map<number, { to: number; twice?: Span | true }[]>();
    const queue: number[] = [];
    for (let s = 0; s < n; s++) {
      if (this.next[s]!.some((e) => this.comp[e.to] === this.comp[s])) {
        adjacency.set(pairOf(s, s), []);
        queue.push(pairOf(s, s));
      }
    }
    while (queue.length > 0) {
      const pair = queue.pop()!;
      const [a, b] = [Math.floor(pair / n), pair % n];
      const out = adjacency.get(pair)!;
      for (const ea of this.next[a]!) {
        if (this.comp[ea.to] !== this.comp[a]) continue;
        for (const eb of this.next[b]!) {
          this.tick();
          if (this.comp[eb.to] !== this.comp[a] || this.meet(ea.to, eb.to).length === 0) continue;
          const to = pairOf(ea.to, eb.to);
          const twice = a === b && ea.to === eb.to && ea.ways > 1 ? (ea.via ?? true) : undefined;
          out.push({ to, ...(twice ? { twice } : {}) });
          if (!adjacency.has(to)) {
            adjacency.set(to, []);
            queue.push(to);
          }
        }
      }
    }
    const ids = [...adjacency.keys()];
    const local = new Map(ids.map((id, i) => [id, i]));
    const targets = ids.map((id) => adjacency.get(id)!.map((e) => local.get(e.to)!));
    const comp = components(ids.length, (i) => targets[i]!);
    const diagonal = new Set<number>();
    // Per pair component: how two paths part in it (a loop only one goes round, if known).
    const branching = new Map<number, Span | true>();
    ids.forEach((id, i) => {
      const [a, b] = [Math.floor(id / n), id % n];
      if (a === b) diagonal.add(comp[i]!);
      else if (!branching.has(comp[i]!)) branching.set(comp[i]!, true);
      for (const e of adjacency.get(id)!)
        if (e.twice && comp[local.get(e.to)!] === comp[i]) branching.set(comp[i]!, e.twice);
    });
    const found = ids.findIndex((_, i) => diagonal.has(comp[i]!) && branching.has(comp[i]!));
    if (found < 0) return undefined;
    const states = ids
      .filter((_, i) => comp[i] === comp[found])
      .flatMap((id) => [Math.floor(id / n), id % n]);
    const via = branching.get(comp[found]!);
    const loop = via === true || via === undefined ? this.commonLoop(states) : via;
    return `can backtrack catastrophically (exponential time): the repetition ${this.describe(loop)} can match the same text in more than one way`;
  }

  /** The innermost unbounded repeat around every one of `states`. */
  private commonLoop(states: number[]): Span {
    const [first, ...rest] = states.map((s) => this.loops[s]!);
    let common = first!.length;
    for (const l of rest) {
      let k = 0;
      while (k < common && k < l.length && l[k] === first![k]) k++;
      common = k;
    }
    return first![common - 1] ?? [0, this.pattern.length];
  }

  /** States p != q with p->p, p->q, q->q over one text. */
  private polynomial(): string | undefined {
    const n = this.next.length;
    const cyclic = [...Array(n).keys()].filter((s) =>
      this.next[s]!.some((e) => this.comp[e.to] === this.comp[s]),
    );
    const isCyclic = new Set(cyclic);
    const backward = new Map<number, Set<number>>();
    for (const p of cyclic) {
      // A start position is given up only when no path from it met an accepting state
      // (from one, the match is sure to succeed): the retries' paths avoid them all.
      const failing = (s: number) => p !== this.retry || !this.accepting[s];
      for (const q of this.synced(p, failing)) {
        // The text's last character is read entering p (on p->p) and entering q (on q->q).
        if (q === p || !isCyclic.has(q) || this.meet(p, q).length === 0) continue;
        let toQ = backward.get(q);
        if (!toQ) backward.set(q, (toQ = this.reaching(q)));
        const between = (s: number) => failing(s) && toQ.has(s);
        if (this.triple(p, q, between, failing)) return this.polynomialMessage(p, q);
      }
    }
    return undefined;
  }

  /** The states q that one text leads to from p while it also leads from p back to p, in order. */
  private synced(p: number, failing: (s: number) => boolean): number[] {
    const n = this.next.length;
    const seen = new Set([p * n + p]);
    const queue = [p * n + p];
    const out = new Set<number>();
    while (queue.length > 0) {
      const pair = queue.pop()!;
      const [a, b] = [Math.floor(pair / n), pair % n];
      if (a === p) out.add(b);
      for (const ea of this.next[a]!) {
        if (this.comp[ea.to] !== this.comp[p]) continue;
        for (const eb of this.next[b]!) {
          this.tick();
          if (!failing(eb.to) || this.meet(ea.to, eb.to).length === 0) continue;
          const to = ea.to * n + eb.to;
          if (!seen.has(to)) {
            seen.add(to);
            queue.push(to);
          }
        }
      }
    }
    return [...out].sort((x, y) => x - y);
  }

  private polynomialMessage(p: number, q: number): string {
    const loop = (s: number) => this.loops[s]![this.loops[s]!.length - 1]!;
    const head = "can backtrack catastrophically (polynomial time):";
    if (p === this.retry)
      return `${head} it is not anchored with ^, so it is tried from every start position, and ${this.describe(loop(q))} can match the same text from more than one of them`;
    const [a, b] = [loop(p), loop(q)];
    if (a === b)
      return `${head} two passes of ${this.describe(a)} can match the same text one after the other`;
    return `${head} ${this.describe(a)} and ${this.describe(b)} can match the same text one after the other`;
  }

  /** Whether (p, p, q) reaches (p, q, q) in the product of three copies of the graph. */
  private triple(
    p: number,
    q: number,
    between: (s: number) => boolean,
    failing: (s: number) => boolean,
  ): boolean {
    const n = this.next.length;
    const id = (a: number, b: number, c: number) => (a * n + b) * n + c;
    const goal = id(p, q, q);
    const seen = new Set([id(p, p, q)]);
    const queue: [number, number, number][] = [[p, p, q]];
    while (queue.length > 0) {
      const [a, b, c] = queue.pop()!;
      for (const ea of this.next[a]!) {
        if (this.comp[ea.to] !== this.comp[p]) continue;
        for (const eb of this.next[b]!) {
          if (!between(eb.to)) continue;
          const ab = this.meet(ea.to, eb.to);
          if (ab.length === 0) continue;
          for (const ec of this.next[c]!) {
            this.tick();
            if (this.comp[ec.to] !== this.comp[q] || !failing(ec.to)) continue;
            if (intersect(ab, this.sets[ec.to]!).length === 0) continue;
            const to = id(ea.to, eb.to, ec.to);
            if (to === goal) return true;
            if (!seen.has(to)) {
              seen.add(to);
              queue.push([ea.to, eb.to, ec.to]);
            }
          }
        }
      }
    }
    return false;
  }

  /** The states from which `to` can be reached, itself included. */
  private reaching(to: number): Set<number> {
    const seen = new Set([to]);
    const queue = [to];
    while (queue.length > 0) {
      for (const t of this.prev[queue.pop()!]!) {
        if (!seen.has(t)) {
          seen.add(t);
          queue.push(t);
        }
      }
    }
    return seen;
  }
}

/**
 * States from which some continuation cannot end the match without an assertion: only those
 * can fail and send the engine back. Once in any other state, every way on can end the
 * match, so `test` succeeds without returning to an earlier choice.
 */
function liveStates(next: Transition[][], accepting: boolean[]): boolean[] {
  const into: number[][] = next.map(() => []);
  next.forEach((t, s) => t.forEach((e) => into[e.to]!.push(s)));
  const live = accepting.map((a) => !a);
  const queue = live.flatMap((l, s) => (l ? [s] : []));
  while (queue.length > 0) {
    for (const s of into[queue.pop()!]!) {
      if (!live[s]) {
        live[s] = true;
        queue.push(s);
      }
    }
  }
  return live;
}
