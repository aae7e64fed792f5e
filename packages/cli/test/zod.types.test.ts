import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { applyEdits, DRAFT_EDITS } from "./fixtures/draft-schema.js";
import {
  fakeSpec,
  importGenerated,
  ROOT,
  SPEC_DIR,
  tempDir,
  typecheck,
  writeFiles,
} from "./helpers.js";
import { itCompiles } from "./support/compile.js";

// The inferred type of every schema of zod.ts is the type of types.ts: identical (the
// compiler's own notion, which reads `?: T` and `?: T | undefined` as one) and assignable
// both ways (which, under exactOptionalPropertyTypes, tells them apart). Compiled under the
// strict flags with the output, for two releases and a draft (drafts.test.ts's edits).

/** The assertions, one a type: a wrong schema is a compile error naming its type. */
function assertions(names: readonly string[]): string {
  return [
    'import type * as z from "zod";',
    'import type * as T from "./types.js";',
    'import type * as Z from "./zod.js";',
    "",
    "type Identical<A, B> =",
    "  (<V>() => V extends A ? 1 : 2) extends <V>() => V extends B ? 1 : 2 ? true : false;",
    "type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
    "type Expect<X extends true> = X;",
    "",
    ...names.map(
      (n) =>
        `export type ${n}Same = [Expect<Identical<z.infer<typeof Z.${n}Schema>, T.${n}>>, Expect<Mutual<z.infer<typeof Z.${n}Schema>, T.${n}>>];`,
    ),
    "",
  ].join("\n");
}

async function diagnostics(spec: string, revision: string, extra = ""): Promise<string[]> {
  const loaded = loadRevision(spec, revision);
  const files = await generate(loaded, ["zod"]);
  const names = loaded.model.declarations
    .filter((d) => d.kind !== "const" && d.exported)
    .map((d) => d.name);
  expect(names.length).toBeGreaterThan(70);
  const dir = tempDir("mcp-gen-zod-");
  writeFiles(dir, files);
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(dir, "check.ts"), assertions(names) + extra);
  return typecheck([join(dir, "check.ts"), join(dir, "zod.ts")]);
}

describe("zod.ts: each schema's inferred type is the type of types.ts", () => {
  itCompiles("2025-11-25", async () => {
    expect(await diagnostics(SPEC_DIR, "2025-11-25")).toEqual([]);
  });

  itCompiles("2026-07-28, and a wrong type is an error", async () => {
    // The check itself can fail: an optional property typed `| undefined`, another type.
    const wrong = [
      "export type Wrong1 = Expect<Mutual<{ a?: string | undefined }, { a?: string }>>;",
      "export type Wrong2 = Expect<Identical<z.infer<typeof Z.TextContentSchema>, T.ImageContent>>;",
      "",
    ].join("\n");
    const errors = await diagnostics(SPEC_DIR, "2026-07-28", wrong);
    expect(errors).toHaveLength(2);
    expect(
      errors.every((e) => e.includes("Type 'false' does not satisfy the constraint 'true'")),
    ).toBe(true);
  });

  itCompiles("a draft of 2026-07-28", async () => {
    const spec = fakeSpec(applyEdits(SPEC_DIR, "2026-07-28", DRAFT_EDITS), "draft");
    expect(await diagnostics(spec, "draft")).toEqual([]);
  });
});

describe("examples/zod-schemas", () => {
  itCompiles(
    "type-checks with its output under the strict flags, and parses tool calls",
    async () => {
      const dir = join(tempDir("mcp-gen-example-"), "zod-schemas");
      cpSync(join(ROOT, "examples", "zod-schemas"), dir, { recursive: true });
      const config = JSON.parse(readFileSync(join(dir, "mcp-gen.config.json"), "utf8")) as {
        revisions: [string];
        out: string;
        generators: string[];
      };
      const files = await generate(loadRevision(SPEC_DIR, config.revisions[0]), config.generators);
      writeFiles(join(dir, config.out), files);
      expect(typecheck([join(dir, "tool-call.ts")])).toEqual([]);
      const source = readFileSync(join(dir, "tool-call.ts"), "utf8");
      const example = await importGenerated<{ parseToolCall(json: string): unknown }>(
        [
          ...files.map((f) => ({ ...f, path: `${config.out}/${f.path}` })),
          { path: "tool-call.ts", content: source },
        ],
        "tool-call.js",
      );
      // The spec's own example, with a key its schema does not declare.
      const examples = join(SPEC_DIR, "schema", config.revisions[0], "examples", "CallToolRequest");
      const [first] = readdirSync(examples);
      const call = JSON.parse(readFileSync(join(examples, first!), "utf8")) as {
        params: Record<string, unknown>;
      };
      call.params["extra"] = { kept: true };
      expect(example.parseToolCall(JSON.stringify(call))).toEqual(call);
      expect(
        example.parseToolCall(JSON.stringify({ ...call, params: { ...call.params, name: 7 } })),
      ).toEqual([expect.stringMatching(/^\/params\/name: /)]);
    },
  );
});
