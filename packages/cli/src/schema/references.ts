import { McpGenError } from "./diagnostics.js";
import type { Declaration, ObjectMembers, TypeExpr } from "./model.js";

/** Every `ref` and `typeof` must name a declaration of the right kind. */
export function checkReferences(
  declarations: Declaration[],
  byName: ReadonlyMap<string, Declaration>,
): void {
  const visit = (t: TypeExpr): void => {
    switch (t.kind) {
      case "ref": {
        const target = byName.get(t.name);
        if (!target)
          throw new McpGenError(
            "unknown-type",
            `unknown type '${t.name}' (not declared in the schema)`,
            t.loc,
          );
        if (target.kind === "const")
          throw new McpGenError(
            "unknown-type",
            `'${t.name}' is a const; write 'typeof ${t.name}'`,
            t.loc,
          );
        return;
      }
      case "typeof": {
        const target = byName.get(t.name);
        if (target?.kind !== "const")
          throw new McpGenError(
            "unknown-type",
            `'typeof ${t.name}' does not name a const of the schema`,
            t.loc,
          );
        return;
      }
      case "array":
        return visit(t.element);
      case "object":
        return visitMembers(t.members);
      case "union":
      case "intersection":
        return t.members.forEach(visit);
      case "omit":
        return visit(t.base);
      case "record":
        visit(t.key);
        return visit(t.value);
      default:
        return;
    }
  };
  const visitMembers = (m: ObjectMembers): void => {
    m.properties.forEach((p) => visit(p.type));
    if (m.indexSignature) visit(m.indexSignature.type);
  };
  for (const d of declarations) {
    if (d.kind === "interface") {
      d.extends.forEach(visit);
      visitMembers(d.members);
    } else if (d.kind === "alias") visit(d.type);
  }
}
