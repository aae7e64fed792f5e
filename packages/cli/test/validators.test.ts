import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { runtimeImports } from "../src/generators/emit/runtime.js";
import { generate, headerFor, type OutputFile } from "../src/generators/emit/index.js";
import { validatorsGenerator } from "../src/generators/emit/validators.js";
import { formatTypeScript } from "../src/generators/print/render.js";
import { loadRevision } from "../src/schema/index.js";
import { buildValidationSchemas } from "../src/schema/validation.js";
import { ArbitraryBuilder, differentialCandidates, mutate, mutationKinds } from "./arbitraries.js";
import { schemaJsonOracle, specExamples } from "./support/schema-json-oracle.js";
import { DEVIATIONS } from "./schema-json-deviations.js";
import { generatedFiles, importGenerated, SPEC_DIR, SPEC_REVISIONS } from "./helpers.js";

type Result =
  | { ok: true; value: unknown }
  | { ok: false; errors: { path: string; message: string; expected?: string }[] };
type Options = { firstError?: boolean };
type Validators = Record<string, (value: unknown, options?: Options) => any> & {
  validateRequestMessage(value: unknown, direction: string, options?: Options): Result;
  validateMethodResult(method: string, value: unknown): Result;
  classifyMessage(value: unknown): { kind: string; method?: string; id?: unknown } | undefined;
  validateMessage(value: unknown, direction: string): Result;
};

/** Fixed in CI; set FC_SEED to explore. fast-check prints the seed of any failure. */
const SEED = Number(process.env["FC_SEED"] ?? 20261130);
const RUNS = Number(process.env["FC_RUNS"] ?? 200);
/**
 * The newest revision gets RUNS generated values per type, older ones a quarter: the same
 * generator compiles them all, and they add type shapes rather than new code paths (every
 * type still gets its examples and generated values). Keeps `npm test` within its budget.
 */
const runsFor = (revision: string) => (revision === NEWEST ? RUNS : Math.ceil(RUNS / 4));
const NEWEST = SPEC_REVISIONS[SPEC_REVISIONS.length - 1];
/**
 * The property tests and the prettier check of older revisions are tagged `corpus`
 * (vitest.config.ts): `npm test` runs the newest revision's, `npm run test:slow` all of them.
 */
const corpusTags = (revision: string) => ({ tags: revision === NEWEST ? [] : ["corpus"] });

describe.each(SPEC_REVISIONS)("validators for %s", (revision) => {
  let v: Validators;
  let loaded: ReturnType<typeof loadRevision>;
  let files: OutputFile[];
  beforeAll(async () => {
    loaded = loadRevision(SPEC_DIR, revision);
    files = await generate(loaded);
    v = await importGenerated<Validators>(files, "validators.js");
  });

  it(
    "validators.ts is emitted as prettier would print it (so generation skips prettier for it)",
    corpusTags(revision),
    async () => {
      const code = files.find((f) => f.path === "validators.ts")!.content;
      expect(await formatTypeScript(code)).toBe(code);
      const [emitted] = validatorsGenerator.emit({
        loaded,
        header: headerFor(loaded),
        legacy: [],
        auth: false,
        headerFor,
        runtime: runtimeImports("package"),
      });
      expect(emitted).toMatchObject({ path: "validators.ts", preformatted: true, code });
    },
  );

  it(
    "first-error mode reports exactly the first error of the full validation",
    corpusTags(revision),
    () => {
      const arbitraries = new ArbitraryBuilder(buildValidationSchemas(loaded.model));
      const types = loaded.model.declarations
        .filter((d) => d.kind !== "const" && d.exported)
        .map((d) => d.name);
      let invalid = 0;
      for (const type of types) {
        const candidate = fc
          .tuple(arbitraries.named(type), fc.nat(), fc.constantFrom(...mutationKinds), fc.nat())
          .map(([value, pick, kind, replacement]) => mutate(value, pick, kind, replacement));
        fc.assert(
          fc.property(candidate, (value) => {
            const full = v[`validate${type}`]!(value) as Result;
            const first = v[`validate${type}`]!(value, { firstError: true }) as Result;
            if (full.ok) return first.ok && first.value === value;
            invalid++;
            return (
              !first.ok &&
              first.errors.length === 1 &&
              JSON.stringify(first.errors[0]) === JSON.stringify(full.errors[0])
            );
          }),
          { seed: SEED, numRuns: 30, examples: [] },
        );
      }
      expect(invalid).toBeGreaterThan(types.length * 5);
    },
  );

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

  it(
    `agrees with ajv on schema.json for every type: examples plus ${runsFor(revision)} generated values, valid and mutated`,
    corpusTags(revision),
    () => {
      const { check, defs } = schemaJsonOracle(revision, true);
      const schemas = buildValidationSchemas(loaded.model);
      const arbitraries = new ArbitraryBuilder(schemas);
      const types = loaded.model.declarations
        .filter((d) => d.kind !== "const" && d.exported)
        .map((d) => d.name);
      expect(types.every((t) => t in defs)).toBe(true);
      let valid = 0;
      let total = 0;
      for (const type of types) {
        const validate = check(type);
        const examples = specExamples(revision, type);
        for (const example of examples) {
          expect(v[`is${type}`]!(example)).toBe(validate(example));
        }
        // The spec's own examples seed the generator: as they are, and mutated.
        const candidate = differentialCandidates(arbitraries, type, examples);
        fc.assert(
          fc.property(candidate, (value) => {
            const expected = validate(value) as boolean;
            total++;
            if (expected) valid++;
            const result = v[`validate${type}`]!(value) as Result;
            return (
              v[`is${type}`]!(value) === expected &&
              result.ok === expected &&
              (expected || (!result.ok && result.errors.length > 0))
            );
          }),
          { seed: SEED, numRuns: runsFor(revision), verbose: true, examples: [] },
        );
      }
      // Both sides of the boundary were exercised.
      expect(valid).toBeGreaterThan(total * 0.1);
      expect(total - valid).toBeGreaterThan(total * 0.1);
    },
  );
});

