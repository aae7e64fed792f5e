import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/cli/config.js";
import { settings } from "../src/cli/settings.js";
import { cli, ROOT, snapshotTree, SPEC_DIR, STRICT_OPTIONS, tempDir } from "./helpers.js";

// `generate --target`: ts (the printed TypeScript) and js+dts (JavaScript, declarations and
// declaration maps, the printed TypeScript kept under source/ for the maps). Each target's
// output is the same bytes run after run; --check, the manifest and the user's handlers.ts
// hold for both; a consumer compiles against js+dts under the strictest flags. Each test
// compiles the output to js+dts with TypeScript: tagged `compile`, run by `npm run test:slow`.

const REVISION = "2026-07-28";

function generateInto(out: string, ...extra: string[]) {
  const revision = extra.includes("--revisions") ? [] : ["--revision", REVISION];
  return cli(["generate", "--spec", SPEC_DIR, ...revision, "--out", out, ...extra]);
}

describe("generate --target", () => {
  it(
    "each target writes the same bytes twice; --check holds and names an edited .js or map",
    { tags: "compile", timeout: 240_000 },
    () => {
      const root = tempDir();
      const trees: Record<string, Record<string, string>> = {};
      for (const target of ["ts", "js+dts"]) {
        const [a, b] = [join(root, `${target}-a`), join(root, `${target}-b`)];
        for (const out of [a, b]) {
          const run = generateInto(out, "--target", target);
          expect(run.status, run.stderr).toBe(0);
        }
        trees[target] = snapshotTree(a);
        expect(snapshotTree(b)).toEqual(trees[target]);
        const again = generateInto(a, "--target", target);
        expect(again.stdout).toMatch(/\(0 written, \d+ unchanged, 0 removed, 1 user-owned kept\)/);
        expect(generateInto(a, "--target", target, "--check").status).toBe(0);
      }
      const ts = Object.keys(trees["ts"]!);
      const js = Object.keys(trees["js+dts"]!);
      expect(ts).toContain("dispatcher.ts");
      // Every generated .ts is a .js, a .d.ts and a map, and is kept under source/ for the map.
      for (const file of ["dispatcher", "types", "validators", "index"]) {
        expect(js).toEqual(
          expect.arrayContaining([
            `${file}.js`,
            `${file}.d.ts`,
            `${file}.d.ts.map`,
            `source/${file}.ts`,
          ]),
        );
        expect(trees["js+dts"]![`source/${file}.ts`]).toBe(trees["ts"]![`${file}.ts`]);
        const map = JSON.parse(trees["js+dts"]![`${file}.d.ts.map`]!);
        expect(map.sources).toEqual([`source/${file}.ts`]);
        // Both readable files carry the header that tells mcp-gen's files from the user's.
        const header = trees["ts"]![`${file}.ts`]!.split("\n", 1)[0];
        expect(trees["js+dts"]![`${file}.js`]!.split("\n", 1)[0]).toBe(header);
        expect(trees["js+dts"]![`${file}.d.ts`]!.split("\n", 1)[0]).toBe(header);
      }
      // The skeleton is the user's: TypeScript in either target, the same text.
      expect(trees["js+dts"]!["handlers.ts"]).toBe(trees["ts"]!["handlers.ts"]);
      expect(
        js.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts") && !p.startsWith("source/")),
      ).toEqual(["handlers.ts"]);
      const manifest = JSON.parse(trees["js+dts"]![".mcp-gen-manifest.json"]!);
      expect(manifest.generatedWith.target).toBe("js+dts");
      expect(manifest.files).toContain("dispatcher.d.ts.map");
      expect(JSON.parse(trees["ts"]![".mcp-gen-manifest.json"]!).generatedWith).not.toHaveProperty(
        "target",
      );

      const out = join(root, "js+dts-a");
      writeFileSync(join(out, "types.d.ts.map"), "{}\n");
      writeFileSync(join(out, "methods.js"), `${trees["js+dts"]!["methods.js"]}// edited\n`);
      const check = generateInto(out, "--target", "js+dts", "--check");
      expect(check.status).toBe(3);
      expect(check.stderr).toMatch(/methods\.js: differs \(edited since/);
      expect(check.stderr).toMatch(/types\.d\.ts\.map: differs \(edited since/);
      // The map has no header line; the manifest makes it mcp-gen's, so generate replaces it.
      expect(generateInto(out, "--target", "js+dts").status).toBe(0);
      expect(snapshotTree(out)).toEqual(trees["js+dts"]);
    },
  );

  it(
    "switching targets removes the other target's files, keeps the user's, and --check names the target",
    { tags: "compile", timeout: 240_000 },
    () => {
      const out = join(tempDir(), "out");
      expect(generateInto(out).status).toBe(0);
      const mine = `${readFileSync(join(out, "handlers.ts"), "utf8")}// mine\n`;
      writeFileSync(join(out, "handlers.ts"), mine);
      const check = generateInto(out, "--target", "js+dts", "--check");
      expect(check.status).toBe(3);
      expect(check.stderr).toMatch(/dispatcher\.ts: no longer generated\n/);
      expect(check.stderr).toMatch(/dispatcher\.d\.ts: missing\n/);
      const switched = generateInto(out, "--target", "js+dts");
      expect(switched.status, switched.stderr).toBe(0);
      const tree = snapshotTree(out);
      expect(tree["handlers.ts"]).toBe(mine);
      expect(tree).not.toHaveProperty("dispatcher.ts");
      expect(tree).toHaveProperty("dispatcher.d.ts");
      // Back again: the .js, .d.ts, maps and source/ go.
      expect(generateInto(out, "--target", "ts").status).toBe(0);
      const back = Object.keys(snapshotTree(out)).filter(
        (p) => !p.endsWith(".ts") && !p.startsWith("."),
      );
      expect(back).toEqual([]);
      expect(readFileSync(join(out, "handlers.ts"), "utf8")).toBe(mine);
      // A target neither flag nor config knows is refused before anything is read.
      const bad = generateInto(out, "--target", "js");
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe("mcp-gen: --target is 'js'; use ts or js+dts\n");
    },
  );

  it(
    "a consumer of the js+dts output compiles under --strict --exactOptionalPropertyTypes --noUncheckedIndexedAccess, declarations included",
    { tags: "compile", timeout: 240_000 },
    () => {
      const dir = tempDir();
      const out = join(dir, "gen");
      const run = generateInto(out, "--target", "js+dts", "--revisions", `${REVISION},2025-11-25`);
      expect(run.status, run.stderr).toBe(0);
      const consumer = join(dir, "consumer.ts");
      writeFileSync(
        consumer,
        [
          'import { defineTool } from "./gen/dispatcher.js";',
          'import type { Tool } from "./gen/types.js";',
          'const listed: Tool = { name: "add", inputSchema: { type: "object" } };',
          "export const add = defineTool({",
          '    tool: { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } },',
          '    call: ({ a }) => ({ content: [{ type: "text", text: `${listed.name} ${a + 1}` }] }),',
          "});",
          "",
        ].join("\n"),
      );
      // No skipLibCheck: the generated declarations are checked as strictly as the consumer.
      const options = {
        ...STRICT_OPTIONS,
        skipLibCheck: false,
        typeRoots: [join(ROOT, "node_modules", "@types")],
      };
      // The skeleton handlers.ts (TypeScript, the user's) is a consumer too.
      const program = ts.createProgram({
        rootNames: [consumer, join(out, "handlers.ts")],
        options,
      });
      const ours = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file === undefined || d.file.fileName.startsWith(dir))
        .map(
          (d) =>
            `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
        );
      expect(ours).toEqual([]);
      // The program read the declarations, not the printed TypeScript under source/.
      const read = program
        .getSourceFiles()
        .map((f) => f.fileName)
        .filter((f) => f.startsWith(out));
      expect(read).toContain(join(out, "dispatcher.d.ts"));
      expect(read.filter((f) => f.includes("/source/"))).toEqual([]);
    },
  );

  it(
    "the config's 'target' is the default the flag overrides; another value is refused, naming the file",
    { tags: "compile" },
    () => {
      const dir = tempDir();
      const config = join(dir, "mcp-gen.config.json");
      writeFileSync(config, JSON.stringify({ spec: SPEC_DIR, target: "js+dts" }));
      expect(settings({ config }).target).toBe("js+dts");
      expect(settings({ config, target: "ts" }).target).toBe("ts");
      writeFileSync(config, JSON.stringify({ spec: SPEC_DIR }));
      expect(settings({ config }).target).toBe("ts");
      writeFileSync(config, JSON.stringify({ spec: SPEC_DIR, target: "dts" }));
      expect(() => loadConfig(config)).toThrow(`${config}: 'target' is 'dts'; use ts or js+dts`);
    },
  );
});
