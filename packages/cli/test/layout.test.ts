import * as prettier from "prettier";
import { runtimeImports } from "../src/generators/emit/runtime.js";
import { describe, expect, it } from "vitest";
import { loadEras } from "../src/cli/commands.js";
import { GENERATORS, headerFor } from "../src/generators/emit/index.js";
import { Code, CodeWriter, type Statement, type Value } from "../src/generators/print/printer.js";
import { call } from "../src/generators/emit/validator-expr.js";
import { SPEC_DIR, SPEC_REVISIONS } from "./helpers.js";

// Generation skips prettier for files the printer lays out itself (CodeWriter.exact): the
// layout must be prettier's to the byte, or the output changes with the path it took.

const format = (code: string) => prettier.format(code, { parser: "babel-ts", printWidth: 100 });

/** What the writer prints, and what prettier makes of the same code written on one line. */
async function both(write: (w: CodeWriter) => void, oneLine: string) {
  const w = new CodeWriter();
  write(w);
  return { printed: w.toString(""), exact: w.exact, prettier: await format(oneLine) };
}

const word = (i: number) => `"entry${i}WithSomeLength"`;

describe("CodeWriter lays out lists, values and unions as prettier does", () => {
  const values: [string, Value][] = [
    ["a short object", { a: 1, "b-c": "x", d: [true, null] }],
    [
      "an object too long for one line",
      { first: "a".repeat(40), second: "b".repeat(40), third: { nested: ["c", "d"] } },
    ],
    [
      "nested objects that fit once their parent breaks",
      { outer: { a: "x".repeat(30), b: "y".repeat(30) }, other: { c: "z".repeat(60) } },
    ],
    [
      "an array of strings too long for one line",
      Array.from({ length: 8 }, (_, i) => `element number ${i}`),
    ],
    [
      "two objects of two keys each (always broken)",
      [
        { a: 1, b: 2 },
        { a: 3, b: 4 },
      ],
    ],
    ["empty ones", { o: {}, a: [] }],
    [
      "code inside",
      {
        protocol: new Code("PROTOCOL_0"),
        adapters: { "tools/call": { drop: ["resultType", "x".repeat(70)] } },
      },
    ],
    ["quotes prettier prefers single for", { text: 'say "hi"', other: "it's" }],
  ];
  it.each(values)("%s", async (_, value) => {
    const flatCode = (v: Value): string => {
      if (v instanceof Code) return v.text;
      if (Array.isArray(v)) return `[${v.map(flatCode).join(",")}]`;
      if (v !== null && typeof v === "object")
        return `{${Object.entries(v)
          .map(([k, x]) => `${JSON.stringify(k)}:${flatCode(x as Value)}`)
          .join(",")}}`;
      return JSON.stringify(v);
    };
    const r = await both(
      (w) => w.value("export const X = ", value, " as const;"),
      `export const X = ${flatCode(value)} as const;\n`,
    );
    expect(r.exact).toBe(true);
    expect(r.printed).toBe(r.prettier);
  });

  it("an array of numbers too long for one line is left to prettier (it fills lines)", () => {
    const w = new CodeWriter();
    w.value(
      "export const X = ",
      Array.from({ length: 40 }, (_, i) => 1000 + i),
      ";",
    );
    expect(w.exact).toBe(false);
  });

  it.each([
    ["parameters that fit", "export interface I {", "f(", ["a: string", "b?: number"], "): void;"],
    [
      "parameters that do not",
      "export interface I {",
      "someRatherLongMethodName(",
      ["params: CallParams<T.SomeLongRequestParams>", "options?: CallOptions"],
      "): Promise<T.SomeLongResult>;",
    ],
    [
      "a function type that does not",
      "export interface I {",
      '"tools/call"?: (',
      ["params: T.CallToolRequestParams", "ctx: RequestContext"],
      ") => Promisable<HandlerResult<T.CallToolResult>>;",
    ],
    [
      "arguments before a cast",
      "function f() {",
      "return createRouter(",
      [
        "PROTOCOL",
        "MESSAGE_VALIDATORS",
        '"client->server"',
        "handlers as Handlers",
        "options as RouterOptions",
      ],
      ") as unknown as Dispatcher;",
    ],
  ])("a list: %s", async (_, around, open, items, close) => {
    const r = await both(
      (w) => w.block(around, () => w.list(open, items, close)),
      `${around}\n${open}${items.join(", ")}${close}\n}\n`,
    );
    expect(r.printed).toBe(r.prettier);
  });

  it("imports and exports break one name a line past the width", async () => {
    const names = Array.from({ length: 6 }, (_, i) => `SomeExportedName${i}`);
    const r = await both(
      (w) => {
        names.forEach((n) => w.import("./a-module-with-a-long-name.js", n));
        w.import("./a-module-with-a-long-name.js", "AType", true);
        w.list("export {", names, '} from "./another-module.js";', true);
      },
      `import { ${names.join(", ")}, type AType } from "./a-module-with-a-long-name.js";\n\nexport { ${names.join(", ")} } from "./another-module.js";\n`,
    );
    expect(r.printed).toBe(r.prettier);
  });

  it.each([3, 5, 12])("a union type alias of %i members", async (n) => {
    const members = Array.from({ length: n }, (_, i) => word(i));
    const r = await both(
      (w) => w.union("export type ClientRequestMethod =", members),
      `export type ClientRequestMethod = ${members.join(" | ")};\n`,
    );
    expect(r.printed).toBe(r.prettier);
  });

  it("empty blocks close on their line: {} and []", async () => {
    const r = await both((w) => {
      w.block("export interface Empty {", () => {});
      w.block("export const E = {", () => {}, "} as const;");
    }, "export interface Empty {\n}\nexport const E = {\n} as const;\n");
    expect(r.printed).toBe(r.prettier);
  });

  it("a code line wider than the width, or with non-ASCII text, makes the file inexact; a comment does not", () => {
    const comment = new CodeWriter().line(`// ${"x".repeat(120)}`).doc("é");
    expect(comment.exact).toBe(true);
    expect(new CodeWriter().line(`const x = "${"x".repeat(100)}";`).exact).toBe(false);
    expect(new CodeWriter().line('const x = "é";').exact).toBe(false);
  });
});

