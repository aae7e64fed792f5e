import { McpGenError } from "../../schema/diagnostics.js";
import { renderDoc } from "../../schema/jsdoc.js";
import { validationTags, type Doc, type TypeExpr } from "../../schema/model.js";
import type { Resolver, ResolvedObject } from "../../schema/resolve.js";
import { num, objectKey, quote, str } from "../print/printer.js";
import { atom, call, method, PURE, type ZExpr, type ZProperty } from "./zod-layout.js";

// The schema model (TypeScript's view: types.ts is printed from it) as zod expressions whose
// inferred types are the types of types.ts, with the validation of schema.json that the
// generated validators implement (packages/cli/src/schema/validation.ts): numbers are
// integers unless tagged `@TJS-type number`, the keyword tags constrain, objects accept
// undeclared keys and keep them.

/** Constants of zod.ts the converted expressions name; each is printed once, when used. */
export type Helper = "integer" | "uri" | "uriTemplate" | "byte" | "jsonObject" | "open";

/** The runtime's format checks (the validators' own) that the format helpers call. */
export const FORMAT_HELPERS: Record<string, Helper> = {
  uri: "uri",
  "uri-template": "uriTemplate",
  byte: "byte",
};

/** The name of the zod schema of a schema type. */
export const schemaName = (type: string) => `${type}Schema`;

const z = (name: string, ...args: ZExpr[]) => call(`z.${name}`, ...args);
const literal = (value: string | number | boolean): ZExpr =>
  atom(
    typeof value === "string"
      ? quote(value)
      : typeof value === "number"
        ? num(value)
        : String(value),
  );

export class ZodConverter {
  /** The helpers named so far. */
  readonly helpers = new Set<Helper>();

  constructor(
    private readonly resolver: Resolver,
    /** Types that reach themselves: referenced inside z.lazy only, typed by types.ts. */
    private readonly recursive: ReadonlySet<string>,
  ) {}

  private helper(name: Helper): string {
    this.helpers.add(name);
    return name;
  }

  /** The schema of a declared type. */
  declaration(name: string): ZExpr {
    const d = this.resolver.declaration(name)!;
    if (d.kind === "interface") return this.object(this.resolver.objectOf(name)!);
    return this.tagged(d.type, d.doc);
  }

  /** A type with the validation tags of the property, index signature or alias declaring it. */
  tagged(type: TypeExpr, doc: Doc): ZExpr {
    const tags = validationTags(doc);
    if (tags["type"] !== undefined && tags["type"].trim() !== "number")
      throw new McpGenError(
        "unsupported-construct",
        `the zod generator supports @TJS-type number only, found @TJS-type ${tags["type"]}`,
        type.loc,
      );
    let e = this.convert(type, tags["type"] === undefined ? "integer" : "number");
    if (tags["format"] !== undefined) e = this.format(e, tags["format"].trim(), type);
    const constrain = (keyword: string, applies: boolean, zodMethod: string, arg: () => string) => {
      if (tags[keyword] === undefined) return;
      if (!applies)
        throw new McpGenError(
          "unsupported-construct",
          `the zod generator implements @${keyword} only where the type is ${keyword === "pattern" ? "a string" : keyword.endsWith("Items") ? "an array" : "a number"}`,
          type.loc,
        );
      e = method(e, zodMethod, atom(arg()));
    };
    const bound = (keyword: string) => () => num(Number(tags[keyword]!.trim()));
    const numbers = isNumber(e);
    const arrays = e.kind === "call" && e.callee === "z.array";
    constrain(
      "pattern",
      isString(e),
      "regex",
      () => `${PURE}new RegExp(${str(tags["pattern"]!.trim())}, "u")`,
    );
    constrain("minimum", numbers, "gte", bound("minimum"));
    constrain("maximum", numbers, "lte", bound("maximum"));
    constrain("exclusiveMinimum", numbers, "gt", bound("exclusiveMinimum"));
    constrain("exclusiveMaximum", numbers, "lt", bound("exclusiveMaximum"));
    constrain("minItems", arrays, "min", bound("minItems"));
    constrain("maxItems", arrays, "max", bound("maxItems"));
    // JSON Schema counts code points (zod UTF-16 units) and its multipleOf allows float error.
    for (const keyword of ["minLength", "maxLength", "multipleOf"])
      if (tags[keyword] !== undefined)
        throw new McpGenError(
          "unsupported-construct",
          `the zod generator does not implement @${keyword} (zod's own check differs from JSON Schema's)`,
          type.loc,
        );
    if ("nullable" in tags && !this.includesNull(type)) e = z("nullable", e);
    return e;
  }

  private format(e: ZExpr, format: string, type: TypeExpr): ZExpr {
    const helper = FORMAT_HELPERS[format];
    if (e.kind !== "call" || e.callee !== "z.string" || helper === undefined)
      throw new McpGenError(
        "unsupported-construct",
        `the zod generator supports @format ${Object.keys(FORMAT_HELPERS).join(", ")} on a string only`,
        type.loc,
      );
    return atom(this.helper(helper));
  }

  private includesNull(type: TypeExpr): boolean {
    return this.resolver.unionMembers(type).some((m) => m.kind === "keyword" && m.name === "null");
  }

