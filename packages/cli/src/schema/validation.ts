import { McpGenError, quoteText } from "./diagnostics.js";
import {
  NUMERIC_KEYWORDS,
  validationTags,
  type Doc,
  type InterfaceDeclaration,
  type SchemaModel,
  type SourceLocation,
  type TypeExpr,
} from "./model.js";
import { backtrackingProblem } from "./regex/regex-safety.js";
import { Resolver, type ResolvedObject, type ResolvedProperty } from "./resolve.js";

// What a value must look like to be a schema type, in JSON Schema's terms: the rules
// typescript-json-schema applies when the spec derives schema.json from schema.ts
// (`--defaultNumberType integer --required`), so generated validators agree with it.
// Deliberate differences are listed in docs/schema-json-deviations.md.

export type JsonType = "string" | "integer" | "number" | "boolean" | "null";
export type Literal = string | number | boolean;

export interface Constraints {
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}

export interface ObjectProperty {
  name: string;
  required: boolean;
  schema: VSchema;
}

export type VSchema =
  | { kind: "any" }
  | { kind: "never" }
  | { kind: "ref"; name: string }
  | { kind: "types"; types: JsonType[] }
  | { kind: "const"; value: Literal }
  | { kind: "enum"; values: Literal[] }
  /**
   * `additional` validates properties not declared; undefined: anything goes. `bases`: the
   * interfaces whose validators check the `inherited` properties (still in `properties`).
   */
  | {
      kind: "object";
      properties: ObjectProperty[];
      additional: VSchema | undefined;
      bases?: string[];
      inherited?: ReadonlySet<string>;
    }
  | { kind: "array"; items: VSchema }
  | { kind: "anyOf"; members: VSchema[] }
  | { kind: "allOf"; members: VSchema[] }
  /** Keyword constraints: each applies only to values of its JSON type. */
  | { kind: "constrained"; schema: VSchema; constraints: Constraints };

/**
 * The `@format`s the generated validators implement, as ajv-formats' "full" mode checks
 * them. Any other format is an error: schema.json would check it, so accepting any string
 * would silently disagree with it.
 */
export const SUPPORTED_FORMATS: readonly string[] = ["uri", "byte", "uri-template"];

function checkedFormat(format: string, loc: SourceLocation): string {
  if (SUPPORTED_FORMATS.includes(format)) return format;
  throw new McpGenError(
    "unsupported-construct",
    `unsupported construct: @format ${format} (supported: ${SUPPORTED_FORMATS.join(", ")})`,
    loc,
  );
}

/**
 * A `@pattern` must compile (as a Unicode regex, as the validators run it) and must not
 * backtrack catastrophically: packages/cli/src/schema/regex/regex-safety.ts refuses every pattern whose automaton
 * is ambiguous enough for a failing match to take more than linear time (strings may be
 * megabytes long).
 */
function checkedPattern(pattern: string, loc: SourceLocation): string {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    throw new McpGenError(
      "unsupported-construct",
      `invalid @pattern ${quoteText(pattern)}: ${(error as Error).message}`,
      loc,
    );
  }
  const problem = backtrackingProblem(pattern);
  if (problem)
    throw new McpGenError(
      "unsupported-construct",
      `@pattern ${quoteText(pattern)} ${problem}`,
      loc,
    );
  return pattern;
}

/** Tags that describe rather than constrain (and `type`/`nullable`, handled apart). */
const ANNOTATIONS = new Set(["type", "nullable", "default", "contentEncoding", "contentMediaType"]);

/** The validation schema of every type declaration, by name. */
export function buildValidationSchemas(model: SchemaModel): Map<string, VSchema> {
  const converter = new Converter(new Resolver(model));
  const out = new Map<string, VSchema>();
  for (const d of model.declarations) {
    if (d.kind === "interface") out.set(d.name, converter.interfaceSchema(d));
    else if (d.kind === "alias") out.set(d.name, converter.withTags(d.type, d.doc));
  }
  return out;
}

type ObjectSchema = Extract<VSchema, { kind: "object" }>;

class Converter {
  /** Per property and per declared object: converted once, however many interfaces inherit it. */
  private readonly properties = new WeakMap<ResolvedProperty, VSchema>();
  private readonly objects = new WeakMap<ResolvedObject, ObjectSchema>();

  constructor(readonly resolver: Resolver) {}

  /**
   * An interface's schema. Its validators call those of the interfaces it extends instead of
   * repeating their properties (`bases`): a chain of n interfaces gave validators of size
   * n²/2 (36 MB at 500 levels). Only where the call checks exactly what the flattened type
   * does: the base is an interface that checks no undeclared keys, none of its properties is
   * redeclared here or declared by another base, and this interface checks no undeclared
   * keys either (that check names every property, inherited ones too).
   */
  interfaceSchema(d: InterfaceDeclaration): VSchema {
    const schema = this.objectSchema(this.resolver.objectOf(d.name)!);
    if (schema.additional) return schema;
    const own = new Set(d.members.properties.map((p) => p.name));
    const names = d.extends.map((b) => [...(this.resolver.object(b)?.properties.keys() ?? [])]);
    const declaredBy = new Map<string, number>();
    for (const n of names.flat()) declaredBy.set(n, (declaredBy.get(n) ?? 0) + 1);
    const bases: string[] = [];
    const inherited = new Set<string>();
    d.extends.forEach((b, i) => {
      if (b.kind !== "ref" || this.resolver.declaration(b.name)?.kind !== "interface") return;
      if (this.objectSchema(this.resolver.objectOf(b.name)!).additional) return;
      if (names[i]!.some((n) => own.has(n) || declaredBy.get(n)! > 1)) return;
      bases.push(b.name);
      for (const n of names[i]!) inherited.add(n);
    });
    return bases.length > 0 ? { ...schema, bases, inherited } : schema;
  }

