import { McpGenError } from "../../schema/diagnostics.js";
import type { Declaration, Doc, Property, SourceLocation, TypeExpr } from "../../schema/model.js";

// JSON Schema, as a server lists it in a tool's inputSchema or outputSchema, to the schema
// model's types (packages/cli/src/schema/model.ts), which packages/cli/src/generators/print/print-types.ts prints with every name and
// text escaped. A library (json-schema-to-typescript) was weighed: it reads the `tsType`
// keyword and pastes its text into the output as code, and follows `$ref`s to files and URLs;
// a server's schemas are untrusted, so they are read here, by the features tools use:
// objects, required, enums, const, arrays, unions, nested objects and local `$defs`/`$ref`.
// Anything else is `unknown`: wider than the schema, never narrower.

/** Deepest nesting of subschemas read (a hostile server could send a schema of any depth). */
export const MAX_SCHEMA_DEPTH = 32;
/** Most subschemas read in one tool's schemas, each enum member counted as one: each is a type printed. */
export const MAX_SCHEMA_NODES = 20_000;
/** Longest description kept in a doc comment, in characters. */
export const MAX_DOC_CHARS = 2_000;

/** No source file: the types come from a server's listing. */
const NOWHERE: SourceLocation = { file: "<server>", line: 0, column: 0 };

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const keyword = (
  name: "string" | "number" | "boolean" | "null" | "unknown" | "never",
): TypeExpr => ({
  kind: "keyword",
  name,
  loc: NOWHERE,
});
const UNKNOWN = keyword("unknown");

/** A description as a doc comment's text: line breaks kept as `\n`, capped. */
export function docOf(description: unknown): Doc {
  if (typeof description !== "string") return { text: "", tags: [] };
  const text = description.replace(/\r\n?|[\u2028\u2029]/g, "\n").trim();
  const capped = text.length > MAX_DOC_CHARS ? `${text.slice(0, MAX_DOC_CHARS)}...` : text;
  return { text: capped, tags: [] };
}

/** Hands out declaration names unique in one file: `Search`, `Search2`, ... */
export class NameRegistry {
  private readonly taken = new Set<string>();
  /** The next suffix to try per base: many names of one base (`$defs` keys `a`, `a-`, `é a`, ...) claim in linear time. */
  private readonly nextSuffix = new Map<string, number>();
  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.taken.add(name);
  }
  /** `base` (already an identifier) or the first free `base2`, `base3`, ... */
  claim(base: string): string {
    let name = base;
    let n = this.nextSuffix.get(base) ?? 2;
    while (this.taken.has(name)) name = `${base}${n++}`;
    this.nextSuffix.set(base, n);
    this.taken.add(name);
    return name;
  }
}

/** `get-weather`, `get_weather`, `getWeather` -> `GetWeather`; none of its characters left: "". */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")
    .replace(/^[0-9]/, (d) => `_${d}`);
}

/**
 * The types of one tool's schemas: the declarations they need (the named `$defs` and the
 * roots), printed by printDeclarations. `what` names the schema in errors.
 */
export class SchemaTypes {
  readonly declarations: Declaration[] = [];
  private nodes = 0;
  /** `#/$defs/X` (and `#/definitions/X`) -> its declaration's name, made when first referenced. */
  private readonly defs = new Map<string, string>();
  private root: { schema: unknown; name: string } | undefined;

  constructor(
    private readonly names: NameRegistry,
    /** Prefix of the names of `$defs` (the tool's name in PascalCase). */
    private readonly prefix: string,
    private readonly what: string,
  ) {}

  /** Declares `name` as the type of `schema` (an interface when it is an object type). */
  declare(name: string, schema: unknown, doc: Doc): void {
    const previous = this.root;
    this.root = { schema, name };
    this.defs.clear();
    const type = this.type(schema, 0);
    this.declarations.push(declaration(name, type, doc));
    this.root = previous;
  }

