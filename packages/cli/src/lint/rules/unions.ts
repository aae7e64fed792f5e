import type { TypeExpr } from "../../schema/model.js";
import type { Resolver } from "../../schema/resolve.js";
import type { RawFinding, Rule } from "../finding.js";

// A union of object types whose members share no required literal field (a `type`, a
// `method`) can only be told apart by trying each member's shape in turn: generated
// validators then report every member's errors, and a reader cannot tell which member a
// value is at a glance.

export const unionWithoutDiscriminant: Rule = {
  id: "union-without-discriminant",
  severity: "warning",
  summary: "a union of object types has no field whose literal value tells its members apart",
  check: ({ loaded, resolver }) => {
    const out: RawFinding[] = [];
    for (const d of loaded.model.declarations) {
      if (d.kind !== "alias" || d.type.kind !== "union") continue;
      const members = resolver.unionMembers(d.type);
      if (members.length < 2) continue;
      const shapes = members.map((m) => resolver.object(m));
      // A union with a primitive or literal member (`string | number`, enums) is told apart by
      // JSON type; only unions of objects need a discriminant.
      if (shapes.some((s) => s === undefined)) continue;
      if (discriminant(resolver, members) !== undefined) continue;
      const names = members.map(memberName).join(" | ");
      out.push({
        loc: d.loc,
        message: `union ${d.name} (${names}) has no discriminant: no required field has a distinct literal value in every member`,
      });
    }
    return out;
  },
};

function memberName(m: TypeExpr): string {
  return m.kind === "ref" ? m.name : m.kind;
}

/** The first field every member requires with a literal value, no two members the same. */
export function discriminant(r: Resolver, members: TypeExpr[]): string | undefined {
  const [first, ...rest] = members.map((m) => r.object(m)!);
  for (const [name, p] of first!.properties) {
    if (p.optional) continue;
    const values = [r.literal(p.type)];
    for (const shape of rest) {
      const q = shape.properties.get(name);
      values.push(q && !q.optional ? r.literal(q.type) : undefined);
    }
    if (values.some((v) => v === undefined)) continue;
    if (new Set(values).size === values.length) return name;
  }
  return undefined;
}
