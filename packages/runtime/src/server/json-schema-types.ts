// The TypeScript type of the values a JSON Schema literal describes, worked out by the type
// checker alone: what a typed tool's `call` gets for an inputSchema written as an object
// literal (inline, `as const`, or `satisfies`), and what its structuredContent must be for such
// an outputSchema. The runtime has no dependencies, so this is the project's own (the libraries
// that do this bring runtime dependencies of their own). It covers what tool schemas use:
// `type` (one or a list), `const`, `enum`, objects (`properties`, `required`,
// `additionalProperties`), arrays (`items`, `prefixItems`), `anyOf` / `oneOf` (a union, each
// branch merged with the keywords beside it), `allOf` (an intersection), and `$ref` into
// `$defs` or `definitions` of the root schema. Keywords that only narrow a value (`minimum`,
// `pattern`, `format`, ...) leave the type as it is; the server's validator still checks them.
// A recursive `$ref` is followed to a fixed depth, past which the value is `unknown`.

/** The values `Schema` describes, `$ref`s resolved against `Schema` itself as the root. */
export type FromJsonSchema<Schema> = Resolve<Schema, Schema, []>;

/** Recursion counter: a tuple whose length is the depth. */
type Depth = readonly unknown[];
type MAX_DEPTH = 12;

type Resolve<S, Root, D extends Depth> = D["length"] extends MAX_DEPTH
  ? unknown
  : S extends true
    ? unknown
    : S extends false
      ? never
      : S extends { readonly $ref: infer Ref extends string }
        ? Resolve<Omit<S, "$ref"> & Target<Root, Ref>, Root, [...D, unknown]>
        : S extends { readonly allOf: infer Parts extends readonly unknown[] }
          ? Resolve<Omit<S, "allOf">, Root, D> & AllOf<Parts, Omit<S, "allOf">, Root, D>
          : S extends { readonly anyOf: infer Branches extends readonly unknown[] }
            ? Branch<Branches, Omit<S, "anyOf">, Root, D>
            : S extends { readonly oneOf: infer Branches extends readonly unknown[] }
              ? Branch<Branches, Omit<S, "oneOf">, Root, D>
              : Plain<S, Root, D>;

/** The schema a local `$ref` points at (`#`, `#/$defs/Name`, `#/definitions/Name`). */
type Target<Root, Ref extends string> = Ref extends "#"
  ? Root
  : Ref extends `#/$defs/${infer Name}`
    ? Root extends { readonly $defs: { readonly [K in Name]: infer T } }
      ? T
      : true
    : Ref extends `#/definitions/${infer Name}`
      ? Root extends { readonly definitions: { readonly [K in Name]: infer T } }
        ? T
        : true
      : true;

/** A union of the branches, each merged with the keywords beside anyOf / oneOf. */
type Branch<Branches extends readonly unknown[], Base, Root, D extends Depth> = {
  [I in keyof Branches]: Resolve<Base & Branches[I], Root, [...D, unknown]>;
}[number];

/** An intersection of every part of allOf. */
type AllOf<Parts extends readonly unknown[], Base, Root, D extends Depth> = Parts extends readonly [
  infer First,
  ...infer Rest,
]
  ? Resolve<First, Root, [...D, unknown]> & AllOf<Rest, Base, Root, D>
  : unknown;

/** A schema with no composition keyword left: const, enum, then type. */
type Plain<S, Root, D extends Depth> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: infer E extends readonly unknown[] }
    ? E[number]
    : S extends { readonly type: infer Type }
      ? Type extends readonly unknown[]
        ? OfType<Type[number], S, Root, D>
        : OfType<Type, S, Root, D>
      : S extends { readonly properties: object }
        ? ObjectOf<S, Root, D>
        : S extends { readonly items: unknown }
          ? ArrayOf<S, Root, D>
          : unknown;

type OfType<Type, S, Root, D extends Depth> = Type extends "string"
  ? string
  : Type extends "number" | "integer"
    ? number
    : Type extends "boolean"
      ? boolean
      : Type extends "null"
        ? null
        : Type extends "array"
          ? ArrayOf<S, Root, D>
          : Type extends "object"
            ? ObjectOf<S, Root, D>
            : unknown;

type ArrayOf<S, Root, D extends Depth> = S extends {
  readonly prefixItems: infer Prefix extends readonly unknown[];
}
  ? [
      ...{ [I in keyof Prefix]: Resolve<Prefix[I], Root, [...D, unknown]> },
      ...(S extends { readonly items: false }
        ? []
        : S extends { readonly items: infer Item }
          ? Resolve<Item, Root, [...D, unknown]>[]
          : unknown[]),
    ]
  : S extends { readonly items: infer Item }
    ? Resolve<Item, Root, [...D, unknown]>[]
    : unknown[];

type RequiredKeys<S> = S extends { readonly required: infer R extends readonly unknown[] }
  ? Extract<R[number], string>
  : never;

/** Declared properties (required ones required), and any others as additionalProperties says. */
type ObjectOf<S, Root, D extends Depth> = S extends { readonly properties: infer P extends object }
  ? Simplify<
      { -readonly [K in keyof P & RequiredKeys<S>]: Resolve<P[K], Root, [...D, unknown]> } & {
        -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: Resolve<P[K], Root, [...D, unknown]>;
      } & Additional<S>
    >
  : { [key: string]: unknown };

/**
 * Properties beyond those declared: none when additionalProperties is false or absent (an
 * absent one allows them, but the type names only what the schema declares, so a misspelt
 * name is a compile error), any when it is true or a schema.
 */
type Additional<S> = S extends { readonly additionalProperties: false }
  ? unknown
  : S extends { readonly additionalProperties: unknown }
    ? { [key: string]: unknown }
    : unknown;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
