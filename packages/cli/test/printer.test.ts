import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { runtimeImports } from "../src/generators/emit/runtime.js";
import { describe, expect, it } from "vitest";
import { headerFor } from "../src/generators/emit/index.js";
import {
  clientNameProblem,
  notificationFunctionName,
  requestFunctionName,
  uniqueNames,
} from "../src/generators/emit/names.js";
import {
  CodeWriter,
  ident,
  num,
  prettierKey,
  quote,
  str,
} from "../src/generators/print/printer.js";
import { typesGenerator } from "../src/generators/emit/types.js";
import { McpGenError } from "../src/schema/diagnostics.js";
import { loadRevision } from "../src/schema/index.js";
import { parseDoc, renderDoc } from "../src/schema/jsdoc.js";
import { printDeclarations } from "../src/generators/print/print-types.js";
import { readSchemaFile } from "../src/schema/reader.js";
import { SPEC_DIR, SPEC_REVISIONS, tempDir } from "./helpers.js";

const PRETTIER = { parser: "babel-ts", printWidth: 100 } as const;
const format = (code: string) => prettier.format(code, PRETTIER);

const STRINGS = [
  "plain",
  `it's`,
  `say "hi"`,
  `'"'"'`,
  `"""'`,
  "a\\b",
  "\u2028\u2029",
  "`${x}`",
  "*/ /*",
  "\n\r\t",
  "\u0000\ud800",
  "é 名",
];

describe("literals, as prettier prints them", () => {
  it.each(STRINGS)(
    "quote(%j) reads back as the same string and is what prettier prints",
    async (s) => {
      expect(new Function(`return ${quote(s)};`)()).toBe(s);
      expect(new Function(`return ${str(s)};`)()).toBe(s);
      const code = `export type X = ${quote(s)};\nexport const y = { ${prettierKey(s)}: 1 };\n`;
      expect(await format(code)).toBe(code);
    },
  );

  it("num() spells numbers as prettier does", async () => {
    for (const n of [0, -32601, 0.5, 1e21, 1.5e-7, 123456789]) {
      const code = `export const x = ${num(n)};\n`;
      expect(await format(code)).toBe(code);
      expect(Number(num(n))).toBe(n);
    }
    expect(() => num(Infinity)).toThrow();
  });
});

describe("imports", () => {
  it("a default import: alone, or before the named ones; sorted by module, as prettier keeps them", async () => {
    const w = new CodeWriter();
    w.import("node:test", "test");
    expect(w.importDefault("node:assert/strict", "assert")).toBe("assert");
    w.importDefault("./both.js", "both");
    w.import("./both.js", "named");
    w.import("./both.js", "Shape", true);
    w.line("test(assert, both, named);");
    const code = w.toString("");
    expect(code.split("\n").slice(0, 3)).toEqual([
      'import both, { named, type Shape } from "./both.js";',
      'import assert from "node:assert/strict";',
      'import { test } from "node:test";',
    ]);
    expect(await format(code)).toBe(code);
    expect(() => w.importDefault("./both.js", "other")).toThrow("imported as both and other");
  });
});

describe("identifiers", () => {
  const at = { file: "/s/schema.ts", line: 3, column: 7 };
  it("passes identifiers, rejects reserved words and non-identifiers with their location", () => {
    expect(ident("CallToolRequest", "type name", at)).toBe("CallToolRequest");
    expect(() => ident("await", "type name", at)).toThrow(
      new McpGenError(
        "unsupported-construct",
        "type name 'await' is a reserved word and cannot name generated code",
        at,
      ),
    );
    expect(() => ident("a\nb", "type name", at)).toThrow(
      /^\/s\/schema\.ts:3:7: type name 'a b' is not an identifier/,
    );
  });
});

describe("docs", () => {
  it("a `*/` in doc text or tags cannot end the comment early", () => {
    const rendered = renderDoc({
      text: "ends */ here",
      tags: [{ name: "deprecated", text: "use */ x" }],
    });
    expect(rendered.indexOf("*/")).toBe(rendered.length - 2);
  });

  it("every line terminator ends a doc line, so none survives inside a comment line", () => {
    const doc = parseDoc("/**\n * one\u2028two\rthree\u2029four\r\nfive\n */");
    expect(doc.text.split("\n")).toEqual(["one", "two", "three", "four", "five"]);
  });
});

