import { McpGenError } from "./diagnostics.js";
import type { Declaration, InterfaceDeclaration, TypeExpr } from "./model.js";

/**
 * Merges re-declared interfaces as TypeScript does (one interface with the heritage and
 * members of every declaration) and indexes declarations by name. tsc has already rejected
 * incompatible re-declarations (a property of another type or optionality, a second index
 * signature, mixed export), so a property declared twice has the same type both times and
 * the first declaration's (with its docs and location) stands for it.
 *
 * Other re-declarations tsc allows (an interface and a const of the same name live in
 * different namespaces) have no place in the model: a located error.
 */
export function mergeDeclarations(declarations: Declaration[]): {
  declarations: Declaration[];
  byName: Map<string, Declaration>;
} {
  const byName = new Map<string, Declaration>();
  const merged: Declaration[] = [];
  for (const d of declarations) {
    const previous = byName.get(d.name);
    if (!previous) {
      const copy = d.kind === "interface" ? copyInterface(d) : d;
      byName.set(d.name, copy);
      merged.push(copy);
    } else if (previous.kind === "interface" && d.kind === "interface") {
      mergeInto(previous, d);
    } else {
      throw new McpGenError(
        "unsupported-construct",
        `declaration merging: '${d.name}' is declared again as ${article(d.kind)} (first as ${article(previous.kind)} at line ${previous.loc.line}); only interfaces merge`,
        d.loc,
      );
    }
  }
  return { declarations: merged, byName };
}

function article(kind: Declaration["kind"]): string {
  return kind === "alias" ? "a type alias" : kind === "const" ? "a const" : "an interface";
}

function copyInterface(d: InterfaceDeclaration): InterfaceDeclaration {
  return {
    ...d,
    extends: [...d.extends],
    members: { ...d.members, properties: [...d.members.properties] },
  };
}

function mergeInto(target: InterfaceDeclaration, next: InterfaceDeclaration): void {
  if (!target.doc.text && target.doc.tags.length === 0) target.doc = next.doc;
  const bases = new Set(target.extends.map(typeKey));
  for (const base of next.extends) if (!bases.has(typeKey(base))) target.extends.push(base);
  const names = new Set(target.members.properties.map((p) => p.name));
  for (const p of next.members.properties)
    if (!names.has(p.name)) target.members.properties.push(p);
  if (!target.members.indexSignature && next.members.indexSignature)
    target.members.indexSignature = next.members.indexSignature;
}

/** The shape of a type, for comparing two bases: where they are written and their docs left out. */
function typeKey(t: TypeExpr): string {
  return JSON.stringify(t, (key, value: unknown) =>
    key === "loc" || key === "doc" ? undefined : value,
  );
}
