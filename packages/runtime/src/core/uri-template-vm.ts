// The matcher's engine: a template compiled to a small program that a Pike VM (Thompson's
// construction with capture slots, as RE2 runs it) runs over the URI in one pass. It keeps,
// at each position, at most one thread per instruction, so a URI of n characters costs at
// most (n + 1) x (2 x the program's size) steps, whatever the template and the URI: no
// backtracking (issue 35 F2: the regular expression it replaces took 84 s on 507
// characters). Threads are kept in priority order, so the captures are those a
// backtracking regular expression would give (lazy and greedy loops alike): the first
// thread in that order that reaches the end wins.

/** One instruction; `next` is implicit (the following one) except for `jump` and `split`. */
type Instruction =
  | { readonly kind: "char"; readonly char: number }
  /** Any one UTF-16 code unit not in `except` (all of them when it is empty). */
  | { readonly kind: "class"; readonly except: string }
  /** Both ways, `first` first (the preferred one). */
  | { readonly kind: "split"; readonly first: number; readonly second: number }
  | { readonly kind: "jump"; readonly to: number }
  /** Records the position in capture slot `slot`. */
  | { readonly kind: "save"; readonly slot: number }
  | { readonly kind: "match" };

/** A piece of a pattern: emits its instructions into the program. */
export type Pattern = (program: ProgramBuilder) => void;

export class ProgramBuilder {
  readonly instructions: Instruction[] = [];
  emit(instruction: Instruction): number {
    this.instructions.push(instruction);
    return this.instructions.length - 1;
  }
  /** Replaces a placeholder emitted before its targets were known. */
  patch(at: number, instruction: Instruction): void {
    this.instructions[at] = instruction;
  }
  get next(): number {
    return this.instructions.length;
  }
}

/** `text` literally. */
export const literal =
  (text: string): Pattern =>
  (p) => {
    for (let i = 0; i < text.length; i++) p.emit({ kind: "char", char: text.charCodeAt(i) });
  };

/** One character not in `except` (ASCII characters only: every other one passes). */
export const anyBut =
  (except: string): Pattern =>
  (p) =>
    p.emit({ kind: "class", except });

export const sequence =
  (...patterns: Pattern[]): Pattern =>
  (p) => {
    for (const pattern of patterns) pattern(p);
  };

/** `body` any number of times: as many as can be (`greedy`) or as few. */
export const repeat =
  (body: Pattern, greedy: boolean): Pattern =>
  (p) => {
    const split = p.emit({ kind: "jump", to: -1 });
    body(p);
    p.emit({ kind: "jump", to: split });
    p.patch(split, branch(split + 1, p.next, greedy));
  };

/** `body` or nothing: `body` preferred when `greedy`. */
export const optional =
  (body: Pattern, greedy: boolean): Pattern =>
  (p) => {
    const split = p.emit({ kind: "jump", to: -1 });
    body(p);
    p.patch(split, branch(split + 1, p.next, greedy));
  };

/** What `body` matches, saved in capture `index` (slots 2i and 2i + 1). */
export const capture =
  (index: number, body: Pattern): Pattern =>
  (p) => {
    p.emit({ kind: "save", slot: 2 * index });
    body(p);
    p.emit({ kind: "save", slot: 2 * index + 1 });
  };

function branch(into: number, past: number, greedy: boolean): Instruction {
  return greedy
    ? { kind: "split", first: into, second: past }
    : { kind: "split", first: past, second: into };
}

/** What a run found: capture slots (positions, -1 where unset) or undefined, and its cost. */
export interface RunResult {
  readonly slots: readonly number[] | undefined;
  /** Instructions run and threads added: at most (input length + 1) x 2 x `size`. */
  readonly steps: number;
}

const CHAR = 0;
const CLASS = 1;
const SPLIT = 2;
const JUMP = 3;
const SAVE = 4;
const MATCH = 5;

/** A compiled pattern, anchored at both ends of the input. */
export class Program {
  // The instructions flattened into typed arrays: a run reads them millions of times.
  private readonly kinds: Uint8Array;
  /** A CHAR's code unit, a CLASS's table, a SPLIT's first, a JUMP's target, a SAVE's slot. */
  private readonly first: Int32Array;
  /** A SPLIT's second branch. */
  private readonly second: Int32Array;
  /** Per CLASS: which ASCII code units it refuses (every other code unit passes). */
  private readonly refused: readonly Uint8Array[];
  private readonly slotCount: number;

