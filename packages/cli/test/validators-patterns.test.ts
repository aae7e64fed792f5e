import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { hasDraft, loadRevision } from "../src/schema/index.js";
import { readSchemaText } from "../src/schema/reader.js";
import { backtrackingProblem } from "../src/schema/regex/regex-safety.js";
import { parseRegex, type RegexNode } from "../src/schema/regex/regex-syntax.js";
import { buildValidationSchemas } from "../src/schema/validation.js";
import { applyEdits, DRAFT_EDITS, REQUIRED_CAPABILITY_EDITS } from "./fixtures/draft-schema.js";
import { backtrackSteps } from "./support/backtracker.js";
import { fakeSpec, SPEC_DIR, SPEC_REVISIONS } from "./helpers.js";

// `@pattern`s run in the generated validators on V8's backtracking engine, over strings that
// may be megabytes long: generation refuses every pattern whose failing match could take
// more than linear time (packages/cli/src/schema/regex/regex-safety.ts). Growth is measured by counting the steps
// of a reference backtracker (packages/cli/test/support/backtracker.ts), never by timing.

const withTag = (pattern: string) =>
  `export interface Tagged {\n  /** @pattern ${pattern} */\n  s: string;\n}`;
const build = (pattern: string) => () =>
  buildValidationSchemas(readSchemaText("fixture.ts", withTag(pattern)));

/** Steps for `head`, `word` repeated 30, 60 and 120 times, then `tail`. */
function growth(tree: RegexNode, word: string, tail: string, head = ""): number[] {
  // Past 300,000 steps (Infinity) the answer is known: superlinear or a huge constant.
  return [30, 60, 120].map((n) => backtrackSteps(tree, head + word.repeat(n) + tail, 300_000));
}

/** Linear: doubling the input at most about doubles the extra steps. */
const linear = ([a, b, c]: number[]) => c! - b! <= 2.6 * (b! - a!) + 100;
/** Superlinear, or a bounded repeat's constant factor: 100,000 steps for ~120 characters. */
const costly = (steps: number[]) => !linear(steps) || steps[2]! > 100_000;

describe("patterns that backtrack are refused at generation, located", () => {
  // Issue 27: these passed the old check (a repeated group holding an unbounded quantifier);
  // 27 characters took 0.5 s in generated validators, `^\d*\d*\d*x$` 10.9 s at 4,000.
  it.each([
    ["^(\\w|\\d)*$", "exponential", '"(\\\\w|\\\\d)*" (at 2)', "1"],
    ["^(a|a)*b$", "exponential", '"(a|a)*" (at 2)', "a"],
    ["^\\d*\\d*\\d*x$", "polynomial", '"\\\\d*" (at 2) and "\\\\d*" (at 5)', "1"],
  ])("%s", (pattern, kind, where, word) => {
    expect(build(pattern)).toThrow(
      new RegExp(
        `^fixture\\.ts:3:6: @pattern ".*" can backtrack catastrophically \\(${kind} time\\)`,
      ),
    );
    expect(backtrackingProblem(pattern)).toContain(where);
    // What the refusal protects from, counted: superlinear steps on the reference engine.
    expect(costly(growth(parseRegex(pattern), word, "!"))).toBe(true);
  });

  it.each([
    // Overlapping alternatives under a repeat.
    ["^(a|ab|b)*c$", "ab"],
    ["^(?:[a-z]|[a-f0-9])+$", "a"],
    // Nested repeats, in every spelling.
    ["(a+)+$", "a"],
    ["^(a*)*b", "a"],
    ["^(?:x+){2,}$", "x"],
    ["^(?:a{1,9}){1,9}$", "a"],
    ["^(?:a?){20}$", "a"],
    ["^(\\w+\\s?)*$", "a"],
    // Adjacent repeats whose characters overlap, directly or across an optional part.
    ["^\\d+\\.?\\d+$", "1"],
    ["^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", ".", "a@", " "],
    ["^\\s*\\S*\\s*.*x$", " "],
    // Not anchored: retried from every start position.
    ["[a-z]+x", "a"],
    ["\\d+$", "1"],
  ])("%s", (pattern, word, head = "", tail = "!") => {
    expect(backtrackingProblem(pattern)).toMatch(/^can backtrack catastrophically/);
    expect(costly(growth(parseRegex(pattern), word, tail, head))).toBe(true);
  });

  it("what cannot be checked is refused too", () => {
    expect(backtrackingProblem("^(a)\\1$")).toMatch(/^cannot be checked .*backreferences/);
    expect(backtrackingProblem("^(?=.*x)y$")).toMatch(/^cannot be checked .*lookaround/);
    expect(backtrackingProblem("^" + "x".repeat(20_000) + "$")).toMatch(/too large to check/);
  });
});

