import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import AjvDraft7 from "ajv";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generators/index.js";
import { loadRevision } from "../schema/index.js";
import { buildValidationSchemas } from "../schema/validation.js";
import { ArbitraryBuilder, mutate, mutationKinds } from "./arbitraries.js";
import { DEVIATIONS } from "./schema-json-deviations.js";
import { importGenerated, SPEC_DIR, SPEC_REVISIONS } from "./helpers.js";

type Result = { ok: true; value: unknown } | { ok: false; errors: { path: string; message: string; expected?: string }[] };
type Validators = Record<string, (value: unknown) => any> & {
  validateRequestMessage(value: unknown, direction: string): Result;
  validateMethodResult(method: string, value: unknown): Result;
  classifyMessage(value: unknown): { kind: string; method?: string; id?: unknown } | undefined;
  validateMessage(value: unknown, direction: string): Result;
};

/** Fixed in CI; set FC_SEED to explore. fast-check prints the seed of any failure. */
const SEED = Number(process.env["FC_SEED"] ?? 20261130);
const RUNS = Number(process.env["FC_RUNS"] ?? 200);

/** ajv + ajv-formats on schema.json, as the spec validates its examples (strict: false). */
function oracle(revision: string, patched: boolean) {
  const json = JSON.parse(readFileSync(join(SPEC_DIR, "schema", revision, "schema.json"), "utf8"));
  const is2020 = "$defs" in json;
  const defs = is2020 ? json.$defs : json.definitions;
  if (patched) for (const d of DEVIATIONS) if (d.revision === revision) d.patch(defs);
  const AjvClass = (is2020 ? Ajv2020 : AjvDraft7) as unknown as typeof Ajv2020;
  const ajv = new AjvClass({ strict: false, allErrors: true });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  ajv.addSchema({ ...json, $id: "mcp" });
  const pointer = is2020 ? "$defs" : "definitions";
  return { defs, check: (type: string) => ajv.getSchema(`mcp#/${pointer}/${type}`)! };
}

describe.each(SPEC_REVISIONS)("validators for %s", (revision) => {
  let v: Validators;
  let loaded: ReturnType<typeof loadRevision>;
  beforeAll(async () => {
    loaded = loadRevision(SPEC_DIR, revision);
    v = await importGenerated<Validators>(await generate(loaded), "validators.js");
  });

  it("every example validates as its folder's type", () => {
    const dir = join(SPEC_DIR, "schema", revision, "examples");
    if (!existsSync(dir)) return expect(revision < "2026-07-28").toBe(true);
    let count = 0;
    for (const type of readdirSync(dir)) {
      for (const file of readdirSync(join(dir, type))) {
        const value = JSON.parse(readFileSync(join(dir, type, file), "utf8"));
        expect(v[`validate${type}`]!(value), `${type}/${file}`).toEqual({ ok: true, value });
        expect(v[`is${type}`]!(value)).toBe(true);
        count++;
      }
    }
    if (revision === "2026-07-28") expect(count).toBe(129);
    else expect(count).toBeGreaterThan(0);
  });

  it(`agrees with ajv on schema.json for every type: examples plus ${RUNS} generated values, valid and mutated`, () => {
    const { check, defs } = oracle(revision, true);
    const schemas = buildValidationSchemas(loaded.model);
    const arbitraries = new ArbitraryBuilder(schemas);
    const types = loaded.model.declarations.filter((d) => d.kind !== "const" && d.exported).map((d) => d.name);
    expect(types.every((t) => t in defs)).toBe(true);
    let valid = 0;
    let total = 0;
    const examplesDir = join(SPEC_DIR, "schema", revision, "examples");
    const examplesOf = (type: string): unknown[] =>
      existsSync(join(examplesDir, type))
        ? readdirSync(join(examplesDir, type)).map((f) => JSON.parse(readFileSync(join(examplesDir, type, f), "utf8")))
        : [];
    for (const type of types) {
      const validate = check(type);
      const examples = examplesOf(type);
      // The spec's own examples seed the generator: as they are, and mutated.
      const seeds = examples.length > 0 ? fc.oneof(arbitraries.named(type), fc.constantFrom(...(examples as never[]))) : arbitraries.named(type);
      for (const example of examples) {
        expect(v[`is${type}`]!(example)).toBe(validate(example));
      }
      const candidate = fc.oneof(
        { weight: 1, arbitrary: seeds },
        {
          weight: 3,
          arbitrary: fc
            .tuple(seeds, fc.nat(), fc.constantFrom(...mutationKinds), fc.nat())
            .map(([value, pick, kind, replacement]) => mutate(value, pick, kind, replacement)),
        },
      );
      fc.assert(
        fc.property(candidate, (value) => {
          const expected = validate(value) as boolean;
          total++;
          if (expected) valid++;
          const result = v[`validate${type}`]!(value) as Result;
          return v[`is${type}`]!(value) === expected && result.ok === expected && (expected || result.errors.length > 0);
        }),
        { seed: SEED, numRuns: RUNS, verbose: true, examples: [] },
      );
    }
    // Both sides of the boundary were exercised.
    expect(valid).toBeGreaterThan(total * 0.1);
    expect(total - valid).toBeGreaterThan(total * 0.1);
  });
});

describe("documented schema.json deviations", () => {
  it.each(DEVIATIONS.map((d) => [`${d.revision} ${d.type}`, d] as const))("%s is pinned", async (_name, d) => {
    const loaded = loadRevision(SPEC_DIR, d.revision);
    const v = await importGenerated<Validators>(await generate(loaded), "validators.js");
    expect(oracle(d.revision, false).check(d.type)(d.witness)).toBe(false);
    expect(oracle(d.revision, true).check(d.type)(d.witness)).toBe(true);
    expect(v[`is${d.type}`]!(d.witness)).toBe(true);
  });
});

describe("inputs JSON cannot carry", () => {
  let v: Validators;
  beforeAll(async () => {
    v = await importGenerated<Validators>(await generate(loadRevision(SPEC_DIR, "2026-07-28")), "validators.js");
  });

  it("non-finite numbers: ajv with strict: false accepts them, JSON cannot carry them, the validators reject them", () => {
    const { check } = oracle("2026-07-28", false);
    const progress = (p: number) => ({ progressToken: 1, progress: p });
    expect(check("ProgressNotificationParams")(progress(NaN))).toBe(true);
    expect(check("ProgressNotificationParams")(progress(Infinity))).toBe(true);
    expect(check("RequestId")(Infinity)).toBe(true);
    expect(v["isProgressNotificationParams"]!(progress(NaN))).toBe(false);
    expect(v["isProgressNotificationParams"]!(progress(Infinity))).toBe(false);
    expect(v["isRequestId"]!(Infinity)).toBe(false);
  });

  it("an own __proto__ key is validated by its value, as ajv does", () => {
    const { check } = oracle("2026-07-28", false);
    const value = JSON.parse('{"experimental": {"__proto__": 5}}');
    expect(check("ClientCapabilities")(value)).toBe(false);
    expect(v["isClientCapabilities"]!(value)).toBe(false);
  });
});
