import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ts } from "../../schema/typescript.js";
import { generate } from "../../generators/emit/index.js";
import { jsonErrorOffset, lineColumn } from "../../cli/json-position.js";
import type { LintContext, RawFinding, Rule } from "../finding.js";
import { importModule } from "../../host/import-module.js";

// The spec's examples (schema/<revision>/examples/<Type>/*.json) show what each type looks
// like on the wire. They are checked with mcp-gen's own validators for the revision, generated
// in memory (with a vendored runtime, so nothing outside the temporary folder is imported):
// an example they reject is either a wrong example or a place where the generator reads the
// schema differently from its authors.

type Validate = (value: unknown) => {
  ok: boolean;
  errors?: { path: string; message: string }[];
};

interface Example {
  type: string;
  file: string;
}

/** The examples of a revision, by type folder and file name, in a stable order. */
export function listExamples(dir: string): Example[] {
  if (!existsSync(dir)) return [];
  const sorted = (path: string) =>
    readdirSync(path, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  return sorted(dir)
    .filter((e) => e.isDirectory())
    .flatMap((folder) =>
      sorted(join(dir, folder.name))
        .filter((e) => e.isFile() && e.name.endsWith(".json"))
        .map((e) => ({ type: folder.name, file: join(dir, folder.name, e.name) })),
    );
}

/** The revision's generated validators, transpiled into a temporary folder and imported. */
async function generatedValidators(ctx: LintContext): Promise<Record<string, unknown>> {
  const files = await generate(ctx.loaded, ["validators"], { runtime: "vendor" });
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-lint-"));
  try {
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    for (const f of files.filter((f) => f.path.endsWith(".ts"))) {
      const js = ts.transpileModule(f.content, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const path = join(dir, f.path.replace(/\.ts$/, ".js"));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, js);
    }
    return (await importModule(pathToFileURL(join(dir, "validators.js")).href)) as Record<
      string,
      unknown
    >;
  } finally {
    // Node has read every module of the graph once import() resolves.
    rmSync(dir, { recursive: true, force: true });
  }
}

export const invalidExample: Rule = {
  id: "invalid-example",
  severity: "error",
  summary:
    "an example in schema/<revision>/examples/ is not JSON, names no type, or does not validate as its type",
  check: async (ctx) => {
    const examples = listExamples(ctx.loaded.revision.examplesDir);
    if (examples.length === 0) return [];
    const validators = await generatedValidators(ctx);
    const out: RawFinding[] = [];
    for (const { type, file } of examples) {
      const text = readFileSync(file, "utf8");
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        const at = jsonErrorOffset(text);
        out.push({
          loc: { file, ...lineColumn(text, Math.max(0, at)) },
          message: `example is not JSON: ${(error as Error).message}`,
        });
        continue;
      }
      const decl = ctx.resolver.declaration(type);
      const validate = validators[`validate${type}`] as Validate | undefined;
      if (!decl || typeof validate !== "function") {
        out.push({
          loc: { file, line: 1, column: 1 },
          message: `example folder ${type} names no type of the revision`,
        });
        continue;
      }
      const result = validate(value);
      if (result.ok) continue;
      const [first, ...rest] = result.errors ?? [];
      const where = first ? `${first.path || "(the value)"}: ${first.message}` : "rejected";
      out.push({
        loc: decl.loc,
        message: `example ${exampleName(ctx, file)} does not validate as ${type}: ${where}${rest.length > 0 ? ` (and ${rest.length} more)` : ""}`,
      });
    }
    return out;
  },
};

/** An example's path from its revision's folder: `examples/CallToolRequest/call-tool-request.json`. */
function exampleName(ctx: LintContext, file: string): string {
  return file
    .slice(ctx.loaded.revision.dir.length + 1)
    .split("\\")
    .join("/");
}
