// Compares two JSON Schemas by meaning, not by spelling: the spec's schema.json (draft-07 up
// to 2025-06-18, 2020-12 since) and mcp-gen's json-schema output. Both are brought to one
// normal form (2020-12 names, annotations dropped, sets sorted, literal unions as one enum,
// unions of plain types as one type list), then walked side by side; every place they still
// differ is one Difference, at a path from the definition's name.

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Schema = { [key: string]: Json };

export interface Difference {
  /** `Type/properties/name/type`: the definition, then the JSON pointer inside it. */
  path: string;
  /** The normalised value in the spec's schema.json (undefined: absent there). */
  spec: Json | undefined;
  /** The normalised value in the emitted schema. */
  emitted: Json | undefined;
}

/** Keywords that describe without constraining: left out of the comparison. */
const ANNOTATIONS = new Set([
  "$comment",
  "$schema",
  "title",
  "description",
  "markdownDescription",
  "default",
  "examples",
  "deprecated",
  "contentEncoding",
  "contentMediaType",
]);

const isSchema = (v: Json | undefined): v is Schema =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: Json | undefined) => JSON.stringify(v);
const byText = (a: Json, b: Json) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0);

function jsonType(value: Json): string {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return Array.isArray(value) ? "array" : "object";
}

const typeList = (t: Json | undefined): string[] =>
  t === undefined ? [] : Array.isArray(t) ? (t as string[]) : [t as string];

/**
 * The definitions of a schema document, by name, each in normal form. A reference is
 * replaced by what it names (the same meaning: 2020-12 and draft-07 documents without `$id`)
 * where the two generators choose differently between naming and inlining: an alias of an
 * alias is followed to the end, and a definition that is not an object type (a union, a
 * primitive, an array) is inlined, as is the one a definition is a bare alias of. References
 * to object types stay, and so does a reference back into the definition being inlined.
 */
export function normalDefinitions(document: Schema): Map<string, Schema> {
  const raw = (document["$defs"] ?? document["definitions"] ?? {}) as Record<string, Json>;
  const defs = new Map(Object.entries(raw).map(([name, s]) => [name, s as Schema]));
  return new Map(
    [...defs].map(([name, s]) => [name, normalise(inlineRefs(s, defs, [name], true)) as Schema]),
  );
}

const refName = (ref: string) => ref.replace(/^#\/(definitions|\$defs)\//, "");
const constraining = (s: Schema) => Object.keys(s).filter((k) => !ANNOTATIONS.has(k));

/** The name a reference ends at through definitions that are only references. */
function followAliases(name: string, defs: ReadonlyMap<string, Schema>): string {
  const seen = new Set([name]);
  for (;;) {
    const def = defs.get(name);
    if (!def || constraining(def).join() !== "$ref") return name;
    const next = refName(def["$ref"] as string);
    if (seen.has(next)) return name;
    seen.add(next);
    name = next;
  }
}

const isObjectType = (s: Schema) =>
  !("anyOf" in s) &&
  !("allOf" in s) &&
  (typeList(s["type"]).includes("object") || "properties" in s);

function inlineRefs(
  v: Json,
  defs: ReadonlyMap<string, Schema>,
  stack: string[],
  top = false,
): Json {
  if (Array.isArray(v)) return v.map((x) => inlineRefs(x, defs, stack));
  if (!isSchema(v)) return v;
  if (typeof v["$ref"] === "string" && constraining(v).join() === "$ref") {
    const name = followAliases(refName(v["$ref"]), defs);
    const target = defs.get(name);
    if (target && !stack.includes(name) && (top || !isObjectType(target)))
      return inlineRefs(target, defs, [...stack, name], top);
    return { ...v, $ref: `#/$defs/${name}` };
  }
  const out: Schema = {};
  for (const [key, x] of Object.entries(v)) {
    if (key === "properties" && isSchema(x))
      out[key] = Object.fromEntries(
        Object.entries(x).map(([k, s]) => [k, inlineRefs(s, defs, stack)]),
      );
    else if (key === "const" || key === "enum" || key === "default") out[key] = x;
    else out[key] = inlineRefs(x, defs, stack);
  }
  return out;
}

/** A schema in normal form (any other JSON value as it is, arrays item by item). */
export function normalise(value: Json): Json {
  if (Array.isArray(value)) return value.map(normalise);
  if (!isSchema(value)) return value;
  const out: Schema = {};
  for (const [key, v] of Object.entries(value)) {
    if (ANNOTATIONS.has(key)) continue;
    if (key === "$ref") out[key] = (v as string).replace("#/definitions/", "#/$defs/");
    else if (key === "properties")
      out[key] = Object.fromEntries(
        Object.entries(v as Schema)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, s]) => [k, normalise(s)]),
      );
    else if (key === "enum" || key === "required") out[key] = [...(v as Json[])].sort(byText);
    else if (key === "type") out[key] = typeList(v).sort();
    else if (key === "const") out[key] = v;
    else out[key] = normalise(v);
  }
  if (isSchema(out["properties"]) && Object.keys(out["properties"]).length === 0)
    delete out["properties"];
  if (Array.isArray(out["allOf"])) {
    const members = [...new Map(out["allOf"].map((m) => [text(m), m])).values()].sort(byText);
    out["allOf"] = members;
  }
  // `additionalProperties: {}` (or true) allows what its absence allows.
  const extra = out["additionalProperties"];
  if (extra === true || (isSchema(extra) && Object.keys(extra).length === 0))
    delete out["additionalProperties"];
  if (Array.isArray(out["required"]) && out["required"].length === 0) delete out["required"];
  // A literal is a one-value enum, with its type.
  if ("const" in out) {
    out["enum"] = [out["const"]!];
    delete out["const"];
  }
  if (Array.isArray(out["enum"]) && !("type" in out))
    out["type"] = [...new Set(out["enum"].map(jsonType))].sort();
  if (Array.isArray(out["anyOf"])) return normalUnion(out);
  // allOf of one schema, alone: that schema.
  if (Array.isArray(out["allOf"]) && out["allOf"].length === 1 && Object.keys(out).length === 1)
    return out["allOf"][0]!;
  return sortedKeys(out);
}

