import { McpGenError } from "./diagnostics.js";
import type {
  Doc,
  IndexSignature,
  InterfaceDeclaration,
  SchemaModel,
  SourceLocation,
  TypeDeclaration,
  TypeExpr,
} from "./model.js";

/** A property as seen on the flattened object type, after `extends` and `Omit`. */
export interface ResolvedProperty {
  name: string;
  optional: boolean;
  type: TypeExpr;
  doc: Doc;
  loc: SourceLocation;
}

export interface ResolvedObject {
  properties: Map<string, ResolvedProperty>;
  indexSignature?: IndexSignature;
}

/**
 * Flattens object types: interfaces with their bases, `Omit`, intersections of
 * objects, `Record`. Results are cached per declaration; the model is immutable.
 */
export class Resolver {
  private readonly cache = new Map<string, ResolvedObject | undefined>();
  private readonly resolving = new Set<string>();

  constructor(readonly model: SchemaModel) {}

  declaration(name: string): TypeDeclaration | undefined {
    const d = this.model.byName.get(name);
    return d && d.kind !== "const" ? d : undefined;
  }

  /** The object shape of a type, or undefined when it is not an object (a union, a primitive...). */
  object(type: TypeExpr): ResolvedObject | undefined {
    switch (type.kind) {
      case "ref":
        return this.named(type.name, type.loc);
      case "object": {
        const properties = new Map<string, ResolvedProperty>();
        for (const p of type.members.properties) properties.set(p.name, p);
        return withIndex({ properties }, type.members.indexSignature);
      }
      case "omit": {
        const base = this.object(type.base);
        if (!base) return undefined;
        const properties = new Map(base.properties);
        for (const key of type.keys) properties.delete(key);
        return withIndex({ properties }, base.indexSignature);
      }
      case "intersection": {
        const parts = type.members.map((m) => this.object(m));
        if (parts.some((p) => p === undefined)) return undefined;
        return mergeAll(parts as ResolvedObject[], type.loc);
      }
      case "record":
        if (type.key.kind !== "keyword" || type.key.name !== "string") return undefined;
        return {
          properties: new Map(),
          indexSignature: {
            keyName: "key",
            keyType: "string",
            type: type.value,
            doc: { text: "", tags: [] },
            loc: type.loc,
          },
        };
      default:
        return undefined;
    }
  }

  private named(name: string, loc: SourceLocation): ResolvedObject | undefined {
    if (this.cache.has(name)) return this.cache.get(name);
    const decl = this.declaration(name);
    if (!decl) throw new McpGenError("unknown-type", `unknown type '${name}'`, loc);
    if (this.resolving.has(name)) {
      throw new McpGenError(
        "unsupported-construct",
        `unsupported construct: '${name}' extends itself`,
        decl.loc,
      );
    }
    this.resolving.add(name);
    try {
      const result =
        decl.kind === "interface" ? this.interfaceObject(decl) : this.object(decl.type);
      this.cache.set(name, result);
      return result;
    } finally {
      this.resolving.delete(name);
    }
  }

  private interfaceObject(decl: InterfaceDeclaration): ResolvedObject {
    const bases = decl.extends.map((base) => {
      const resolved = this.object(base);
      if (!resolved) {
        throw new McpGenError(
          "unsupported-construct",
          `unsupported construct: '${decl.name}' extends a type that is not an object`,
          base.loc,
        );
      }
      return resolved;
    });
    const merged = mergeAll(bases, decl.loc);
    // An interface's own members replace what its bases declare (TypeScript requires them compatible).
    for (const p of decl.members.properties) merged.properties.set(p.name, p);
    return withIndex(merged, decl.members.indexSignature ?? merged.indexSignature);
  }

  /**
   * The names an interface extends, directly or through its bases (and `Omit` bases, unless
   * `throughOmit` is false: a type that omits a base's property no longer carries all of it).
   */
  ancestors(name: string, { throughOmit = true }: { throughOmit?: boolean } = {}): Set<string> {
    const out = new Set<string>();
    const visitType = (t: TypeExpr): void => {
      if (t.kind === "ref") visitName(t.name);
      else if (t.kind === "omit" && throughOmit) visitType(t.base);
    };
    const visitName = (n: string): void => {
      if (out.has(n)) return;
      out.add(n);
      const d = this.declaration(n);
      if (d?.kind === "interface") d.extends.forEach(visitType);
      else if (d?.kind === "alias") visitType(d.type);
    };
    const d = this.declaration(name);
    if (d?.kind === "interface") d.extends.forEach(visitType);
    else if (d?.kind === "alias") visitType(d.type);
    return out;
  }

  /** The object shape of a declared type, by name: undefined if not declared or not an object. */
  objectOf(name: string): ResolvedObject | undefined {
    const decl = this.declaration(name);
    return decl ? this.object({ kind: "ref", name, loc: decl.loc }) : undefined;
  }

  /** A property of a declared type, by names. */
  propertyOf(name: string, property: string): ResolvedProperty | undefined {
    return this.objectOf(name)?.properties.get(property);
  }

  /** A property's type, when the type is an object that has it. */
  property(type: TypeExpr, name: string): ResolvedProperty | undefined {
    return this.object(type)?.properties.get(name);
  }

  /** The literal value of a type (`"tools/call"`, `typeof JSONRPC_VERSION`), if it is one. */
  literal(type: TypeExpr): string | number | boolean | undefined {
    if (type.kind === "literal") return type.value;
    if (type.kind === "typeof") {
      const c = this.model.byName.get(type.name);
      return c?.kind === "const" ? c.value : undefined;
    }
    if (type.kind === "ref") {
      const d = this.declaration(type.name);
      return d?.kind === "alias" ? this.literal(d.type) : undefined;
    }
    return undefined;
  }

  /** A union's members, following aliases of unions; a non-union is its own single member. */
  unionMembers(type: TypeExpr): TypeExpr[] {
    if (type.kind === "union") return type.members.flatMap((m) => this.unionMembers(m));
    if (type.kind === "ref") {
      const d = this.declaration(type.name);
      if (d?.kind === "alias" && d.type.kind === "union") return this.unionMembers(d.type);
    }
    return [type];
  }
}

function withIndex(obj: ResolvedObject, index: IndexSignature | undefined): ResolvedObject {
  return index ? { properties: obj.properties, indexSignature: index } : obj;
}

function mergeAll(parts: ResolvedObject[], loc: SourceLocation): ResolvedObject {
  const properties = new Map<string, ResolvedProperty>();
  let indexSignature: IndexSignature | undefined;
  for (const part of parts) {
    for (const [name, p] of part.properties) {
      const previous = properties.get(name);
      properties.set(
        name,
        previous && previous.type !== p.type
          ? {
              ...p,
              optional: previous.optional && p.optional,
              type: { kind: "intersection", members: [previous.type, p.type], loc },
            }
          : p,
      );
    }
    indexSignature = part.indexSignature ?? indexSignature;
  }
  return withIndex({ properties }, indexSignature);
}

/**
 * Whether a params type (a declaration's name) may be left out by a caller: its only required
 * field, if any, is `_meta`, which the client fills. Inline params (`Type["params"]`) name no
 * declaration and are not.
 */
export function paramsAllOptional(r: Resolver, params: string | undefined): boolean {
  if (!params || params.includes("[")) return false;
  const obj = r.objectOf(params);
  return (
    obj !== undefined && [...obj.properties.values()].every((p) => p.optional || p.name === "_meta")
  );
}