  /** A type with the validation tags of the property or alias that declares it. */
  withTags(type: TypeExpr, doc: Doc): VSchema {
    const tags = validationTags(doc);
    const numberType = tags["type"] === "number" ? "number" : "integer";
    let schema =
      tags["type"] && tags["type"] !== "number"
        ? this.tjsType(tags["type"], type)
        : this.convert(type, numberType);
    const constraints: Constraints = {};
    for (const [name, text] of Object.entries(tags)) {
      if (name === "format") constraints.format = checkedFormat(text.trim(), type.loc);
      else if (name === "pattern") constraints.pattern = checkedPattern(text.trim(), type.loc);
      else if (NUMERIC_KEYWORDS.has(name)) {
        const value = Number(text.trim());
        if (!Number.isFinite(value))
          throw new McpGenError(
            "unsupported-construct",
            `@${name} needs a number, found '${text}'`,
            type.loc,
          );
        (constraints as Record<string, number>)[name] = value;
      } else if (!ANNOTATIONS.has(name)) {
        // A keyword that validates but that the compiled validators do not implement.
        throw new McpGenError(
          "unsupported-construct",
          `unsupported construct: validation tag @${name}`,
          type.loc,
        );
      }
    }
    if (Object.keys(constraints).length > 0) schema = { kind: "constrained", schema, constraints };
    if ("nullable" in tags)
      schema = { kind: "anyOf", members: [schema, { kind: "types", types: ["null"] }] };
    return schema;
  }

  private tjsType(name: string, type: TypeExpr): VSchema {
    const types = name.split(/[\s,|]+/).filter(Boolean);
    if (
      !types.every((t): t is JsonType =>
        ["string", "integer", "number", "boolean", "null"].includes(t),
      )
    ) {
      throw new McpGenError(
        "unsupported-construct",
        `unsupported construct: @TJS-type ${name}`,
        type.loc,
      );
    }
    return { kind: "types", types };
  }

  convert(type: TypeExpr, numberType: "integer" | "number"): VSchema {
    switch (type.kind) {
      case "keyword":
        switch (type.name) {
          case "string":
          case "boolean":
          case "null":
            return { kind: "types", types: [type.name] };
          case "number":
            return { kind: "types", types: [numberType] };
          case "unknown":
          case "any":
            return { kind: "any" };
          case "object":
            return { kind: "object", properties: [], additional: undefined };
          case "never":
          case "undefined":
            return { kind: "never" };
        }
        return { kind: "never" };
      case "literal":
        return { kind: "const", value: type.value };
      case "typeof": {
        const value = this.resolver.literal(type);
        if (value === undefined)
          throw new McpGenError(
            "unknown-type",
            `'typeof ${type.name}' has no literal value`,
            type.loc,
          );
        return { kind: "const", value };
      }
      case "ref":
        return { kind: "ref", name: type.name };
      case "array":
        return { kind: "array", items: this.convert(type.element, numberType) };
      case "union":
        return this.union(type.members, numberType);
      case "intersection":
        return { kind: "allOf", members: type.members.map((m) => this.convert(m, numberType)) };
      case "object":
      case "omit":
      case "record": {
        const obj = this.resolver.object(type);
        if (!obj)
          throw new McpGenError(
            "unsupported-construct",
            `unsupported construct: ${type.kind} of a non-object type`,
            type.loc,
          );
        return this.objectSchema(obj);
      }
    }
  }

  /** TypeScript drops `undefined` from a union of optional values; JSON has none. */
  private union(members: TypeExpr[], numberType: "integer" | "number"): VSchema {
    const kept = members.filter((m) => !(m.kind === "keyword" && m.name === "undefined"));
    const schemas = kept.map((m) => this.convert(m, numberType));
    // `"a" | string` is `string`: a literal next to its own primitive adds nothing.
    const primitives = new Set(schemas.flatMap((s) => (s.kind === "types" ? s.types : [])));
    const absorbed = schemas.filter(
      (s) => !(s.kind === "const" && primitives.has(jsonTypeOf(s.value))),
    );
    // Primitive members become one `types` check (`string | number` -> string or integer).
    const others = absorbed.filter((s) => s.kind !== "types");
    const merged: VSchema[] =
      primitives.size > 0 ? [{ kind: "types", types: [...primitives] }, ...others] : others;
    if (merged.length === 1) return merged[0]!;
    return { kind: "anyOf", members: merged };
  }

  objectSchema(obj: ResolvedObject): ObjectSchema {
    let schema = this.objects.get(obj);
    if (schema) return schema;
    const properties = [...obj.properties.values()].map((p) => {
      let property = this.properties.get(p);
      if (!property) this.properties.set(p, (property = this.withTags(p.type, p.doc)));
      return { name: p.name, required: !p.optional, schema: property };
    });
    const index = obj.indexSignature;
    const additional = index ? this.withTags(index.type, index.doc) : undefined;
    schema = {
      kind: "object",
      properties,
      additional: additional?.kind === "any" ? undefined : additional,
    };
    this.objects.set(obj, schema);
    return schema;
  }
}

export function jsonTypeOf(value: Literal): JsonType {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  return Number.isInteger(value) ? "integer" : "number";
}