const sortedKeys = (s: Schema): Schema =>
  Object.fromEntries(Object.entries(s).sort(([a], [b]) => (a < b ? -1 : 1)));

/** A member that is only a type list, or only literals (with their types). */
const isPlainTypes = (s: Json) => isSchema(s) && Object.keys(s).join() === "type";
const isLiterals = (s: Json) =>
  isSchema(s) && Object.keys(s).sort().join() === "enum,type" && Array.isArray(s["enum"]);

/**
 * `anyOf` in normal form: nested unions flattened, plain types merged into one type list,
 * literals into one enum (those of a type already listed are absorbed), members sorted; a
 * union of one member is that member.
 */
function normalUnion(s: Schema): Json {
  const members = (s["anyOf"] as Json[]).flatMap((m) =>
    isSchema(m) && Object.keys(m).join() === "anyOf" ? (m["anyOf"] as Json[]) : [m],
  );
  const types = new Set(
    members.filter(isPlainTypes).flatMap((m) => typeList((m as Schema)["type"])),
  );
  const literals = members
    .filter(isLiterals)
    .flatMap((m) => (m as Schema)["enum"] as Json[])
    .filter((v) => !types.has(jsonType(v)) && !(jsonType(v) === "integer" && types.has("number")));
  const others = members.filter((m) => !isPlainTypes(m) && !isLiterals(m));
  const merged: Json[] = [...others];
  if (types.size > 0) merged.push({ type: [...types].sort() });
  if (literals.length > 0)
    merged.push({ enum: literals.sort(byText), type: [...new Set(literals.map(jsonType))].sort() });
  const rest = Object.fromEntries(Object.entries(s).filter(([k]) => k !== "anyOf"));
  if (merged.length === 1 && isSchema(merged[0]) && Object.keys(rest).length === 0)
    return sortedKeys(merged[0]);
  return sortedKeys({
    ...rest,
    anyOf: merged.map((m) => (isSchema(m) ? sortedKeys(m) : m)).sort(byText),
  });
}

/** Every place two normalised definition sets differ, sorted by path. */
export function differences(
  spec: ReadonlyMap<string, Schema>,
  emitted: ReadonlyMap<string, Schema>,
): Difference[] {
  const out: Difference[] = [];
  const walk = (path: string, a: Json | undefined, b: Json | undefined): void => {
    if (isSchema(a) && isSchema(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) walk(`${path}/${key}`, a[key], b[key]);
    } else if (text(a) !== text(b)) out.push({ path, spec: a, emitted: b });
  };
  const names = [...new Set([...spec.keys(), ...emitted.keys()])].sort();
  for (const name of names) walk(name, spec.get(name), emitted.get(name));
  return out;
}