  /** Counts `nodes` more subschemas (or enum members) read at `depth`. */
  private count(depth: number, nodes = 1): void {
    if (depth > MAX_SCHEMA_DEPTH)
      throw new McpGenError(
        "protocol",
        `${this.what} nests deeper than ${MAX_SCHEMA_DEPTH} levels; mcp-gen reads no deeper`,
      );
    this.nodes += nodes;
    if (this.nodes > MAX_SCHEMA_NODES)
      throw new McpGenError(
        "protocol",
        `${this.what} has more than ${MAX_SCHEMA_NODES} subschemas (enum members counted); mcp-gen reads no more`,
      );
  }

  type(schema: unknown, depth: number): TypeExpr {
    this.count(depth);
    if (schema === true) return UNKNOWN;
    if (schema === false) return keyword("never");
    if (!isObject(schema)) return UNKNOWN;
    if (typeof schema["$ref"] === "string") return this.ref(schema["$ref"], depth);
    const parts: TypeExpr[] = [];
    const own = this.ownType(schema, depth);
    if (own) parts.push(own);
    for (const key of ["anyOf", "oneOf"] as const) {
      const list = schema[key];
      if (Array.isArray(list) && list.length > 0)
        parts.push(union(list.map((s) => this.type(s, depth + 1))));
    }
    if (Array.isArray(schema["allOf"]))
      for (const s of schema["allOf"]) parts.push(this.type(s, depth + 1));
    const known = parts.filter((p) => !(p.kind === "keyword" && p.name === "unknown"));
    const type =
      known.length === 0
        ? UNKNOWN
        : known.length === 1
          ? known[0]!
          : { kind: "intersection" as const, members: known, loc: NOWHERE };
    // OpenAPI's `nullable: true`, which some servers still write.
    return schema["nullable"] === true ? union([type, keyword("null")]) : type;
  }

  /** What `const`, `enum` and `type` say, or undefined when they say nothing. */
  private ownType(schema: Json, depth: number): TypeExpr | undefined {
    if ("const" in schema) return literal(schema["const"]);
    if (Array.isArray(schema["enum"])) {
      this.count(depth, schema["enum"].length);
      return union(schema["enum"].map(literal));
    }
    const declared = schema["type"];
    const types = Array.isArray(declared) ? declared : declared === undefined ? [] : [declared];
    const implied =
      types.length === 0 && isObject(schema["properties"])
        ? ["object"]
        : types.length === 0 && schema["items"] !== undefined
          ? ["array"]
          : types;
    if (implied.length === 0) return undefined;
    return union(implied.map((t) => this.ofType(t, schema, depth)));
  }

  private ofType(type: unknown, schema: Json, depth: number): TypeExpr {
    switch (type) {
      case "string":
      case "boolean":
      case "null":
      case "number":
        return keyword(type);
      case "integer":
        return keyword("number");
      case "array":
        return this.array(schema, depth);
      case "object":
        return this.object(schema, depth);
      default:
        return UNKNOWN;
    }
  }

  private array(schema: Json, depth: number): TypeExpr {
    const items = schema["items"];
    const prefix = schema["prefixItems"];
    // Tuples (prefixItems, or draft-07's array of items) as arrays of any of their members.
    const members = [
      ...(Array.isArray(prefix) ? prefix : []),
      ...(Array.isArray(items) ? items : items === undefined ? [] : [items]),
    ].map((s) => this.type(s, depth + 1));
    const element = members.length === 0 ? UNKNOWN : union(members);
    return { kind: "array", element, loc: NOWHERE };
  }