describe("CodeWriter.statements breaks what the emitter says may break, as prettier does", () => {
  const long = "aVeryLongNameThatTakesUpMostOfTheLine".repeat(2);
  const cases: [string, Statement[]][] = [
    ["a call that fits", [call("$fail", ["e", '"/x"', '"no"'])]],
    ["a call too long: one argument a line", [call("$fail", ["e", `"/${long}"`, `"${long}"`])]],
    [
      "an array argument still too long: one element a line",
      [call("$anyOf", ["e", '""', "v", "d", [`$va_${long}`, `$va_${long}2`], '"a | b"'])],
    ],
    [
      "a function head too long: one parameter a line, the body indented",
      [
        { head: `function $is_${long}`, args: ["v: any", "d: number"], tail: ": boolean {" },
        "return true;",
        "}",
      ],
    ],
    [
      "an if too long: its statement on the next line",
      [{ if: `!$is_${long}(v, d)`, then: "return false;" }],
    ],
    [
      "an if whose statement is itself too long",
      [
        {
          if: `v !== undefined`,
          then: call(`return $is_${long}`, ["v", `d + ${long.length}`, "e", long]),
        },
      ],
    ],
    [
      "a statement under a case, one level deeper",
      ["switch (v) {", "case 1:", { deeper: call(`return $is_${long}`, ["v", long]) }, "}"],
    ],
  ];
  it.each(cases)("%s", async (_, statements) => {
    const w = new CodeWriter().statements(statements);
    const printed = `${w.text()}\n`;
    expect(await format(printed)).toBe(printed);
  });
});

describe("every generated file skips prettier, and prettier would leave it unchanged", () => {
  const sets = [
    ...SPEC_REVISIONS.map((r) => [r]),
    ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
  ];
  it.each(sets.map((s) => [s.join(" + "), s] as const))("%s", async (_, names) => {
    const { loaded, legacy } = loadEras(SPEC_DIR, names);
    // With the auth modules: auth.ts is one of the files.
    const ctx = {
      loaded,
      header: headerFor(loaded),
      legacy,
      headerFor,
      auth: true,
      runtime: runtimeImports("vendor"),
    };
    const files = GENERATORS.flatMap((g) => g.emit(ctx)).filter(
      (f) => !f.path.startsWith("runtime/"),
    );
    expect(files.filter((f) => !f.preformatted).map((f) => f.path)).toEqual([]);
    // types.ts and validators.ts (the big ones) have their own such tests.
    for (const f of files.filter((x) => !/(^|\/)(types|validators)\.ts$/.test(x.path))) {
      // schema.json (the json-schema generator) is JSON, formatted as prettier formats .json.
      const parser = f.path.endsWith(".json") ? "json" : "babel-ts";
      expect(await prettier.format(f.code, { parser, printWidth: 100 }), f.path).toBe(f.code);
    }
  });
});