describe("first-error mode at the message entry points", () => {
  it("validateRequestMessage(value, direction, { firstError: true }) gives the first error only", async () => {
    const v = await importGenerated<Validators>(
      await generatedFiles("2026-07-28"),
      "validators.js",
    );
    const bad = {
      jsonrpc: "1.0",
      id: {},
      method: "tools/call",
      params: { name: 7, arguments: [], _meta: {} },
    };
    const full = v.validateRequestMessage(bad, "client->server");
    const first = v.validateRequestMessage(bad, "client->server", { firstError: true });
    expect(full.ok ? [] : full.errors.length).toBeGreaterThan(1);
    expect(first).toEqual({ ok: false, errors: [(full as { errors: unknown[] }).errors[0]] });
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: 7, arguments: [] },
    };
    const fullCall = v.validateRequestMessage(call, "client->server");
    expect(fullCall.ok ? [] : fullCall.errors.length).toBeGreaterThan(1);
    expect(v.validateRequestMessage(call, "client->server", { firstError: true })).toEqual({
      ok: false,
      errors: [(fullCall as { errors: unknown[] }).errors[0]],
    });
  });
});

describe("documented schema.json deviations", () => {
  it.each(DEVIATIONS.map((d) => [`${d.revision} ${d.type}`, d] as const))(
    "%s is pinned",
    async (_name, d) => {
      const loaded = loadRevision(SPEC_DIR, d.revision);
      const v = await importGenerated<Validators>(await generate(loaded), "validators.js");
      expect(schemaJsonOracle(d.revision, false).check(d.type)(d.witness)).toBe(false);
      expect(schemaJsonOracle(d.revision, true).check(d.type)(d.witness)).toBe(true);
      expect(v[`is${d.type}`]!(d.witness)).toBe(true);
    },
  );
});

describe("inputs JSON cannot carry", () => {
  let v: Validators;
  beforeAll(async () => {
    v = await importGenerated<Validators>(await generatedFiles("2026-07-28"), "validators.js");
  });

  it("non-finite numbers: ajv with strict: false accepts them, JSON cannot carry them, the validators reject them", () => {
    const { check } = schemaJsonOracle("2026-07-28", false);
    const progress = (p: number) => ({ progressToken: 1, progress: p });
    expect(check("ProgressNotificationParams")(progress(NaN))).toBe(true);
    expect(check("ProgressNotificationParams")(progress(Infinity))).toBe(true);
    expect(check("RequestId")(Infinity)).toBe(true);
    expect(v["isProgressNotificationParams"]!(progress(NaN))).toBe(false);
    expect(v["isProgressNotificationParams"]!(progress(Infinity))).toBe(false);
    expect(v["isRequestId"]!(Infinity)).toBe(false);
  });

  it("an own __proto__ key is validated by its value, as ajv does", () => {
    const { check } = schemaJsonOracle("2026-07-28", false);
    const value = JSON.parse('{"experimental": {"__proto__": 5}}');
    expect(check("ClientCapabilities")(value)).toBe(false);
    expect(v["isClientCapabilities"]!(value)).toBe(false);
  });
});