  constructor(pattern: Pattern, captures: number) {
    const builder = new ProgramBuilder();
    pattern(builder);
    builder.emit({ kind: "match" });
    const size = builder.instructions.length;
    this.kinds = new Uint8Array(size);
    this.first = new Int32Array(size);
    this.second = new Int32Array(size);
    const refused: Uint8Array[] = [];
    for (const [pc, instruction] of builder.instructions.entries()) {
      switch (instruction.kind) {
        case "char":
          [this.kinds[pc], this.first[pc]] = [CHAR, instruction.char];
          break;
        case "class": {
          const table = new Uint8Array(128);
          for (let i = 0; i < instruction.except.length; i++) {
            const code = instruction.except.charCodeAt(i);
            if (code >= 128) throw new RangeError("anyBut: ASCII characters only");
            table[code] = 1;
          }
          [this.kinds[pc], this.first[pc]] = [CLASS, refused.push(table) - 1];
          break;
        }
        case "split":
          [this.kinds[pc], this.first[pc], this.second[pc]] = [
            SPLIT,
            instruction.first,
            instruction.second,
          ];
          break;
        case "jump":
          [this.kinds[pc], this.first[pc]] = [JUMP, instruction.to];
          break;
        case "save":
          [this.kinds[pc], this.first[pc]] = [SAVE, instruction.slot];
          break;
        case "match":
          this.kinds[pc] = MATCH;
      }
    }
    this.refused = refused;
    this.slotCount = 2 * captures;
  }

  /** Instructions in the program. */
  get size(): number {
    return this.kinds.length;
  }

  /** Runs the program over the whole of `input` (no partial match). */
  run(input: string): RunResult {
    const run = new Run(this.kinds.length);
    let current = new Threads(this.kinds.length);
    let next = new Threads(this.kinds.length);
    this.add(current, 0, new Array<number>(this.slotCount).fill(-1), 0, run);
    for (let at = 0; at < input.length && current.count > 0; at++) {
      const unit = input.charCodeAt(at);
      next.count = 0;
      for (let i = 0; i < current.count; i++) {
        run.steps++;
        const pc = current.pcs[i]!;
        const kind = this.kinds[pc];
        if (
          (kind === CHAR && this.first[pc] === unit) ||
          (kind === CLASS && (unit >= 128 || this.refused[this.first[pc]!]![unit] === 0))
        )
          this.add(next, pc + 1, current.slots[i]!, at + 1, run);
      }
      [current, next] = [next, current];
    }
    // Threads are in priority order: the first that is at its end has the captures.
    for (let i = 0; i < current.count; i++)
      if (this.kinds[current.pcs[i]!] === MATCH)
        return { slots: current.slots[i], steps: run.steps };
    return { slots: undefined, steps: run.steps };
  }

  /**
   * Adds the thread at `pc`, following jumps, splits and saves (depth first, the preferred
   * branch first, as a backtracking matcher would try them) to the threads that read a
   * character or match. An instruction already added at `at` came by a preferred path.
   */
  private add(threads: Threads, pc: number, slots: readonly number[], at: number, run: Run): void {
    const { stackPcs, stackSlots, addedAt } = run;
    let depth = 0;
    stackPcs[depth] = pc;
    stackSlots[depth++] = slots;
    while (depth > 0) {
      const top = stackPcs[--depth]!;
      const held = stackSlots[depth]!;
      if (addedAt[top] === at) continue;
      addedAt[top] = at;
      run.steps++;
      switch (this.kinds[top]) {
        case JUMP:
          stackPcs[depth] = this.first[top]!;
          stackSlots[depth++] = held;
          break;
        case SPLIT:
          stackPcs[depth] = this.second[top]!;
          stackSlots[depth++] = held;
          stackPcs[depth] = this.first[top]!;
          stackSlots[depth++] = held;
          break;
        case SAVE: {
          const saved = held.slice();
          saved[this.first[top]!] = at;
          stackPcs[depth] = top + 1;
          stackSlots[depth++] = saved;
          break;
        }
        default:
          threads.pcs[threads.count] = top;
          threads.slots[threads.count++] = held;
      }
    }
  }
}

/** One run's bookkeeping: its step count, and the stack and marks `add` reuses. */
class Run {
  steps = 0;
  /** The position each instruction was last added at: one thread per instruction per position. */
  readonly addedAt: Int32Array;
  // Each instruction is pushed at most twice per position (as a split's two branches).
  readonly stackPcs: Int32Array;
  readonly stackSlots: (readonly number[])[];
  constructor(size: number) {
    this.addedAt = new Int32Array(size).fill(-1);
    this.stackPcs = new Int32Array(2 * size + 1);
    this.stackSlots = new Array<readonly number[]>(2 * size + 1);
  }
}

/** The threads at one position, in priority order (at most one per instruction). */
class Threads {
  count = 0;
  readonly pcs: Int32Array;
  readonly slots: (readonly number[])[];
  constructor(size: number) {
    this.pcs = new Int32Array(size);
    this.slots = new Array<readonly number[]>(size);
  }
}
