import type { CharSet, RegexNode } from "../../src/schema/regex/regex-syntax.js";

// A reference backtracking matcher over packages/cli/src/schema/regex/regex-syntax.ts's tree, as ECMAScript
// specifies `RegExp.prototype.test` without flags but `u`: greedy repeats, alternatives
// left to right, a pass of a repeat past its minimum that reads nothing fails, and the
// whole pattern retried from each start position until one matches. It counts the steps it
// takes, so tests measure how time grows with the input without timing anything.
// Lookarounds and `\b` are taken to hold (the checker assumes the same).

const inSet = (set: CharSet, c: number) => set.some(([lo, hi]) => c >= lo && c <= hi);

/** Steps to run `test(input)`; Infinity past `cap`. */
export function backtrackSteps(tree: RegexNode, input: string, cap = 5_000_000): number {
  const text = [...input].map((c) => c.codePointAt(0)!);
  let steps = 0;
  const match = (node: RegexNode, i: number, k: (j: number) => boolean): boolean => {
    if (++steps > cap) throw new RangeError("cap");
    switch (node.kind) {
      case "char":
        return i < text.length && inSet(node.set, text[i]!) && k(i + 1);
      case "assert":
        if (node.anchor === "^") return i === 0 && k(i);
        if (node.anchor === "$") return i === text.length && k(i);
        return k(i);
      case "seq": {
        const from = (x: number, j: number): boolean =>
          x === node.items.length ? k(j) : match(node.items[x]!, j, (after) => from(x + 1, after));
        return from(0, i);
      }
      case "alt":
        return node.options.some((o) => match(o, i, k));
      case "repeat": {
        const pass = (count: number, j: number): boolean =>
          count < node.min
            ? match(node.body, j, (after) => pass(count + 1, after))
            : (count < node.max &&
                match(node.body, j, (after) => after !== j && pass(count + 1, after))) ||
              k(j);
        return pass(0, i);
      }
    }
  };
  try {
    for (let start = 0; start <= text.length; start++) if (match(tree, start, () => true)) break;
  } catch (error) {
    if (error instanceof RangeError) return Infinity;
    throw error;
  }
  return steps;
}
