import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import AjvDraft7 from "ajv";
import addFormats from "ajv-formats";
import { DEVIATIONS } from "../schema-json-deviations.js";
import { SPEC_DIR } from "../helpers.js";

/**
 * The differential tests' oracle: ajv + ajv-formats on a revision's schema.json, as the spec
 * validates its examples (strict: false). `patched`: with the documented deviations
 * (schema-json-deviations.ts) applied, as the generated validators and zod.ts follow them.
 */
export function schemaJsonOracle(revision: string, patched: boolean) {
  const json = JSON.parse(readFileSync(join(SPEC_DIR, "schema", revision, "schema.json"), "utf8"));
  const is2020 = "$defs" in json;
  const defs = is2020 ? json.$defs : json.definitions;
  if (patched) for (const d of DEVIATIONS) if (d.revision === revision) d.patch(defs);
  const AjvClass = (is2020 ? Ajv2020 : AjvDraft7) as unknown as typeof Ajv2020.default;
  const ajv = new AjvClass({ strict: false, allErrors: true });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  ajv.addSchema({ ...json, $id: "mcp" });
  const pointer = is2020 ? "$defs" : "definitions";
  return { defs, check: (type: string) => ajv.getSchema(`mcp#/${pointer}/${type}`)! };
}

/** The spec's examples of `type` in `revision` (schema/<revision>/examples/<type>/), parsed. */
export function specExamples(revision: string, type: string): unknown[] {
  const dir = join(SPEC_DIR, "schema", revision, "examples", type);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));
}
