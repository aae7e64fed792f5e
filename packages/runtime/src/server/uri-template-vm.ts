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

/** One character not in `except`. */
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

/** A compiled pattern, anchored at both ends of the input. */
export class Program {
  private readonly instructions: readonly Instruction[];
  private readonly slotCount: number;

  constructor(pattern: Pattern, captures: number) {
    const builder = new ProgramBuilder();
    pattern(builder);
    builder.emit({ kind: "match" });
    this.instructions = builder.instructions;
    this.slotCount = 2 * captures;
  }

  /** Instructions in the program. */
  get size(): number {
    return this.instructions.length;
  }

  /** Runs the program over the whole of `input` (no partial match). */
  run(input: string): RunResult {
    const size = this.instructions.length;
    // The position each instruction was last added at: one thread per instruction per position.
    const addedAt = new Int32Array(size).fill(-1);
    const counter = { steps: 0 };
    let current: Thread[] = [];
    this.add(current, 0, new Array<number>(this.slotCount).fill(-1), 0, addedAt, counter);
    for (let at = 0; at < input.length && current.length > 0; at++) {
      const unit = input.charCodeAt(at);
      const next: Thread[] = [];
      for (const { pc, slots } of current) {
        counter.steps++;
        const instruction = this.instructions[pc]!;
        if (
          (instruction.kind === "char" && instruction.char === unit) ||
          (instruction.kind === "class" && !instruction.except.includes(input.charAt(at)))
        )
          this.add(next, pc + 1, slots, at + 1, addedAt, counter);
      }
      current = next;
    }
    // Threads are in priority order: the first that is at its end has the captures.
    const matched = current.find(({ pc }) => this.instructions[pc]!.kind === "match");
    return { slots: matched?.slots, steps: counter.steps };
  }

  /**
   * Adds the thread at `pc`, following jumps, splits and saves (depth first, the preferred
   * branch first, as a backtracking matcher would try them) to the threads that read a
   * character or match. An instruction already added at `at` came by a preferred path.
   */
  private add(
    threads: Thread[],
    pc: number,
    slots: readonly number[],
    at: number,
    addedAt: Int32Array,
    counter: { steps: number },
  ): void {
    const stack: Thread[] = [{ pc, slots }];
    while (stack.length > 0) {
      const thread = stack.pop()!;
      if (addedAt[thread.pc] === at) continue;
      addedAt[thread.pc] = at;
      counter.steps++;
      const instruction = this.instructions[thread.pc]!;
      switch (instruction.kind) {
        case "jump":
          stack.push({ pc: instruction.to, slots: thread.slots });
          break;
        case "split":
          stack.push({ pc: instruction.second, slots: thread.slots });
          stack.push({ pc: instruction.first, slots: thread.slots });
          break;
        case "save": {
          const saved = [...thread.slots];
          saved[instruction.slot] = at;
          stack.push({ pc: thread.pc + 1, slots: saved });
          break;
        }
        default:
          threads.push(thread);
      }
    }
  }
}

interface Thread {
  readonly pc: number;
  readonly slots: readonly number[];
}