describe("client function names", () => {
  it("maps the spec's methods as before", () => {
    expect(requestFunctionName("tools/call")).toBe("callTool");
    expect(requestFunctionName("resources/templates/list")).toBe("listResourceTemplates");
    expect(notificationFunctionName("notifications/roots/list_changed")).toBe(
      "notifyRootsListChanged",
    );
  });

  it("refuses names that are not identifiers or that a client member holds", () => {
    expect(clientNameProblem("2faX", "request")).toMatch(/not an identifier/);
    expect(clientNameProblem("delete", "request")).toMatch(/reserved word/);
    expect(clientNameProblem("close", "request")).toMatch(/every client already has/);
    expect(clientNameProblem("listToolsPages", "request")).toMatch(/Pages/);
    expect(clientNameProblem("notifyAll", "request")).toMatch(/notification senders/);
    expect(clientNameProblem("notifyAll", "notification")).toBeUndefined();
    expect(clientNameProblem("callTool", "request")).toBeUndefined();
  });

  it("names the method in one line, escaped, at its location when known", () => {
    const at = { file: "s.ts", line: 9, column: 1 };
    expect(() => uniqueNames(["x/\n2fa"], requestFunctionName, () => at)).toThrow(
      /^s\.ts:9:1: method "x\/\\n2fa" would be the client function "\\n2faX", which is not an identifier/,
    );
    expect(() => uniqueNames(["a/b", "b/a"], () => "same")).toThrow(
      /methods "a\/b" and "b\/a" would both be called same\(\)/,
    );
  });
});

describe("types.ts is printed already laid out as prettier would", () => {
  it.each(SPEC_REVISIONS)(
    "%s: marked preformatted, and prettier leaves it unchanged",
    async (revision) => {
      const loaded = loadRevision(SPEC_DIR, revision);
      const [file] = typesGenerator.emit({
        loaded,
        header: headerFor(loaded),
        legacy: [],
        auth: false,
        headerFor,
        runtime: runtimeImports("package"),
      });
      expect(file!.preformatted).toBe(true);
      expect(await format(file!.code)).toBe(file!.code);
    },
  );

  /** Declarations printed from a small schema.ts. */
  function print(source: string) {
    const path = join(tempDir(), "schema.ts");
    writeFileSync(path, source);
    return printDeclarations(readSchemaFile(path).declarations);
  }
  const long = (n: number) =>
    Array.from({ length: n }, (_, i) => `Member${i}WithALongName`).join(" | ");
  const bases =
    "interface A {}\ninterface B {}\n" +
    Array.from({ length: 12 }, (_, i) => `type Member${i}WithALongName = string;`).join("\n");

  it.each([
    ["a union that fits", `type U = ${long(3)};`],
    ["a union that fits on the next line", `type U = ${long(4)};`],
    ["a union broken one member a line", `type U = ${long(12)};`],
    [
      "one long Omit base, broken inside its type arguments",
      `interface AVeryLongInterfaceNameThatTakesMostOfTheLineBeforeItsBaseIsEvenListed extends Omit<A, "a"> { a: string }`,
    ],
    [
      "one long Omit base whose keys break too",
      `interface AVeryLongInterfaceNameThatTakesMostOfTheLineBeforeItsBaseIsEvenListed extends Omit<A, "${"k".repeat(50)}" | "${"j".repeat(50)}"> {}`,
    ],
    [
      "bases moved to their own line",
      "interface AVeryLongInterfaceNameThatTakesMostOfTheLineBeforeItsBasesAreEvenListed extends A, B { a: string }",
    ],
    ["a long constant", `const C = "${"x".repeat(120)}";`],
    [
      "objects: nested, in arrays, after an intersection, empty",
      "interface O { a: { b: { c?: string }[] }; d: A & { e: 1 }; f: {}; [k: string]: unknown }",
    ],
  ])("%s", async (_, declaration) => {
    const printed = print(`${bases}\n${declaration}\n`);
    expect(printed.exact).toBe(true);
    const code = printed.code + "\n";
    expect(await format(code)).toBe(code);
  });

  it.each([
    ["an object inside a union", "type U = { a: string } | null;"],
    ["an object as a type argument", "type R = Record<string, { a: string }>;"],
    [
      "one base other than Omit, on a line too long",
      `interface ${"N".repeat(95)} extends A { a: string }`,
    ],
    ["a property whose union does not fit", `interface P { aPropertyWithAName: ${long(4)} }`],
    ["wide characters that may or may not fit", `type W = "${"名".repeat(45)}";`],
  ])("%s: not covered, so left to prettier", (_, declaration) => {
    expect(print(`${bases}\n${declaration}\n`).exact).toBe(false);
  });
});
