import { Resolver } from "../../schema/resolve.js";
import { isTypeDeclaration, type SchemaModel } from "../../schema/model.js";
import {
  buildValidationSchemas,
  jsonTypeOf,
  type Constraints,
  type JsonType,
  type Literal,
  type VSchema,
} from "../../schema/validation.js";
import { GeneratedFile } from "../print/generated-file.js";
import type { JsonValue } from "../print/json-layout.js";
import type { Generator } from "./plugin.js";

// schema.json: the revision as JSON Schema 2020-12, from the same validation model the
// generated validators compile (schema/validation.ts), so the two cannot disagree. The spec
// ships its own schema.json (typescript-json-schema); this one matches it in meaning
// (packages/cli/test/json-schema.test.ts compares every released revision; the differences
// are listed in packages/cli/test/json-schema-deviations.ts and docs/schema-json-deviations.md).

export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

export type JsonSchema = { [keyword: string]: JsonValue };

/**
 * The revision's JSON Schema: every type declaration under `$defs`, by name, sorted (as the
 * spec's schema.json lists them), so the same schema.ts always gives the same bytes.
 * `comment` is written as `$comment` (JSON has no comment lines: the generated header).
 */
export function buildJsonSchema(model: SchemaModel, comment?: string): JsonSchema {
  const schemas = buildValidationSchemas(model);
  const resolver = new Resolver(model);
  const defs: JsonSchema = {};
  const names = model.declarations.filter(isTypeDeclaration).map((d) => d.name);
  for (const name of [...names].sort(byCodePoint)) {
    const declaration = model.byName.get(name)!;
    const schema = toJsonSchema(schemas.get(name)!);
    // Descriptions of the declaration and its own (flattened) properties: annotations only.
    const object = resolver.objectOf(name);
    const properties = schema["properties"] as JsonSchema | undefined;
    if (object && properties && schema["type"] === "object") {
      for (const [key, property] of object.properties) {
        const text = property.doc.text.trim();
        const target = properties[key] as JsonSchema | undefined;
        if (text && target) properties[key] = describe(target, text);
      }
    }
    const text = declaration.doc.text.trim();
    defs[name] = text ? describe(schema, text) : schema;
  }
  return {
    $schema: JSON_SCHEMA_DIALECT,
    ...(comment ? { $comment: comment } : {}),
    $defs: defs,
  };
}

/** `description` first, as a reader looks for it. */
function describe(schema: JsonSchema, description: string): JsonSchema {
  return { description, ...schema };
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function typeKeyword(types: readonly JsonType[]): JsonValue {
  return types.length === 1 ? types[0]! : [...types];
}

/** One VSchema as JSON Schema 2020-12 (`$ref` beside other keywords is allowed there). */
export function toJsonSchema(s: VSchema): JsonSchema {
  switch (s.kind) {
    case "any":
      return {};
    case "never":
      return { not: {} };
    case "ref":
      return { $ref: `#/$defs/${s.name}` };
    case "types":
      return { type: typeKeyword(s.types) };
    case "const":
      return { type: jsonTypeOf(s.value), const: s.value };
    case "enum":
      return enumSchema(s.values);
    case "object":
      return objectSchema(s);
    case "array":
      return { type: "array", items: toJsonSchema(s.items) };
    case "anyOf": {
      // A union of literals is an enum, as the spec's schema.json writes it.
      const literals = s.members.every((m) => m.kind === "const");
      if (literals) return enumSchema(s.members.map((m) => (m as { value: Literal }).value));
      return { anyOf: s.members.map(toJsonSchema) };
    }
    case "allOf":
      return { allOf: s.members.map(toJsonSchema) };
    case "constrained":
      return { ...toJsonSchema(s.schema), ...constraintKeywords(s.constraints) };
  }
}

function enumSchema(values: readonly Literal[]): JsonSchema {
  const types = [...new Set(values.map(jsonTypeOf))];
  return { type: typeKeyword(types), enum: [...values] };
}

function objectSchema(s: Extract<VSchema, { kind: "object" }>): JsonSchema {
  const out: JsonSchema = { type: "object" };
  if (s.properties.length > 0) {
    const properties: JsonSchema = {};
    for (const p of s.properties) properties[p.name] = toJsonSchema(p.schema);
    out["properties"] = properties;
    const required = s.properties.filter((p) => p.required).map((p) => p.name);
    if (required.length > 0) out["required"] = required;
  }
  if (s.additional) out["additionalProperties"] = toJsonSchema(s.additional);
  return out;
}

function constraintKeywords(c: Constraints): JsonSchema {
  const out: JsonSchema = {};
  // In a fixed order: the object's key order is the file's byte order.
  for (const key of CONSTRAINT_ORDER) {
    const value = c[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const CONSTRAINT_ORDER: readonly (keyof Constraints)[] = [
  "format",
  "pattern",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
];

/** schema.json: the revision's JSON Schema 2020-12 (not generated unless named). */
export const jsonSchemaGenerator: Generator = {
  name: "json-schema",
  description: "schema.json: every schema type as JSON Schema 2020-12 (not run unless named)",
  optional: true,
  emit({ loaded, header }) {
    const schema = buildJsonSchema(loaded.model, header.replace(/^\/\/ /, ""));
    return [GeneratedFile.json("schema.json", schema)];
  },
};
