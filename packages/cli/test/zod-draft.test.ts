import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision, type LoadedRevision } from "../src/schema/index.js";
import { buildValidationSchemas } from "../src/schema/validation.js";
import { ArbitraryBuilder, differentialCandidates } from "./arbitraries.js";
import { applyEdits, DRAFT_EDITS } from "./fixtures/draft-schema.js";
import { fakeSpec, importGenerated, SPEC_DIR } from "./helpers.js";

// zod.ts of a draft (drafts.test.ts's edits of 2026-07-28: types and methods no release has).
// A draft has no schema.json to agree with, so the oracle is the generated validators, which
// agree with schema.json on every released revision (validators.test.ts): zod.ts and
// validators.ts come from the same model by separate emitters, and must accept the same values.

interface ZodSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}
type Validate = (value: unknown) => { ok: boolean };

const SEED = Number(process.env["FC_SEED"] ?? 20261130);
/** A quarter of the newest release's runs (zod.test.ts), as for older revisions. */
const RUNS = Math.ceil(Number(process.env["FC_RUNS"] ?? 200) / 4);

describe("zod.ts of a draft", () => {
  let loaded: LoadedRevision;
  let zod: Record<string, ZodSchema>;
  let validators: Record<string, Validate>;
  beforeAll(async () => {
    const spec = fakeSpec(applyEdits(SPEC_DIR, "2026-07-28", DRAFT_EDITS), "draft");
    loaded = loadRevision(spec, "draft");
    const files = await generate(loaded, ["validators", "zod"]);
    zod = await importGenerated(files, "zod.js");
    validators = await importGenerated(files, "validators.js");
  });

  it(`agrees with the generated validators on ${RUNS} generated values a type, valid and mutated`, () => {
    const arbitraries = new ArbitraryBuilder(buildValidationSchemas(loaded.model));
    const types = loaded.model.declarations
      .filter((d) => d.kind !== "const" && d.exported)
      .map((d) => d.name);
    // The draft's own types are among them: what the edits add is checked, not only 2026-07-28's.
    expect(types).toEqual(expect.arrayContaining(["ValidateToolRequest", "ConfirmRequest"]));
    let valid = 0;
    let total = 0;
    for (const type of types) {
      const schema = zod[`${type}Schema`];
      const validate = validators[`validate${type}`];
      expect(schema && validate, type).toBeTruthy();
      const candidate = differentialCandidates(arbitraries, type);
      fc.assert(
        fc.property(candidate, (value) => {
          const expected = validate!(value).ok;
          total++;
          if (expected) valid++;
          const result = schema!.safeParse(value);
          if (result.success !== expected)
            throw new Error(`${type}: zod says ${result.success}, the validators ${expected}`);
          return !expected || isDeepStrictEqual(result.data, value);
        }),
        { seed: SEED, numRuns: RUNS, examples: [] },
      );
    }
    expect(valid).toBeGreaterThan(total * 0.1);
    expect(total - valid).toBeGreaterThan(total * 0.1);
  });
});
