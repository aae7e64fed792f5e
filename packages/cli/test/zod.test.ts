import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { rolldown } from "rolldown";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { findRevision, loadRevision, type LoadedRevision } from "../src/schema/index.js";
import { buildProtocol } from "../src/schema/protocol.js";
import { readSchemaText } from "../src/schema/reader.js";
import { buildValidationSchemas } from "../src/schema/validation.js";
import { ArbitraryBuilder, differentialCandidates } from "./arbitraries.js";
import { schemaJsonOracle, specExamples } from "./support/schema-json-oracle.js";
import {
  importGenerated,
  readFixture,
  SPEC_DIR,
  SPEC_REVISIONS,
  writeGenerated,
} from "./helpers.js";

// zod.ts (generator `zod`) against the spec's schema.json, on the corpus the validators'
// differential test uses (validators.test.ts): the spec's examples, generated values and their
// mutations. Its types are checked in zod.types.test.ts.

interface ZodSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

const SEED = Number(process.env["FC_SEED"] ?? 20261130);
const RUNS = Number(process.env["FC_RUNS"] ?? 200);
const NEWEST = SPEC_REVISIONS[SPEC_REVISIONS.length - 1];
const runsFor = (revision: string) => (revision === NEWEST ? RUNS : Math.ceil(RUNS / 4));
const corpusTags = (revision: string) => ({ tags: revision === NEWEST ? [] : ["corpus"] });

/**
 * Where zod.ts and schema.json disagree (none on the corpus below), each with a value schema.json
 * rejects and zod.ts accepts; docs/guide/generated-output.md lists them.
 */
const ZOD_DEVIATIONS = [
  {
    revision: "2026-07-28",
    type: "ClientCapabilities",
    reason:
      "zod skips an own `__proto__` key of an object or record (against prototype pollution), so its value goes unchecked",
    witness: JSON.parse('{"experimental": {"__proto__": 5}}') as unknown,
  },
];

describe.each(SPEC_REVISIONS)("zod.ts for %s", (revision) => {
  let zod: Record<string, ZodSchema>;
  let loaded: ReturnType<typeof loadRevision>;
  beforeAll(async () => {
    loaded = loadRevision(SPEC_DIR, revision);
    zod = await importGenerated(await generate(loaded, ["zod"]), "zod.js");
  });

  it(
    `agrees with ajv on schema.json for every type: examples plus ${runsFor(revision)} generated values, valid and mutated; valid values parse to themselves`,
    corpusTags(revision),
    () => {
      const { check, defs } = schemaJsonOracle(revision, true);
      const arbitraries = new ArbitraryBuilder(buildValidationSchemas(loaded.model));
      const types = loaded.model.declarations
        .filter((d) => d.kind !== "const" && d.exported)
        .map((d) => d.name);
      expect(types.every((t) => t in defs && `${t}Schema` in zod)).toBe(true);
      let valid = 0;
      let total = 0;
      for (const type of types) {
        const validate = check(type);
        const schema = zod[`${type}Schema`]!;
        const examples = specExamples(revision, type);
        for (const example of examples) {
          expect(validate(example), `${type} example`).toBe(true);
          expect(schema.safeParse(example), `${type} example`).toEqual({
            success: true,
            data: example,
          });
        }
        const candidate = differentialCandidates(arbitraries, type, examples);
        fc.assert(
          fc.property(candidate, (value) => {
            const expected = validate(value) as boolean;
            total++;
            if (expected) valid++;
            const result = schema.safeParse(value);
            if (result.success !== expected)
              throw new Error(`${type}: zod says ${result.success}, schema.json ${expected}`);
            // Loose objects: nothing stripped, nothing coerced.
            return !expected || isDeepStrictEqual(result.data, value);
          }),
          { seed: SEED, numRuns: runsFor(revision), verbose: true, examples: [] },
        );
      }
      expect(valid).toBeGreaterThan(total * 0.1);
      expect(total - valid).toBeGreaterThan(total * 0.1);
    },
  );
});

describe("documented zod.ts deviations from schema.json", () => {
  it.each(ZOD_DEVIATIONS.map((d) => [`${d.revision} ${d.type}`, d] as const))(
    "%s is pinned",
    async (_name, d) => {
      const zod = await importGenerated<Record<string, ZodSchema>>(
        await generate(loadRevision(SPEC_DIR, d.revision), ["zod"]),
        "zod.js",
      );
      expect(schemaJsonOracle(d.revision, true).check(d.type)(d.witness)).toBe(false);
      expect(zod[`${d.type}Schema`]!.safeParse(d.witness).success).toBe(true);
    },
  );
});