  private object(schema: Json, depth: number): TypeExpr {
    const properties = isObject(schema["properties"]) ? schema["properties"] : {};
    const required = new Set(
      Array.isArray(schema["required"])
        ? schema["required"].filter((r) => typeof r === "string")
        : [],
    );
    const props: Property[] = Object.entries(properties).map(([name, sub]) => ({
      name,
      optional: !required.has(name),
      type: this.type(sub, depth + 1),
      doc: docOf(isObject(sub) ? sub["description"] : undefined),
      loc: NOWHERE,
    }));
    const extra = schema["additionalProperties"];
    // A map (no properties, additionalProperties a schema): Record. Beside properties, an
    // index signature would have to admit every property's type, so it is left out.
    if (props.length === 0 && extra !== undefined && extra !== false)
      return {
        kind: "record",
        key: keyword("string"),
        value: this.type(extra, depth + 1),
        loc: NOWHERE,
      };
    // No properties at all: `{}` would admit any object in TypeScript, so a record of never.
    if (props.length === 0)
      return {
        kind: "record",
        key: keyword("string"),
        value: extra === false ? keyword("never") : UNKNOWN,
        loc: NOWHERE,
      };
    return { kind: "object", members: { properties: props }, loc: NOWHERE };
  }

  /**
   * A `$ref` inside the same document: `#` (the root), `#/$defs/X` or `#/definitions/X`,
   * each a declaration of its own (so recursion terminates). Any other reference (another
   * document, a URL, a deeper pointer) is `unknown`: nothing is fetched.
   */
  private ref(ref: string, depth: number): TypeExpr {
    if (ref === "#" && this.root) return { kind: "ref", name: this.root.name, loc: NOWHERE };
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    if (!match || !this.root || !isObject(this.root.schema)) return UNKNOWN;
    const [, table, pointer] = match as unknown as [string, string, string];
    const key = decodePointer(pointer);
    const defs = this.root.schema[table];
    if (!isObject(defs) || !Object.hasOwn(defs, key)) return UNKNOWN;
    const id = `${table}/${key}`;
    let name = this.defs.get(id);
    if (name === undefined) {
      name = this.names.claim(`${this.prefix}${pascalCase(key) || "Def"}`);
      this.defs.set(id, name);
      const target = defs[key];
      const type = this.type(target, depth + 1);
      this.declarations.push(
        declaration(name, type, docOf(isObject(target) ? target["description"] : undefined)),
      );
    }
    return { kind: "ref", name, loc: NOWHERE };
  }
}

/** A JSON Pointer segment: `~1` is `/`, `~0` is `~`, after URI percent-decoding. */
function decodePointer(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // Not percent-encoded after all: read as written.
  }
  return text.replace(/~1/g, "/").replace(/~0/g, "~");
}

function literal(value: unknown): TypeExpr {
  if (value === null) return keyword("null");
  if (typeof value === "string" || typeof value === "boolean") {
    return { kind: "literal", value, loc: NOWHERE };
  }
  if (typeof value === "number" && Number.isFinite(value))
    return { kind: "literal", value, loc: NOWHERE };
  // An object or array constant: typed by its JSON kind's widest type.
  return UNKNOWN;
}

/** A union of distinct members, flattened; `unknown` absorbs the rest, one member is itself. */
function union(members: TypeExpr[]): TypeExpr {
  const flat = members.flatMap((m) => (m.kind === "union" ? m.members : [m]));
  if (flat.some((m) => m.kind === "keyword" && m.name === "unknown")) return UNKNOWN;
  const seen = new Set<string>();
  const distinct = flat.filter((m) => {
    const key = JSON.stringify(m, (k, v: unknown) => (k === "loc" ? undefined : v));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (distinct.length === 0) return keyword("never");
  if (distinct.length === 1) return distinct[0]!;
  return { kind: "union", members: distinct, loc: NOWHERE };
}

function declaration(name: string, type: TypeExpr, doc: Doc): Declaration {
  if (type.kind === "object")
    return {
      kind: "interface",
      name,
      exported: true,
      doc,
      loc: NOWHERE,
      extends: [],
      members: type.members,
    };
  return { kind: "alias", name, exported: true, doc, loc: NOWHERE, type };
}
