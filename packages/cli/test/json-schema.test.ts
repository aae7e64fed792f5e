import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { Ajv2020 } from "ajv/dist/2020.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { buildJsonSchema, JSON_SCHEMA_DIALECT } from "../src/generators/emit/json-schema.js";
import {
  DEFAULT_GENERATOR_NAMES,
  generate,
  generatedWith,
  headerFor,
} from "../src/generators/emit/index.js";
import { applyOutput, planOutput } from "../src/generators/output/output.js";
import { loadRevision } from "../src/schema/index.js";
import {
  differences,
  normalDefinitions,
  normalise,
  type Schema,
} from "./support/json-schema-compare.js";
import { JSON_SCHEMA_DEVIATIONS } from "./json-schema-deviations.js";
import { DEVIATIONS } from "./schema-json-deviations.js";
import { SPEC_DIR, SPEC_REVISIONS, tempDir } from "./helpers.js";
import { runHere } from "./support/run-here.js";

// The json-schema generator: schema.json, JSON Schema 2020-12, equivalent in meaning to the
// spec's own schema.json for every released revision (but the differences listed in
// json-schema-deviations.ts), printed the same bytes for the same schema.ts.

const specSchema = (revision: string) =>
  JSON.parse(readFileSync(join(SPEC_DIR, "schema", revision, "schema.json"), "utf8")) as Schema;

const loadedRevisions = new Map<string, ReturnType<typeof loadRevision>>();
const loaded = (revision: string, fresh = false) => {
  if (fresh || !loadedRevisions.has(revision))
    loadedRevisions.set(revision, loadRevision(SPEC_DIR, revision));
  return loadedRevisions.get(revision)!;
};

async function emitted(revision: string, fresh = false) {
  const files = await generate(loaded(revision, fresh), ["json-schema"]);
  expect(files.map((f) => f.path)).toEqual(["schema.json"]);
  return files[0]!;
}

describe("json-schema: the spec's schema.json, in meaning, for every released revision", () => {
  it.each(SPEC_REVISIONS)("%s: only the listed deviations", async (revision) => {
    const file = await emitted(revision);
    const ours = JSON.parse(file.content) as Schema;
    const spec = specSchema(revision);
    const found = differences(normalDefinitions(spec), normalDefinitions(ours));
    const listed = JSON_SCHEMA_DEVIATIONS.filter((d) => d.revision === revision).sort((a, b) =>
      a.path < b.path ? -1 : 1,
    );
    expect(found).toEqual(listed.map(({ path, spec, emitted }) => ({ path, spec, emitted })));
    // The same definitions, by name, the spec's and ours.
    const defs = (s: Schema) => Object.keys((s["$defs"] ?? s["definitions"]) as Schema).sort();
    expect(defs(ours)).toEqual(defs(spec));
    expect(defs(ours).length).toBeGreaterThan(70);
  });

  it("every deviation of the validators from schema.json is one of the JSON Schema's too", () => {
    for (const d of DEVIATIONS) {
      expect(
        JSON_SCHEMA_DEVIATIONS.some((j) => j.revision === d.revision && j.path.startsWith(d.type)),
        `${d.revision} ${d.type}`,
      ).toBe(true);
    }
    for (const d of JSON_SCHEMA_DEVIATIONS) expect(d.reason.length).toBeGreaterThan(40);
  });

  it("the comparison sees a dropped requirement, a lost format, a changed bound, a missing type", () => {
    const revision = "2026-07-28";
    const base = buildJsonSchema(loaded(revision).model);
    const spec = normalDefinitions(specSchema(revision));
    const mutated = structuredClone(base) as { $defs: Record<string, Record<string, any>> };
    const defs = mutated.$defs;
    defs["CallToolRequestParams"]!["required"] = [];
    delete defs["Icon"]!["properties"]["src"]["format"];
    defs["ModelPreferences"]!["properties"]["costPriority"]["maximum"] = 2;
    delete defs["ProgressToken"];
    const paths = differences(spec, normalDefinitions(mutated as Schema)).map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "CallToolRequestParams/required",
        "Icon/properties/src/format",
        "ModelPreferences/properties/costPriority/maximum",
        "ProgressToken",
      ]),
    );
  });

  it("the normal form reads draft-07 and 2020-12 spellings alike", () => {
    const draft07 = {
      definitions: {
        A: { type: "object", properties: { b: { $ref: "#/definitions/B" } }, required: ["b"] },
        B: { enum: ["x", "y"], type: "string", description: "a B" },
      },
    };
    const current = {
      $defs: {
        A: {
          type: "object",
          properties: { b: { anyOf: [{ const: "y", type: "string" }, { const: "x" }] } },
          required: ["b"],
          additionalProperties: {},
        },
        B: { type: ["string"], enum: ["y", "x"] },
      },
    };
    expect(differences(normalDefinitions(draft07), normalDefinitions(current))).toEqual([]);
    expect(normalise({ anyOf: [{ type: "string" }, { const: "a" }, { type: "integer" }] })).toEqual(
      { type: ["integer", "string"] },
    );
  });
});

