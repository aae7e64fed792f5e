import type { Doc, Property, TypeExpr } from "../../schema/model.js";
import type { RawFinding, Rule } from "../finding.js";

// A type or field without a description reaches generated code (types.ts, the client's
// JSDoc) with nothing to tell its reader what it is for.

const undocumented = (doc: Doc): boolean => doc.text.trim() === "";

export const undocumentedType: Rule = {
  id: "undocumented-type",
  severity: "warning",
  summary: "a type declaration has no JSDoc description",
  check: ({ loaded }) =>
    loaded.model.declarations
      .filter((d) => d.kind !== "const" && undocumented(d.doc))
      .map((d) => ({ loc: d.loc, message: `type ${d.name} has no description` })),
};

export const undocumentedField: Rule = {
  id: "undocumented-field",
  severity: "info",
  summary: "a field of an interface or object type has no JSDoc description",
  check: ({ loaded }) => {
    const out: RawFinding[] = [];
    for (const d of loaded.model.declarations) {
      if (d.kind === "interface") {
        for (const p of d.members.properties) visitProperty(d.name, p, out);
      } else if (d.kind === "alias") {
        visitType(d.name, d.type, out);
      }
    }
    return out;
  },
};

function visitProperty(owner: string, p: Property, out: RawFinding[]): void {
  const path = `${owner}.${p.name}`;
  if (undocumented(p.doc)) out.push({ loc: p.loc, message: `field ${path} has no description` });
  visitType(path, p.type, out);
}

/** Fields of object literals nested in a type (`params: { ... }`), named by their path. */
function visitType(owner: string, t: TypeExpr, out: RawFinding[]): void {
  switch (t.kind) {
    case "object":
      for (const p of t.members.properties) visitProperty(owner, p, out);
      return;
    case "array":
      return visitType(owner, t.element, out);
    case "union":
    case "intersection":
      for (const m of t.members) visitType(owner, m, out);
      return;
    case "omit":
      return visitType(owner, t.base, out);
    case "record":
      return visitType(owner, t.value, out);
    default:
      return;
  }
}