describe("zod.ts in a program", () => {
  let files: OutputFile[];
  beforeAll(async () => {
    files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["zod"]);
  });

  it("is emitted on request only, with types.ts, and kept out of index.ts (zod is a peer dependency)", async () => {
    expect(files.map((f) => f.path).sort()).toEqual(["index.ts", "types.ts", "zod.ts"]);
    const index = files.find((f) => f.path === "index.ts")!.content;
    expect(index).toContain('"./types.js"');
    expect(index).not.toContain("zod");
    const all = await generate(loadRevision(SPEC_DIR, "2026-07-28"));
    expect(all.map((f) => f.path)).not.toContain("zod.ts");
  });

  it("declares one schema a type, each marked pure: a bundler keeps only those used", async () => {
    const zod = files.find((f) => f.path === "zod.ts")!.content;
    expect(zod).not.toMatch(/^export (default|\{)/m);
    const dir = writeGenerated(files);
    writeFileSync(join(dir, "entry.js"), 'export { RequestIdSchema } from "./zod.js";\n');
    const bundle = await rolldown({
      input: join(dir, "entry.js"),
      external: ["zod"],
      logLevel: "silent",
    });
    const { output } = await bundle.generate({ format: "esm" });
    const code = output[0].code;
    // The schema imported and the helper it names (integers), of the file's 150 schemas.
    expect(zod.match(/^export const \w+Schema\b/gm)!.length).toBeGreaterThan(150);
    expect(code.match(/\b(const|let|var) \w+/g)).toEqual([
      "const integer",
      "const RequestIdSchema",
    ]);
    // Nor the calls of the others (a call not marked pure stays, as a statement of its own).
    expect(code).not.toMatch(/looseObject|z\.literal|z\.enum|z\.lazy/);
  });

  it("is TypeScript only: --target js+dts would compile it without zod's types", async () => {
    await expect(
      generate(loadRevision(SPEC_DIR, "2026-07-28"), ["zod"], { target: "js+dts" }),
    ).rejects.toThrow("the zod generator writes TypeScript only (--target ts)");
  });

  it("keeps undeclared keys and types objects by their declared ones", async () => {
    const zod = await importGenerated<Record<string, ZodSchema>>(files, "zod.js");
    const content = { type: "text", text: "hi", extra: { kept: true } };
    expect(zod["TextContentSchema"]!.safeParse(content)).toEqual({ success: true, data: content });
    expect(zod["ContentBlockSchema"]!.safeParse({ ...content, type: "nope" }).success).toBe(false);
  });
});

/** The mini fixture (it carries the protocol conventions) plus extra declarations. */
function withFixture(extra: string): LoadedRevision {
  const model = readSchemaText("fixture.ts", `${readFixture("mini-schema.ts")}\n${extra}\n`);
  return {
    revision: { ...findRevision(SPEC_DIR, "latest"), name: "2099-01-01" },
    model,
    protocol: buildProtocol(model),
  };
}

describe("zod.ts of a schema with odd names, tags and recursion", () => {
  const SCHEMA = `
export const VERSION = "it's \\"1\\"";
/** A tree whose keys need quotes. */
export interface Node {
  "__proto__"?: string;
  "a-b": typeof VERSION;
  /** @pattern ^[a-z]+$ */
  word: string;
  /** @nullable */
  size: number;
  /** @TJS-type number */
  weight?: number | undefined;
  children: Node[];
}
export type Kind = "leaf" | "branch";
`;

  it("quotes keys, resolves constants, checks tags and recurses through z.lazy", async () => {
    const files = await generate(withFixture(SCHEMA), ["zod"]);
    const code = files.find((f) => f.path === "zod.ts")!.content;
    expect(code).toContain('["__proto__"]: /* @__PURE__ */ z.exactOptional(');
    expect(code).toContain("export const NodeSchema: z.ZodType<T.Node> = /* @__PURE__ */ z.lazy(");
    expect(code).toContain('export const KindSchema = /* @__PURE__ */ z.enum(["leaf", "branch"]);');
    const zod = await importGenerated<Record<string, ZodSchema>>(files, "zod.js");
    const node = {
      "a-b": 'it\'s "1"',
      word: "abc",
      size: null,
      weight: 1.5,
      children: [{ "a-b": 'it\'s "1"', word: "x", size: 2, children: [] }],
    };
    expect(zod["NodeSchema"]!.safeParse(node)).toEqual({ success: true, data: node });
    const wrong = [
      { ...node, word: "ABC" },
      { ...node, "a-b": "1" },
      { ...node, size: 1.5 },
      { ...node, children: [{ ...node, children: [{}] }] },
    ];
    for (const value of wrong)
      expect(zod["NodeSchema"]!.safeParse(value).success, JSON.stringify(value)).toBe(false);
    // zod skips an own `__proto__` key (see ZOD_DEVIATIONS): the value goes unchecked.
    const own = JSON.parse('{"__proto__": 5}') as object;
    expect(zod["NodeSchema"]!.safeParse({ ...node, ...own }).success).toBe(true);
  });

  it("refuses a tag zod cannot check as JSON Schema does, at its line", async () => {
    const schema = "export interface A {\n  /** @maxLength 3 */\n  s: string;\n}\n";
    await expect(generate(withFixture(schema), ["zod"])).rejects.toThrow(
      /fixture\.ts:\d+:\d+: the zod generator does not implement @maxLength/,
    );
  });
});