describe("patterns that run in linear time generate", () => {
  const SAFE = [
    "^[a-zA-Z0-9_-]{1,64}$",
    "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$",
    "^(?:[a-z0-9]{1,63}\\.){1,126}[a-z]{2,63}$",
    "^(\\d{1,3}\\.){3}\\d{1,3}$",
    "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?Z$",
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    "^https?://",
    "^[A-Za-z][A-Za-z0-9+.-]*:",
    "^\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?$",
    "^[A-Za-z0-9+/]*={0,2}$",
    "^\\p{Lu}[\\p{Ll}\\d]*$",
    "^[^/]+(/[^/]+)*$",
    "^(a|ab)*c$",
    "^\\s*\\w+\\s*=\\s*\\w+\\s*$",
    // Anchored only at the start: the first match ends the search.
    "^[a-z]+",
    // Able to match at the first position: the search never moves on.
    "(?:[a-z]+-)*",
    "a.*",
  ];

  it.each(SAFE)("%s", (pattern) => {
    expect(backtrackingProblem(pattern)).toBeUndefined();
    expect(build(pattern)).not.toThrow();
    const tree = parseRegex(pattern);
    for (const word of ["a", "1", "a-", "ab", " ", "/a", "1."])
      for (const tail of ["!", "\n"]) expect(linear(growth(tree, word, tail)), word).toBe(true);
  });

  it("every pattern the checker accepts runs in linear steps (random patterns)", () => {
    const atom = fc.constantFrom("a", "b", "[ab]", "[^a]", ".", "(?:ab)", "c", "\\w", "\\d");
    const quantifier = fc.constantFrom("*", "+", "?", "{0,2}", "{2,}", "*?", "{1,3}", "{2}");
    const { pattern } = fc.letrec<{ pattern: string }>((tie) => ({
      pattern: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        atom,
        fc.tuple(tie("pattern"), tie("pattern")).map(([x, y]) => x + y),
        fc.tuple(tie("pattern"), tie("pattern")).map(([x, y]) => `(?:${x}|${y})`),
        fc.tuple(tie("pattern"), quantifier).map(([x, q]) => `(?:${x})${q}`),
      ),
    }));
    const anchored = fc
      .tuple(fc.boolean(), pattern, fc.constantFrom("", "$", "c", "c$"))
      .map(([caret, p, end]) => (caret ? "^" : "") + p + end);
    let accepted = 0;
    fc.assert(
      fc.property(anchored, (p) => {
        if (backtrackingProblem(p) !== undefined) return;
        accepted++;
        const tree = parseRegex(p);
        for (const word of ["a", "b", "ab", "ba", "aab", "c", "1a"])
          for (const tail of ["", "c", "!"])
            expect(linear(growth(tree, word, tail)), `${p} on ${word}…${tail}`).toBe(true);
      }),
      { numRuns: 400, seed: 27 },
    );
    // The property says something only if many patterns get through.
    expect(accepted).toBeGreaterThan(150);
  });
});

describe("the checker reads characters as the validators' engine does", () => {
  // A set read wrongly (a class, an escape, a surrogate pair) could hide an overlap.
  it.each([
    "[a-z\\d_]",
    "[^\\s\\-]",
    "[\\b\\cJ\\0]",
    "\\W",
    "\\S",
    ".",
    "[\\x41-\\x5A\\u{1F600}-\\u{1F64F}]",
    "\\uD83D\\uDE00",
    "😀",
    "\\p{Lu}",
    "[\\P{L}a]",
    "[]",
    "[^]",
    "\\/",
  ])("%s", (source) => {
    const tree = parseRegex(source);
    const engine = new RegExp(`^(?:${source})$`, "u");
    const set = tree.kind === "char" ? tree.set : [];
    const probes = [0, 8, 9, 10, 32, 45, 47, 48, 65, 90, 95, 97, 160, 0x2028, 0xd83d, 0xfeff];
    for (const c of [
      ...probes,
      0x1f600,
      0x1f650,
      0x10ffff,
      ...Array.from({ length: 64 }, (_, i) => i * 997),
    ]) {
      const inSet = set.some(([lo, hi]) => c >= lo && c <= hi);
      expect(inSet, `U+${c.toString(16)}`).toBe(engine.test(String.fromCodePoint(c)));
    }
  });
});

describe("the spec's own schemas still generate", () => {
  /** Every `@pattern` tag in a schema.ts. */
  const patterns = (text: string) => [...text.matchAll(/@pattern\s+(\S+)/g)].map((m) => m[1]!);

  const spec = (name: string, text: string) => fakeSpec(text, name === "draft" ? "draft" : name);
  const SCHEMAS: [string, () => string][] = [
    ...SPEC_REVISIONS.map((r): [string, () => string] => [
      r,
      () => readFileSync(join(SPEC_DIR, "schema", r, "schema.ts"), "utf8"),
    ]),
    ...(hasDraft(SPEC_DIR)
      ? [
          ["draft", () => readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8")] as [
            string,
            () => string,
          ],
        ]
      : []),
    [
      "a draft (packages/cli/test/fixtures/draft-schema.ts)",
      () => applyEdits(SPEC_DIR, "2026-07-28", DRAFT_EDITS),
    ],
    [
      "a draft with required capabilities",
      () => applyEdits(SPEC_DIR, "2026-07-28", REQUIRED_CAPABILITY_EDITS),
    ],
  ];

  it.each(SCHEMAS)("%s", async (name, text) => {
    const source = text();
    for (const p of patterns(source)) expect(backtrackingProblem(p), p).toBeUndefined();
    const revision = /^\d{4}-\d{2}-\d{2}$/.test(name) || name === "draft" ? name : "2030-01-01";
    const files = await generate(loadRevision(spec(revision, source), revision), [
      "types",
      "methods",
      "validators",
    ]);
    expect(files.map((f) => f.path)).toContain("validators.ts");
  });
});
