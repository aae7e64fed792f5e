// The one list of places where mcp-gen's schema.json (the json-schema generator) differs in
// meaning from the spec's own schema.json, after both are brought to one normal form
// (test/support/json-schema-compare.ts). packages/cli/test/json-schema.test.ts fails on a
// difference not listed here and on an entry that no longer differs;
// docs/schema-json-deviations.md shows the table.

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface JsonSchemaDeviation {
  revision: string;
  /** The definition, then the JSON pointer inside it, in normal form. */
  path: string;
  /** The normal form in the spec's schema.json. */
  spec: Json;
  /** The normal form in mcp-gen's. */
  emitted: Json;
  reason: string;
}

const JSON_OBJECT = { $ref: "#/$defs/JSONObject" };
const JSON_ARRAY_INLINE = { items: { $ref: "#/$defs/JSONValue" }, type: ["array"] };
const SPEC_PRIMITIVES = { type: ["boolean", "integer", "string"] };
const PRIMITIVES_WITH_NULL = { type: ["boolean", "integer", "null", "string"] };

const NULL_IS_JSON =
  "schema.ts: `JSONValue = string | number | boolean | null | JSONObject | JSONArray`. typescript-json-schema runs without strictNullChecks and drops `null`; mcp-gen keeps it, as its validators do (the JSONValue entry of packages/cli/test/schema-json-deviations.ts).";

export const JSON_SCHEMA_DEVIATIONS: JsonSchemaDeviation[] = [
  {
    revision: "2026-07-28",
    path: "JSONValue/anyOf",
    spec: [JSON_OBJECT, JSON_ARRAY_INLINE, SPEC_PRIMITIVES],
    emitted: [JSON_OBJECT, JSON_ARRAY_INLINE, PRIMITIVES_WITH_NULL],
    reason: NULL_IS_JSON,
  },
  {
    revision: "2026-07-28",
    path: "JSONObject/additionalProperties/anyOf",
    spec: [JSON_OBJECT, JSON_ARRAY_INLINE, SPEC_PRIMITIVES],
    emitted: [JSON_OBJECT, JSON_ARRAY_INLINE, PRIMITIVES_WITH_NULL],
    reason: `The same \`null\`, seen through JSONObject's values (JSONValue). ${NULL_IS_JSON}`,
  },
  {
    revision: "2026-07-28",
    path: "JSONArray/items/anyOf",
    spec: [JSON_OBJECT, JSON_ARRAY_INLINE, SPEC_PRIMITIVES],
    emitted: [{ $ref: "#/$defs/JSONArray" }, JSON_OBJECT, PRIMITIVES_WITH_NULL],
    reason:
      "The same `null`, seen through JSONArray's items (JSONValue). The `$ref` to JSONArray is spelling, not meaning: the two are recursive through each other, so the normal form, which inlines JSONArray once, keeps the reference on one side where the spec's file spells the array out.",
  },
];
