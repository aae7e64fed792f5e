import type { LoadedRevision } from "../schema/index.js";
import type { Side } from "../schema/protocol.js";
import type { CodeUpdate } from "./diff-code.js";
import type { ShapeComparer } from "./diff-shape.js";

// The vocabulary of `mcp-gen diff`, shared by the modules that find changes (diff.ts,
// diff-types.ts) and the one that prints them (diff-markdown.ts).

export interface Change {
  /** What changed: `method`, `type`, `field`, `union`, `error`, `constant`, `deprecation`, `inputRequest`. */
  kind: string;
  /** The method, type, `Type.field` (`Type.field.sub` inside inline objects), union, error or constant it is about. */
  subject: string;
  /** `renamed`: a type removed and one added with the same shape (`from` the old name, `to` the new). */
  change: "added" | "removed" | "changed" | "renamed";
  /** What it was and is, in words or TypeScript (one line, no docs); absent where there was or is none. */
  from?: string;
  to?: string;
  detail?: string;
  /** Whether code written for the older revision breaks: `breaks` is not empty. */
  breaking: boolean;
  /** Whose code breaks: the side that builds what changed, the side that reads it, or both. */
  breaks: Side[];
  /** Methods and input requests added or removed: the names to add to or remove from code. */
  code?: CodeUpdate;
}

export interface RevisionDiff {
  from: string;
  to: string;
  changes: Change[];
}

export type Add = (c: Change) => void;

/** The two revisions and what finding their changes needs. */
export interface DiffContext {
  a: LoadedRevision;
  b: LoadedRevision;
  /** Types removed and added with the same shape: old name -> new name. */
  renamed: ReadonlyMap<string, string>;
  shapes: ShapeComparer;
  /** The sides that build a type, in either revision (by its older and its newer name). */
  senders(before: string | undefined, after: string | undefined): Set<Side>;
}

/** A change, `breaking` exactly when some side breaks. */
export function change(
  c: Omit<Change, "breaking" | "breaks">,
  breaks: readonly Side[] = [],
): Change {
  const { code, ...rest } = c;
  return { ...rest, breaking: breaks.length > 0, breaks: [...breaks], ...(code ? { code } : {}) };
}

/** `from`/`to` only where there is something: no "none" or "nothing" placeholders. */
export function fromTo(
  from: string | undefined,
  to: string | undefined,
): Pick<Change, "from" | "to"> {
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** Compares two keyed collections both ways: removed, changed (both present), added. */
export function compare<T>(
  a: ReadonlyMap<string, T>,
  b: ReadonlyMap<string, T>,
  on: {
    removed: (name: string, x: T) => void;
    added: (name: string, y: T) => void;
    both?: (name: string, x: T, y: T) => void;
  },
): void {
  for (const [name, x] of a) {
    const y = b.get(name);
    if (y === undefined) on.removed(name, x);
    else on.both?.(name, x, y);
  }
  for (const [name, y] of b) if (!a.has(name)) on.added(name, y);
}
