import { renderDoc } from "./jsdoc.js";
import type { Declaration, ObjectMembers, TypeExpr } from "./model.js";

// Prints the schema model back to TypeScript. Output is formatted by prettier
// afterwards, so only correctness and precedence matter here.

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

export function printType(t: TypeExpr): string {
  switch (t.kind) {
    case "keyword":
      return t.name;
    case "literal":
      return typeof t.value === "string" ? JSON.stringify(t.value) : String(t.value);
    case "typeof":
      return `typeof ${t.name}`;
    case "ref":
      return t.name;
    case "array":
      return `${wrap(t.element, ["union", "intersection"])}[]`;
    case "object":
      return printMembers(t.members);
    case "union":
      return t.members.map((m) => wrap(m, [])).join(" | ");
    case "intersection":
      return t.members.map((m) => wrap(m, ["union"])).join(" & ");
    case "omit":
      return `Omit<${printType(t.base)}, ${t.keys.map((k) => JSON.stringify(k)).join(" | ")}>`;
    case "record":
      return `Record<${printType(t.key)}, ${printType(t.value)}>`;
  }
}

function wrap(t: TypeExpr, parenthesize: TypeExpr["kind"][]): string {
  const text = printType(t);
  return parenthesize.includes(t.kind) ? `(${text})` : text;
}

function withDoc(doc: string, line: string): string {
  return doc ? `${doc}\n${line}` : line;
}

export function printMembers(members: ObjectMembers): string {
  const lines = members.properties.map((p) =>
    withDoc(renderDoc(p.doc), `${propertyKey(p.name)}${p.optional ? "?" : ""}: ${printType(p.type)};`),
  );
  const index = members.indexSignature;
  if (index) {
    lines.push(withDoc(renderDoc(index.doc), `[${index.keyName}: ${index.keyType}]: ${printType(index.type)};`));
  }
  return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n}`;
}

/** One declaration as TypeScript source, with its JSDoc. */
export function printDeclaration(d: Declaration): string {
  const exported = d.exported ? "export " : "";
  const doc = renderDoc(d.doc);
  switch (d.kind) {
    case "const":
      return withDoc(doc, `${exported}const ${d.name} = ${typeof d.value === "string" ? JSON.stringify(d.value) : String(d.value)};`);
    case "alias":
      return withDoc(doc, `${exported}type ${d.name} = ${printType(d.type)};`);
    case "interface": {
      const heritage = d.extends.length > 0 ? ` extends ${d.extends.map(printType).join(", ")}` : "";
      return withDoc(doc, `${exported}interface ${d.name}${heritage} ${printMembers(d.members)}`);
    }
  }
}
