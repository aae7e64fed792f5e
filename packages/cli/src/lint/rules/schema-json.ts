import { existsSync, readFileSync } from "node:fs";
import { jsonErrorOffset, lineColumn } from "../../cli/json-position.js";
import type { SourceLocation } from "../../schema/model.js";
import type { LintContext, RawFinding, Rule } from "../finding.js";

// The spec publishes schema.json beside schema.ts (derived from it by typescript-json-schema);
// tools that read the JSON Schema and mcp-gen, which reads the TypeScript, agree only where
// the two files do. Deliberate differences the generator keeps are listed in
// docs/schema-json-deviations.md; these rules find them all, known or not.

type JsonObject = Record<string, unknown>;

interface SchemaJson {
  file: string;
  text: string;
  defs: Record<string, JsonObject>;
  /** Where the definitions start in the text: a def's key is searched from there. */
  defsOffset: number;
  /** Set when the file is not JSON: json-def-missing reports it, the other rules skip. */
  problem?: RawFinding;
}

const loadedJson = new WeakMap<LintContext, SchemaJson | undefined>();

/** The revision's schema.json, read once per lint run; undefined when the revision has none. */
function schemaJson(ctx: LintContext): SchemaJson | undefined {
  if (loadedJson.has(ctx)) return loadedJson.get(ctx);
  const file = ctx.loaded.revision.schemaJson;
  let found: SchemaJson | undefined;
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8");
    let json: JsonObject;
    try {
      json = JSON.parse(text) as JsonObject;
    } catch (error) {
      const loc = { file, ...lineColumn(text, Math.max(0, jsonErrorOffset(text))) };
      const problem = { loc, message: `schema.json is not JSON: ${(error as Error).message}` };
      loadedJson.set(ctx, { file, text, defs: {}, defsOffset: 0, problem });
      return loadedJson.get(ctx);
    }
    const key = "$defs" in json ? "$defs" : "definitions";
    const defs = (json[key] ?? {}) as Record<string, JsonObject>;
    found = { file, text, defs, defsOffset: Math.max(0, text.indexOf(`"${key}"`)) };
  }
  loadedJson.set(ctx, found);
  return found;
}

function defLocation(json: SchemaJson, name: string): SourceLocation {
  const at = json.text.indexOf(`${JSON.stringify(name)}:`, json.defsOffset);
  return { file: json.file, ...lineColumn(json.text, Math.max(0, at)) };
}

const typeDeclarations = (ctx: LintContext) =>
  ctx.loaded.model.declarations.filter((d) => d.kind !== "const");

export const jsonDefMissing: Rule = {
  id: "json-def-missing",
  severity: "error",
  summary: "a type of schema.ts has no definition in schema.json, or the other way round",
  check: (ctx) => {
    const json = schemaJson(ctx);
    if (!json) {
      return [
        {
          loc: { file: ctx.loaded.model.file, line: 1, column: 1 },
          message: `the revision has no schema.json beside schema.ts`,
        },
      ];
    }
    if (json.problem) return [json.problem];
    const out: RawFinding[] = [];
    const declared = new Set<string>();
    for (const d of typeDeclarations(ctx)) {
      declared.add(d.name);
      if (!Object.hasOwn(json.defs, d.name))
        out.push({ loc: d.loc, message: `type ${d.name} has no definition in schema.json` });
    }
    for (const name of Object.keys(json.defs)) {
      if (!declared.has(name))
        out.push({
          loc: defLocation(json, name),
          message: `schema.json defines ${name}, which schema.ts does not declare`,
        });
    }
    return out;
  },
};

/** Each type that is an object on both sides: its fields in schema.ts (flattened) and in schema.json. */
function objectPairs(ctx: LintContext) {
  const json = schemaJson(ctx);
  if (!json || json.problem) return [];
  return typeDeclarations(ctx).flatMap((d) => {
    const def = json.defs[d.name];
    const properties = def?.["properties"];
    if (!def || typeof properties !== "object" || properties === null) return [];
    const shape = ctx.resolver.objectOf(d.name);
    if (!shape) return [];
    const ts = [...shape.properties.values()];
    return [
      {
        name: d.name,
        loc: d.loc,
        tsFields: new Set(ts.map((p) => p.name)),
        tsRequired: new Set(ts.filter((p) => !p.optional).map((p) => p.name)),
        jsonFields: new Set(Object.keys(properties)),
        jsonRequired: new Set(Array.isArray(def["required"]) ? (def["required"] as string[]) : []),
      },
    ];
  });
}

function difference(a: Set<string>, b: Set<string>): string[] {
  return [...a].filter((x) => !b.has(x)).sort();
}

function sides(tsOnly: string[], jsonOnly: string[]): string {
  const parts: string[] = [];
  if (tsOnly.length > 0) parts.push(`schema.ts only: ${tsOnly.join(", ")}`);
  if (jsonOnly.length > 0) parts.push(`schema.json only: ${jsonOnly.join(", ")}`);
  return parts.join("; ");
}

export const jsonRequiredMismatch: Rule = {
  id: "json-required-mismatch",
  severity: "error",
  summary: "a type requires different fields in schema.ts and in schema.json",
  check: (ctx) =>
    objectPairs(ctx).flatMap((p): RawFinding[] => {
      // A field one side lacks altogether is json-fields-mismatch's finding, not this one's.
      const both = (s: Set<string>) =>
        new Set([...s].filter((f) => p.tsFields.has(f) && p.jsonFields.has(f)));
      const tsOnly = difference(both(p.tsRequired), p.jsonRequired);
      const jsonOnly = difference(both(p.jsonRequired), p.tsRequired);
      if (tsOnly.length === 0 && jsonOnly.length === 0) return [];
      return [
        { loc: p.loc, message: `${p.name}: required fields differ (${sides(tsOnly, jsonOnly)})` },
      ];
    }),
};

export const jsonFieldsMismatch: Rule = {
  id: "json-fields-mismatch",
  severity: "error",
  summary: "a type has fields in schema.ts that schema.json lacks, or the other way round",
  check: (ctx) =>
    objectPairs(ctx).flatMap((p): RawFinding[] => {
      const tsOnly = difference(p.tsFields, p.jsonFields);
      const jsonOnly = difference(p.jsonFields, p.tsFields);
      if (tsOnly.length === 0 && jsonOnly.length === 0) return [];
      return [{ loc: p.loc, message: `${p.name}: fields differ (${sides(tsOnly, jsonOnly)})` }];
    }),
};
