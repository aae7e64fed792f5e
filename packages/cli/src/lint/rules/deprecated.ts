import type { Doc, Property, SourceLocation, TypeExpr } from "../../schema/model.js";
import { tagText, hasTag } from "../../schema/model.js";
import type { RawFinding, Rule } from "../finding.js";

// A deprecation the generator passes on (`@deprecated` in types.ts, the notes `generate`
// prints for handlers that use one) tells a user to move away, but not why or by when,
// unless the tag names the SEP that decided it or the date of removal.

const SEP_REFERENCE = /\bSEP-\d+\b/;
/** A date or protocol version next to a word of removal: "removed in 2027-01-01", "removal: 2026-07-28". */
const REMOVAL_DATE = /\bremov\w*\b[^.]*\b\d{4}-\d{2}-\d{2}\b/i;

export function deprecationProblem(doc: Doc): string | undefined {
  if (!hasTag(doc, "deprecated")) return undefined;
  const text = tagText(doc, "deprecated") ?? "";
  if (SEP_REFERENCE.test(text) || REMOVAL_DATE.test(text)) return undefined;
  return text.trim() === ""
    ? "has a bare @deprecated"
    : "has @deprecated with no SEP or removal date";
}

export const deprecatedWithoutReference: Rule = {
  id: "deprecated-without-reference",
  severity: "warning",
  summary:
    "an @deprecated tag names neither the SEP that deprecated it (SEP-1234) nor a removal date",
  check: ({ loaded }) => {
    const out: RawFinding[] = [];
    const report = (what: string, doc: Doc, loc: SourceLocation) => {
      const problem = deprecationProblem(doc);
      if (problem) out.push({ loc, message: `${what} ${problem}` });
    };
    const visitProperty = (owner: string, p: Property) => {
      report(`field ${owner}.${p.name}`, p.doc, p.loc);
      visitType(`${owner}.${p.name}`, p.type);
    };
    const visitType = (owner: string, t: TypeExpr) => {
      if (t.kind === "object") for (const p of t.members.properties) visitProperty(owner, p);
      else if (t.kind === "array") visitType(owner, t.element);
      else if (t.kind === "union" || t.kind === "intersection")
        for (const m of t.members) visitType(owner, m);
    };
    for (const d of loaded.model.declarations) {
      report(d.kind === "const" ? `constant ${d.name}` : `type ${d.name}`, d.doc, d.loc);
      if (d.kind === "interface") for (const p of d.members.properties) visitProperty(d.name, p);
      else if (d.kind === "alias") visitType(d.name, d.type);
    }
    return out;
  },
};