describe("json-schema: the file", () => {
  it("is valid JSON Schema 2020-12 (ajv compiles it strictly) and accepts the spec's examples", async () => {
    const revision = "2026-07-28";
    const schema = JSON.parse((await emitted(revision)).content) as Record<string, unknown>;
    expect(schema["$schema"]).toBe(JSON_SCHEMA_DIALECT);
    const ajv = new Ajv2020({ strict: true, formats: fullFormats, allowUnionTypes: true });
    ajv.addSchema(schema, "mcp");
    // Every example of the spec, against its type; and one broken copy of each, refused.
    const examples = join(SPEC_DIR, "schema", revision, "examples");
    let checked = 0;
    for (const type of readdirSync(examples)) {
      const check = ajv.getSchema(`mcp#/$defs/${type}`)!;
      for (const name of readdirSync(join(examples, type))) {
        const example = JSON.parse(readFileSync(join(examples, type, name), "utf8")) as unknown;
        expect(check(example), `${type}/${name}: ${JSON.stringify(check.errors)}`).toBe(true);
        expect(check(typeof example === "object" ? 42 : { broken: true })).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(ajv.getSchema("mcp#/$defs/JSONValue")!(null)).toBe(true);
  });

  it("is the same bytes for the same schema.ts (read twice)", async () => {
    const [a, b] = [await emitted("2026-07-28", true), await emitted("2026-07-28", true)];
    expect(a.content).toBe(b.content);
  });

  it("is laid out as prettier would (generation runs no formatter)", async () => {
    const file = await emitted("2026-07-28");
    const formatted = await prettier.format(file.content, { parser: "json", printWidth: 100 });
    expect(formatted).toBe(file.content);
  });

  it("says what made it in $comment (JSON has no header line)", async () => {
    const file = await emitted("2025-06-18");
    expect(JSON.parse(file.content)["$comment"]).toBe(
      headerFor(loaded("2025-06-18")).replace(/^\/\/ /, ""),
    );
    expect(file.content.startsWith("{\n")).toBe(true);
  });

  it("is not generated unless named", () => {
    expect(DEFAULT_GENERATOR_NAMES).not.toContain("json-schema");
    expect(DEFAULT_GENERATOR_NAMES).toContain("validators");
  });
});

describe("json-schema: the output rules for a file without a header line", () => {
  it("regenerates and removes its schema.json (the manifest's), never the user's", async () => {
    const files = await generate(loaded("2026-07-28"), ["json-schema"]);
    const out = join(tempDir(), "out");
    const write = (f: typeof files) => {
      const plan = planOutput(out, f);
      applyOutput(out, plan);
      return plan;
    };
    expect(write(files).write.map((f) => f.path)).toEqual(["schema.json"]);
    // An edited copy is ours (listed in the manifest): written again.
    writeFileSync(join(out, "schema.json"), "{}\n");
    expect(write(files).write.map((f) => f.path)).toEqual(["schema.json"]);
    expect(readFileSync(join(out, "schema.json"), "utf8")).toBe(files[0]!.content);
    // A generation without it removes it as stale.
    const types = await generate(loaded("2026-07-28"), ["types"]);
    expect(write(types).stale).toEqual(["schema.json"]);
    // A schema.json the manifest does not list is the user's.
    const theirs = tempDir();
    writeFileSync(join(theirs, "schema.json"), "{}\n");
    expect(() => planOutput(theirs, files)).toThrow(/schema\.json/);
  });
});

describe("json-schema: the command line", () => {
  it("generates schema.json alone (no index.ts), and --check finds it up to date", async () => {
    const cwd = tempDir();
    const args = ["generate", "--spec", SPEC_DIR, "--revision", "2025-03-26"];
    const flags = ["--out", join(cwd, "out"), "--generators", "json-schema"];
    const r = await runHere([...args, ...flags], cwd);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(cwd, "out")).sort()).toEqual([".mcp-gen-manifest.json", "schema.json"]);
    const check = await runHere([...args, ...flags, "--check"], cwd);
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/is up to date with MCP schema 2025-03-26/);
  });

  it("records no runtime versions for an output that imports no runtime", () => {
    const revisions = [loaded("2026-07-28")];
    expect(generatedWith(revisions, ["json-schema"]).runtimeVersions).toBeUndefined();
    expect(generatedWith(revisions).runtimeVersions).toMatch(/^\^\d+\.\d+\.\d+/);
  });
});