  convert(t: TypeExpr, numberType: "integer" | "number"): ZExpr {
    switch (t.kind) {
      case "keyword":
        switch (t.name) {
          case "number":
            return numberType === "integer" ? atom(this.helper("integer")) : z("number");
          case "object":
            return call(this.helper("jsonObject"));
          default:
            return z(t.name);
        }
      case "literal":
        return z("literal", literal(t.value));
      case "typeof": {
        const value = this.resolver.literal(t);
        if (value === undefined)
          throw new McpGenError("unknown-type", `'typeof ${t.name}' has no literal value`, t.loc);
        return z("literal", literal(value));
      }
      case "ref":
        return atom(schemaName(t.name));
      case "array":
        return z("array", this.convert(t.element, numberType));
      case "union":
        return this.union(t.members, numberType);
      case "intersection":
        return t.members
          .map((m) => this.convert(m, numberType))
          .reduceRight((right, left) => z("intersection", left, right));
      case "record":
        if (t.key.kind !== "keyword" || t.key.name !== "string")
          throw new McpGenError(
            "unsupported-construct",
            "unsupported construct: a Record whose keys are not string",
            t.loc,
          );
        return z("record", z("string"), this.convert(t.value, numberType));
      case "object":
      case "omit":
        return this.object(this.resolver.object(t)!);
    }
  }

  private union(members: TypeExpr[], numberType: "integer" | "number"): ZExpr {
    const values = members.map((m) =>
      m.kind === "literal" || m.kind === "typeof" ? this.resolver.literal(m) : undefined,
    );
    if (values.every((v) => typeof v === "string") && new Set(values).size === values.length)
      return z("enum", { kind: "array", items: values.map((v) => literal(v!)) });
    const discriminant = this.discriminant(members);
    const items = members.map((m) => this.convert(m, numberType));
    if (discriminant)
      return z("discriminatedUnion", atom(quote(discriminant)), { kind: "array", items });
    return z("union", { kind: "array", items });
  }

  /**
   * A property every member (a named object type, not recursive) declares required with a
   * literal type, a different one each: zod then picks the member by it, as the validators do.
   */
  private discriminant(members: TypeExpr[]): string | undefined {
    if (members.length < 2) return undefined;
    const objects = members.map((m) =>
      m.kind === "ref" && !this.recursive.has(m.name) && this.isObjectSchema(m.name)
        ? this.resolver.objectOf(m.name)
        : undefined,
    );
    if (objects.some((o) => o === undefined)) return undefined;
    const [first] = objects as ResolvedObject[];
    for (const name of first!.properties.keys()) {
      const values = (objects as ResolvedObject[]).map((o) => {
        const p = o.properties.get(name);
        return p && !p.optional ? this.resolver.literal(p.type) : undefined;
      });
      if (values.every((v) => v !== undefined) && new Set(values).size === values.length)
        return name;
    }
    return undefined;
  }

  /** Whether a declared type's schema is a zod object (what z.discriminatedUnion takes). */
  private isObjectSchema(name: string): boolean {
    const d = this.resolver.declaration(name);
    if (!d) return false;
    if (d.kind === "interface") return this.objectKind(this.resolver.objectOf(name)!) !== "record";
    return (
      (d.type.kind === "object" || d.type.kind === "omit") &&
      this.objectKind(this.resolver.object(d.type)!) !== "record"
    );
  }

  private objectKind(obj: ResolvedObject): "empty" | "record" | "object" {
    if (obj.properties.size > 0) return "object";
    return obj.indexSignature ? "record" : "empty";
  }

  /**
   * An object type. Undeclared keys are kept, as schema.json allows them: `open` (a loose
   * object typed by its declared keys, as TypeScript's object types are) or, with an index
   * signature of unknown values, z.looseObject. `{}` and `object` are any JSON object.
   */
  object(obj: ResolvedObject): ZExpr {
    const index = obj.indexSignature;
    const value = index && this.tagged(index.type, index.doc);
    switch (this.objectKind(obj)) {
      case "empty":
        return { kind: "call", callee: `${this.helper("jsonObject")}<{}>`, args: [] };
      case "record":
        return z("record", z("string"), value!);
    }
    const shape: ZExpr = {
      kind: "object",
      properties: [...obj.properties.values()].map((p): ZProperty => ({
        key: objectKey(p.name),
        doc: renderDoc(p.doc),
        value: p.optional ? this.optional(p.type, p.doc) : this.tagged(p.type, p.doc),
      })),
    };
    if (!index) return call(this.helper("open"), shape);
    const anyValue = index.type.kind === "keyword" && index.type.name;
    if (anyValue === "unknown") return z("looseObject", shape);
    return method(z("object", shape), "catchall", value!);
  }

  /** An optional property: `?: T` is exact (exactOptionalPropertyTypes), `?: T | undefined` is not. */
  private optional(type: TypeExpr, doc: Doc): ZExpr {
    const members = type.kind === "union" ? type.members : [type];
    const defined = members.filter((m) => !(m.kind === "keyword" && m.name === "undefined"));
    if (defined.length === members.length) return z("exactOptional", this.tagged(type, doc));
    const inner: TypeExpr =
      defined.length === 1
        ? defined[0]!
        : ({ ...type, kind: "union", members: defined } as TypeExpr);
    return z("optional", this.tagged(inner, doc));
  }
}

/** Whether a converted schema is a string (a format's helper included). */
function isString(e: ZExpr): boolean {
  if (e.kind === "atom") return Object.values(FORMAT_HELPERS).includes(e.text as Helper);
  if (e.kind === "call") return e.callee === "z.string";
  return e.kind === "method" && isString(e.target);
}

/** Whether a converted schema is a number (its bounds are `gte`/`lte`, not an array's `min`/`max`). */
function isNumber(e: ZExpr): boolean {
  if (e.kind === "atom") return e.text === "integer";
  if (e.kind === "call") return e.callee === "z.number";
  if (e.kind === "method") return isNumber(e.target);
  return false;
}
