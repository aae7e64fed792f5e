// The schema model: a faithful, syntax-level picture of every declaration in a
// schema.ts, with source locations. It says nothing about the protocol yet;
// protocol.ts derives that from it.

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export interface DocTag {
  name: string;
  text: string;
}

export interface Doc {
  /** The JSDoc description (the text before the first tag). */
  text: string;
  tags: DocTag[];
}

export type KeywordName =
  "string" | "number" | "boolean" | "null" | "undefined" | "unknown" | "any" | "never" | "object";

export type TypeExpr =
  | { kind: "keyword"; name: KeywordName; loc: SourceLocation }
  | { kind: "literal"; value: string | number | boolean; loc: SourceLocation }
  /** `typeof SOME_CONST`: the const's literal type. */
  | { kind: "typeof"; name: string; loc: SourceLocation }
  /** A reference to a declaration of the schema. */
  | { kind: "ref"; name: string; loc: SourceLocation }
  | { kind: "array"; element: TypeExpr; loc: SourceLocation }
  /** A type literal `{ ... }`, `{}` included. */
  | { kind: "object"; members: ObjectMembers; loc: SourceLocation }
  | { kind: "union"; members: TypeExpr[]; loc: SourceLocation }
  | { kind: "intersection"; members: TypeExpr[]; loc: SourceLocation }
  /** `Omit<Base, "a" | "b">` */
  | { kind: "omit"; base: TypeExpr; keys: string[]; loc: SourceLocation }
  /** `Record<Key, Value>` */
  | { kind: "record"; key: TypeExpr; value: TypeExpr; loc: SourceLocation };

export interface Property {
  name: string;
  optional: boolean;
  type: TypeExpr;
  doc: Doc;
  loc: SourceLocation;
}

export interface IndexSignature {
  keyName: string;
  keyType: "string" | "number";
  type: TypeExpr;
  doc: Doc;
  loc: SourceLocation;
}

export interface ObjectMembers {
  properties: Property[];
  indexSignature?: IndexSignature;
}

interface DeclarationBase {
  name: string;
  exported: boolean;
  doc: Doc;
  loc: SourceLocation;
}

export interface InterfaceDeclaration extends DeclarationBase {
  kind: "interface";
  /** Each heritage clause entry: a `ref` or an `omit`. */
  extends: TypeExpr[];
  members: ObjectMembers;
}

export interface AliasDeclaration extends DeclarationBase {
  kind: "alias";
  type: TypeExpr;
}

export interface ConstDeclaration extends DeclarationBase {
  kind: "const";
  value: string | number | boolean;
}

export type Declaration = InterfaceDeclaration | AliasDeclaration | ConstDeclaration;
export type TypeDeclaration = InterfaceDeclaration | AliasDeclaration;

export interface SchemaModel {
  /** Absolute path of the schema.ts that was read. */
  file: string;
  /** First 12 hex digits of the file's sha256: names the input in generated headers. */
  sha256: string;
  /** Every declaration, in source order. */
  declarations: Declaration[];
  byName: ReadonlyMap<string, Declaration>;
}

export function isTypeDeclaration(d: Declaration | undefined): d is TypeDeclaration {
  return d !== undefined && (d.kind === "interface" || d.kind === "alias");
}

export function hasTag(doc: Doc, name: string): boolean {
  return doc.tags.some((t) => t.name === name);
}

export function tagText(doc: Doc, name: string): string | undefined {
  return doc.tags.find((t) => t.name === name)?.text;
}

/** JSON Schema keywords whose value is a number, as validators enforce them. */
export const NUMERIC_KEYWORDS: ReadonlySet<string> = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
]);

/**
 * Tags that change validation: they appear in schema.json. typescript-json-schema
 * reads `@TJS-<keyword>` and any JSON Schema keyword written as a tag.
 */
const VALIDATION_KEYWORDS = new Set([
  ...NUMERIC_KEYWORDS,
  "minProperties",
  "maxProperties",
  "pattern",
  "format",
  "uniqueItems",
  "nullable",
  "default",
  "contentEncoding",
  "contentMediaType",
]);

/** The validation keywords a doc carries, `@TJS-type number` as `type: "number"`. */
export function validationTags(doc: Doc): Record<string, string> {
  const out: Record<string, string> = {};
  for (const tag of doc.tags) {
    if (tag.name.startsWith("TJS-")) out[tag.name.slice(4)] = tag.text;
    else if (VALIDATION_KEYWORDS.has(tag.name)) out[tag.name] = tag.text;
  }
  return out;
}
