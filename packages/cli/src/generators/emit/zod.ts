import { renderDoc } from "../../schema/jsdoc.js";
import { Resolver } from "../../schema/resolve.js";
import { buildValidationSchemas } from "../../schema/validation.js";
import { GeneratedFile } from "../print/generated-file.js";
import { ident } from "../print/printer.js";
import type { Generator } from "./plugin.js";
import { VALIDATION } from "./runtime-symbols.js";
import { recursiveTypes } from "./validators.js";
import { schemaName, ZodConverter, type Helper } from "./zod-convert.js";
import { call, Layout, type ZExpr } from "./zod-layout.js";

// zod.ts: a zod 4 schema for every schema type, `export const <Type>Schema`, one a type (no
// registry object, every call marked pure: a bundler keeps only the schemas a program uses).
// Their inferred types are the types of types.ts; they accept what the validators accept
// (schema.json's semantics, the same format checks, imported from the runtime).

/** The helpers zod.ts defines when its schemas name them, in this order. */
const HELPERS: Record<Helper, string[]> = {
  integer: [
    "/** A JSON Schema integer: a whole number of any size (z.int() stops at 2^53). */",
    'const integer = /* @__PURE__ */ z.number().refine(Number.isInteger, "Expected an integer");',
  ],
  uri: [
    "/** A URI (RFC 3986), checked as the generated validators check it. */",
    'const uri = /* @__PURE__ */ z.string().refine($fmtUri, "Expected a URI");',
  ],
  uriTemplate: [
    "/** A URI template (RFC 6570), checked as the generated validators check it. */",
    'const uriTemplate = /* @__PURE__ */ z.string().refine($fmtUriTemplate, "Expected a URI template");',
  ],
  byte: [
    "/** Base64 text, checked as the generated validators check it. */",
    'const byte = /* @__PURE__ */ z.string().refine($fmtByte, "Expected base64");',
  ],
  jsonObject: [
    "/** Any JSON object, for `{}` and `object` (z.object({}) would type it Record<string, never>). */",
    "const jsonObject = <T extends object>() =>",
    '  z.custom<T>((v) => typeof v === "object" && v !== null && !Array.isArray(v));',
  ],
  open: [
    "/**",
    " * An object that keeps the keys it does not declare, as schema.json allows them (a loose",
    " * object), typed by the keys it declares, as TypeScript's object types are.",
    " */",
    "const open = <Shape extends z.ZodRawShape>(shape: Shape) =>",
    "  z.looseObject(shape) as unknown as z.ZodObject<Shape>;",
  ],
};

const FORMAT_SYMBOLS = {
  uri: VALIDATION.$fmtUri,
  uriTemplate: VALIDATION.$fmtUriTemplate,
  byte: VALIDATION.$fmtByte,
} as const;

export const zodGenerator: Generator = {
  name: "zod",
  // zod.ts needs the zod package, which the default output does not depend on.
  optional: true,
  requires: ["types"],
  runtime: () => ["core"],
  description:
    "zod.ts: a zod 4 schema for every schema type, typed as types.ts (zod is a peer dependency)",
  emit({ loaded, header, runtime }) {
    const { model } = loaded;
    const recursive = recursiveTypes(buildValidationSchemas(model));
    const converter = new ZodConverter(new Resolver(model), recursive);
    const types = model.declarations.filter((d) => d.kind !== "const");
    const schemas = new Map<string, ZExpr>();
    for (const d of types) {
      const e = converter.declaration(d.name);
      schemas.set(d.name, recursive.has(d.name) ? call("z.lazy", { kind: "thunk", body: e }) : e);
    }
    const w = new GeneratedFile("zod.ts", runtime);
    w.import("zod", "* as z");
    if (recursive.size > 0) w.import("./types.js", "* as T", true);
    for (const [helper, symbol] of Object.entries(FORMAT_SYMBOLS))
      if (converter.helpers.has(helper as Helper)) w.use(symbol);
    for (const helper of Object.keys(HELPERS) as Helper[]) {
      if (!converter.helpers.has(helper)) continue;
      w.laidOut(HELPERS[helper].join("\n")).laidOut("");
    }
    const layout = new Layout(w);
    let first = true;
    for (const name of dependencyOrder(
      types.map((d) => d.name),
      schemas,
    )) {
      const d = model.byName.get(name)!;
      const id = ident(schemaName(name), "schema name", d.loc);
      const typed = recursive.has(name) ? `: z.ZodType<T.${name}>` : "";
      const head = `${d.exported ? "export " : ""}const ${id}${typed} = `;
      if (!first) w.laidOut("");
      first = false;
      const doc = renderDoc(d.doc);
      if (doc) w.laidOut(doc);
      w.laidOut(layout.assigned("", head, schemas.get(name)!, ";").join("\n"));
    }
    const intro = [
      "// A zod 4 schema for every type of the MCP schema: `<Type>Schema`, whose inferred type is",
      "// the type of types.ts, accepting what the generated validators (and schema.json) accept.",
      "// Objects keep the keys they do not declare. Needs the zod package (a peer dependency).",
    ];
    return [w.emit([header, ...intro].join("\n"), { peerDependency: "zod" })];
  },
};

/**
 * The types in an order where each schema comes after those it names outside z.lazy (a
 * `const` read before its declaration throws), otherwise in declaration order.
 */
function dependencyOrder(names: readonly string[], schemas: ReadonlyMap<string, ZExpr>): string[] {
  const out: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const byConst = new Map(names.map((n) => [schemaName(n), n]));
  const visit = (name: string) => {
    if (state.has(name)) return;
    state.set(name, "visiting");
    for (const ref of eagerRefs(schemas.get(name)!, byConst)) visit(ref);
    state.set(name, "done");
    out.push(name);
  };
  names.forEach(visit);
  return out;
}

/** The schema types an expression names outside a thunk. */
function eagerRefs(e: ZExpr, byConst: ReadonlyMap<string, string>): string[] {
  switch (e.kind) {
    case "atom": {
      const name = byConst.get(e.text);
      return name === undefined ? [] : [name];
    }
    case "call":
      return e.args.flatMap((a) => eagerRefs(a, byConst));
    case "method":
      return [e.target, ...e.args].flatMap((a) => eagerRefs(a, byConst));
    case "object":
      return e.properties.flatMap((p) => eagerRefs(p.value, byConst));
    case "array":
      return e.items.flatMap((i) => eagerRefs(i, byConst));
    case "thunk":
      return [];
  }
}
