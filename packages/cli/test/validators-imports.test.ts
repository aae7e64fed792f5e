import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { runtimeImports } from "../src/generators/emit/runtime.js";
import { VALIDATION_HELPERS } from "../src/generators/emit/runtime-symbols.js";
import { validatorsGenerator } from "../src/generators/emit/validators.js";
import type { LoadedRevision } from "../src/schema/index.js";
import { buildProtocol } from "../src/schema/protocol.js";
import { readSchemaText } from "../src/schema/reader.js";
import { findRevision } from "../src/schema/revisions.js";
import { readFixture, SPEC_DIR, tempDir, typecheck, writeFiles } from "./helpers.js";
import { itCompiles } from "./support/compile.js";

// validators.ts imports the runtime's validation helpers its code builders recorded as named
// (ValidationUses), not those a scan of the printed text finds. These schemas make the
// builders name helpers a plain schema does not ($fmtUri, $multipleOf, $length, $own,
// $escape, $anyOf, $tooDeep, ...): each helper the code calls must be imported, and none
// it does not call.

/** Exercises every keyword and shape with a helper of its own. */
const EXERCISED = `
export interface Exercised {
  /** @format uri */
  link: string;
  /** @format byte */
  blob?: string;
  /** @format uri-template */
  template?: string;
  /** @multipleOf 0.5 */
  step?: number;
  /**
   * @minLength 1
   * @maxLength 3
   */
  short?: string;
  /**
   * @minItems 1
   * @maxItems 2
   */
  few?: string[];
  constructor?: string;
  either?: string | number[] | { a: number };
  extra?: { [key: string]: number };
  nested?: Exercised;
}
`;

function loaded(extra: string): LoadedRevision {
  const model = readSchemaText("fixture.ts", `${readFixture("mini-schema.ts")}\n${extra}\n`);
  return {
    revision: { ...findRevision(SPEC_DIR, "latest"), name: "2099-01-01" },
    model,
    protocol: buildProtocol(model),
  };
}

function validatorsCode(extra: string): string {
  const [file] = validatorsGenerator.emit({
    loaded: loaded(extra),
    header: "",
    legacy: [],
    auth: false,
    headerFor: () => "",
    runtime: runtimeImports("package"),
  });
  return file!.code;
}

/** The names validators.ts imports from the runtime's core, and the helpers its code names. */
function importedAndNamed(code: string): { imported: string[]; named: string[] } {
  const from = '"@mcp-gen/runtime/core";';
  const imports = [...code.matchAll(/^import (type )?\{([^}]*)\} from "([^"]+)";$/gm)]
    .filter((m) => `"${m[3]}";` === from)
    .flatMap((m) => m[2]!.split(",").map((n) => n.replace(/^\s*type\s+/, "").trim()))
    .filter((n) => n !== "");
  // The code after the import and re-export lines: what the file itself calls and names.
  const body = code.slice(code.indexOf("// ---- per-type checks"));
  const named = VALIDATION_HELPERS.map((s) => s.name).filter((name) =>
    new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`).test(body),
  );
  return { imported: [...new Set(imports)].sort(), named: [...new Set(named)].sort() };
}

describe("validators.ts imports the helpers its code names", () => {
  it("every helper a keyword or shape calls, and no other", () => {
    const { imported, named } = importedAndNamed(validatorsCode(EXERCISED));
    for (const helper of [
      "$fmtUri",
      "$fmtByte",
      "$fmtUriTemplate",
      "$multipleOf",
      "$length",
      "$own",
      "$escape",
      "$anyOf",
      "$fail",
      "$found",
      "$tooDeep",
      "MAX_DEPTH",
    ])
      expect(named).toContain(helper);
    expect(imported).toEqual(named);
  });

  it("a helper only one keyword calls is imported with that keyword and not without it", () => {
    const without = importedAndNamed(validatorsCode(""));
    const withUri = importedAndNamed(validatorsCode(EXERCISED));
    expect(without.imported).not.toContain("$fmtUri");
    expect(without.imported).toEqual(without.named);
    expect(withUri.imported).toContain("$fmtUri");
  });

  itCompiles("the validators of the exercising schema compile under the strict flags", async () => {
    const files = await generate(loaded(EXERCISED), ["types", "methods", "validators"]);
    const dir = tempDir();
    writeFiles(dir, files);
    expect(typecheck(files.map((f) => join(dir, f.path)))).toEqual([]);
  });
});
