import fc from "fast-check";
import type { Constraints, VSchema } from "../src/schema/validation.js";

// Value generators for differential testing. They read mcp-gen's own validation schemas
// only to produce likely-valid candidates; the verdict always comes from the oracle
// (ajv on schema.json), so a generator bug cannot hide a validator bug.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const FORMAT_VALUES: Record<string, fc.Arbitrary<string>> = {
  uri: fc.oneof(
    fc.webUrl(),
    fc.constantFrom(
      "file:///tmp/a.txt",
      "urn:isbn:0451450523",
      "mailto:a@example.com",
      "data:text/plain;base64,SGk=",
    ),
  ),
  byte: fc.base64String({ maxLength: 24 }),
  "uri-template": fc.constantFrom(
    "file:///{path}",
    "https://example.com/{id}{?q,page}",
    "res://{+rest}",
    "plain",
  ),
};

export class ArbitraryBuilder {
  private readonly cache = new Map<string, fc.Arbitrary<Json>>();

  constructor(private readonly schemas: ReadonlyMap<string, VSchema>) {}

  /** Values of a named type, with recursion cut off after a few levels. */
  named(name: string, depth = 0): fc.Arbitrary<Json> {
    const key = `${name}@${depth}`;
    let arb = this.cache.get(key);
    if (!arb) {
      arb = fc.constant(null).chain(() => this.of(this.schemas.get(name)!, depth));
      this.cache.set(key, arb);
    }
    return arb;
  }

  of(s: VSchema, depth: number): fc.Arbitrary<Json> {
    switch (s.kind) {
      case "any":
        return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
      case "never":
        return fc.constant(null);
      case "ref":
        // Deep recursion gets a leaf: validity may break there, which the oracle judges.
        return depth > 3 ? fc.constant({}) : this.named(s.name, depth + 1);
      case "types":
        return fc.oneof(...s.types.map((t) => primitive(t, undefined)));
      case "const":
        return fc.constant(s.value);
      case "enum":
        return fc.constantFrom(...s.values);
      case "object":
        return this.object(s, depth);
      case "array":
        return fc.array(this.of(s.items, depth + 1), { maxLength: depth > 2 ? 1 : 3 });
      case "anyOf":
        return fc.oneof(...s.members.map((m) => this.of(m, depth)));
      case "allOf":
        return fc
          .tuple(...s.members.map((m) => this.of(m, depth)))
          .map((parts) =>
            parts.every((p) => typeof p === "object" && p !== null && !Array.isArray(p))
              ? (Object.assign({}, ...parts) as Json)
              : parts[parts.length - 1]!,
          );
      case "constrained":
        return this.constrained(s.schema, s.constraints, depth);
    }
  }

  private constrained(inner: VSchema, c: Constraints, depth: number): fc.Arbitrary<Json> {
    if (inner.kind === "types" && c.format && FORMAT_VALUES[c.format])
      return FORMAT_VALUES[c.format]!;
    if (inner.kind === "types" && (c.minimum !== undefined || c.maximum !== undefined)) {
      return fc.oneof(...inner.types.map((t) => primitive(t, c)));
    }
    if (inner.kind === "array" && c.maxItems !== undefined) {
      return fc.array(this.of(inner.items, depth + 1), { maxLength: Math.min(c.maxItems, 3) });
    }
    return this.of(inner, depth);
  }

  private object(s: Extract<VSchema, { kind: "object" }>, depth: number): fc.Arbitrary<Json> {
    const record: Record<string, fc.Arbitrary<Json>> = {};
    const requiredKeys: string[] = [];
    for (const p of s.properties) {
      record[p.name] = this.of(p.schema, depth + 1);
      if (p.required) requiredKeys.push(p.name);
    }
    const base = fc.record(record, { requiredKeys }) as fc.Arbitrary<{ [key: string]: Json }>;
    const extraValue = s.additional
      ? this.of(s.additional, depth + 1)
      : (fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>);
    const extras = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), extraValue, {
      maxKeys: depth > 2 ? 0 : 2,
    });
    return fc.tuple(extras, base).map(([extra, declared]) => ({ ...extra, ...declared }));
  }
}

function primitive(t: string, c: Constraints | undefined): fc.Arbitrary<Json> {
  const min = c?.minimum ?? -1e6;
  const max = c?.maximum ?? 1e6;
  switch (t) {
    case "string":
      return fc.string({ maxLength: 12 });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "integer":
      return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
    case "number":
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    default:
      throw new Error(`unknown type ${t}`);
  }
}

/** Every path (as key lists) into a JSON value. */
function paths(
  value: Json,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

const WRONG_VALUES: Json[] = [
  null,
  0,
  -1,
  1.5,
  1e21,
  "",
  "x",
  "not a uri",
  "::",
  "%zz",
  true,
  [],
  {},
  [1, "a"],
  { a: 1 },
  "a/b~c",
];

export type Mutation = "delete" | "replace" | "extra" | "nudge";

/**
 * Mutates a copy of `value` at one place: removes a field, replaces a value with one of
 * another type, literal or format, adds a field, or nudges a number or string.
 */
export function mutate(value: Json, pick: number, kind: Mutation, replacement: number): Json {
  const copy = structuredClone(value);
  const all = paths(copy);
  const path = all[pick % all.length]!;
  const wrong = WRONG_VALUES[replacement % WRONG_VALUES.length]!;
  if (path.length === 0) return kind === "replace" ? wrong : copy;
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const key = path[path.length - 1]!;
  const current = parent[key] as Json;
  switch (kind) {
    case "delete":
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case "replace":
      parent[key] = wrong;
      break;
    case "extra":
      if (typeof current === "object" && current !== null && !Array.isArray(current))
        current[`x${replacement % 7}`] = wrong;
      else parent[key] = wrong;
      break;
    case "nudge":
      if (typeof current === "number")
        parent[key] = [current + 0.5, -current - 1, current * 1e9, 1e300][replacement % 4]!;
      else if (typeof current === "string")
        parent[key] = [`${current}x`, "", ` ${current}`, `%${current}`][replacement % 4]!;
      else parent[key] = wrong;
      break;
  }
  return copy;
}

export const mutationKinds: Mutation[] = ["delete", "replace", "extra", "nudge"];

/**
 * What the differential tests feed a type's validators: generated values of `type` (with the
 * spec's `examples` among the seeds, when it has some), one in four as they are and three in
 * four mutated, so both verdicts are exercised.
 */
export function differentialCandidates(
  arbitraries: ArbitraryBuilder,
  type: string,
  examples: readonly unknown[] = [],
): fc.Arbitrary<Json> {
  const seeds =
    examples.length > 0
      ? fc.oneof(arbitraries.named(type), fc.constantFrom(...(examples as Json[])))
      : arbitraries.named(type);
  return fc.oneof(
    { weight: 1, arbitrary: seeds },
    {
      weight: 3,
      arbitrary: fc
        .tuple(seeds, fc.nat(), fc.constantFrom(...mutationKinds), fc.nat())
        .map(([value, pick, kind, replacement]) => mutate(value, pick, kind, replacement)),
    },
  );
}
