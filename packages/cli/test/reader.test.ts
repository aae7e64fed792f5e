import { describe, expect, it } from "vitest";
import { readSchemaText } from "../src/schema/reader.js";
import { McpGenError } from "../src/schema/diagnostics.js";
import {
  validationTags,
  type Declaration,
  type InterfaceDeclaration,
  type TypeExpr,
} from "../src/schema/model.js";
import { Resolver } from "../src/schema/resolve.js";

const read = (text: string) => readSchemaText("fixture.ts", text);

function decl(text: string, name: string): Declaration {
  const d = read(text).byName.get(name);
  if (!d) throw new Error(`no declaration ${name}`);
  return d;
}

function aliasType(text: string, name: string): TypeExpr {
  const d = decl(text, name);
  if (d.kind !== "alias") throw new Error(`${name} is a ${d.kind}`);
  return d.type;
}

/** A TypeExpr without locations, for compact assertions. */
function shape(t: TypeExpr): unknown {
  switch (t.kind) {
    case "keyword":
      return t.name;
    case "literal":
      return { literal: t.value };
    case "typeof":
      return { typeof: t.name };
    case "ref":
      return { ref: t.name };
    case "array":
      return { array: shape(t.element) };
    case "union":
      return { union: t.members.map(shape) };
    case "intersection":
      return { intersection: t.members.map(shape) };
    case "omit":
      return { omit: shape(t.base), keys: t.keys };
    case "record":
      return { record: [shape(t.key), shape(t.value)] };
    case "object":
      return {
        object: t.members.properties.map((p) => [p.name, p.optional, shape(p.type)]),
        ...(t.members.indexSignature ? { index: shape(t.members.indexSignature.type) } : {}),
      };
  }
}

function expectError(text: string, code: string, message: RegExp): McpGenError {
  try {
    read(text);
  } catch (error) {
    expect(error).toBeInstanceOf(McpGenError);
    const e = error as McpGenError;
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    return e;
  }
  throw new Error("expected the reader to fail");
}

describe("reader: one construct at a time", () => {
  it("interfaces with several extends", () => {
    const text = `interface A { a: string } interface B { b?: number } export interface C extends A, B { c: boolean }`;
    const c = decl(text, "C") as InterfaceDeclaration;
    expect(c.kind).toBe("interface");
    expect(c.exported).toBe(true);
    expect(c.extends.map(shape)).toEqual([{ ref: "A" }, { ref: "B" }]);
    const flat = new Resolver(read(text)).object({ kind: "ref", name: "C", loc: c.loc })!;
    expect([...flat.properties.keys()]).toEqual(["a", "b", "c"]);
    expect(flat.properties.get("b")?.optional).toBe(true);
  });

  it("ancestors: through plain extends and aliases, and through Omit unless told not to", () => {
    const text = `export interface E { code: number } export interface M extends E { m: string }
      export interface W extends Omit<M, "code"> { w: string } export type A = W;`;
    const r = new Resolver(read(text));
    expect([...r.ancestors("W")].sort()).toEqual(["E", "M"]);
    expect([...r.ancestors("A")].sort()).toEqual(["E", "M", "W"]);
    expect([...r.ancestors("W", { throughOmit: false })]).toEqual([]);
    expect([...r.ancestors("A", { throughOmit: false })]).toEqual(["W"]);
  });

  it("Omit in extends and in type position", () => {
    const text = `export interface E { code: number; message: string }
      export interface R extends Omit<E, "code" | "message"> { extra: string }
      export type O = Omit<E, "code">;`;
    const r = decl(text, "R") as InterfaceDeclaration;
    expect(shape(r.extends[0]!)).toEqual({ omit: { ref: "E" }, keys: ["code", "message"] });
    expect(shape(aliasType(text, "O"))).toEqual({ omit: { ref: "E" }, keys: ["code"] });
    const resolver = new Resolver(read(text));
    expect([...resolver.object({ kind: "ref", name: "R", loc: r.loc })!.properties.keys()]).toEqual(
      ["extra"],
    );
  });

  it("Record<string, unknown>", () => {
    expect(shape(aliasType(`export type M = Record<string, unknown>;`, "M"))).toEqual({
      record: ["string", "unknown"],
    });
  });

  it("index signatures", () => {
    const d = decl(
      `export interface Map { fixed: string; [key: string]: unknown }`,
      "Map",
    ) as InterfaceDeclaration;
    expect(d.members.indexSignature?.keyName).toBe("key");
    expect(d.members.indexSignature?.keyType).toBe("string");
    expect(shape(d.members.indexSignature!.type)).toBe("unknown");
  });

  it("intersections", () => {
    const text = `export interface E { code: number } export const X = -1; export type T = E & { code: typeof X };`;
    expect(shape(aliasType(text, "T"))).toEqual({
      intersection: [{ ref: "E" }, { object: [["code", false, { typeof: "X" }]] }],
    });
  });

  it("unions of interfaces, and literal unions widened with string", () => {
    const text = `export interface A { k: "a" } export interface B { k: "b" }
      export type U = A | B; export type R = "complete" | "input_required" | string;`;
    expect(shape(aliasType(text, "U"))).toEqual({ union: [{ ref: "A" }, { ref: "B" }] });
    expect(shape(aliasType(text, "R"))).toEqual({
      union: [{ literal: "complete" }, { literal: "input_required" }, "string"],
    });
  });

  it("string, number, negative and boolean literals", () => {
    const text = `export type L = "s" | 1 | -32700 | true | false | null;`;
    expect(shape(aliasType(text, "L"))).toEqual({
      union: [
        { literal: "s" },
        { literal: 1 },
        { literal: -32700 },
        { literal: true },
        { literal: false },
        "null",
      ],
    });
  });

  it("typeof CONST and exported consts", () => {
    const text = `export const V = "2.0"; export const CODE = -32601; export const FLAG = true; export interface M { v: typeof V }`;
    const model = read(text);
    expect(model.byName.get("V")).toMatchObject({ kind: "const", value: "2.0" });
    expect(model.byName.get("CODE")).toMatchObject({ kind: "const", value: -32601 });
    expect(model.byName.get("FLAG")).toMatchObject({ kind: "const", value: true });
    const m = model.byName.get("M") as InterfaceDeclaration;
    expect(shape(m.members.properties[0]!.type)).toEqual({ typeof: "V" });
  });

  it("arrays, both spellings, with union elements", () => {
    const text = `export type A = (string | number)[]; export type B = Array<string>;`;
    expect(shape(aliasType(text, "A"))).toEqual({ array: { union: ["string", "number"] } });
    expect(shape(aliasType(text, "B"))).toEqual({ array: "string" });
  });

  it("recursive aliases", () => {
    const text = `export type J = string | number | boolean | null | JO | JA;
      export type JO = { [key: string]: J }; export type JA = J[];`;
    expect(shape(aliasType(text, "JA"))).toEqual({ array: { ref: "J" } });
    expect(shape(aliasType(text, "JO"))).toEqual({ object: [], index: { ref: "J" } });
  });

  it("{}, unknown and any", () => {
    const text = `export interface C { roots?: {}; data?: unknown; params?: { [key: string]: any } }`;
    const c = decl(text, "C") as InterfaceDeclaration;
    expect(c.members.properties.map((p) => shape(p.type))).toEqual([
      { object: [] },
      "unknown",
      { object: [], index: "any" },
    ]);
  });

  it("quoted property names", () => {
    const c = decl(
      `export interface M { "io.modelcontextprotocol/protocolVersion": string }`,
      "M",
    ) as InterfaceDeclaration;
    expect(c.members.properties[0]?.name).toBe("io.modelcontextprotocol/protocolVersion");
  });

  it("JSDoc text, @deprecated, @internal and validation tags", () => {
    const text = `/**
 * A thing.
 *
 * Second paragraph.
 * @deprecated Use Other.
 * @internal
 */
export interface T {
  /**
   * Temperature.
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  t?: number;
  /** @format uri */
  uri: string;
  /** @nullable */
  ttl: number | null;
  /** @maxItems 100 */
  values: string[];
}`;
    const t = decl(text, "T") as InterfaceDeclaration;
    expect(t.doc.text).toBe("A thing.\n\nSecond paragraph.");
    expect(t.doc.tags).toEqual([
      { name: "deprecated", text: "Use Other." },
      { name: "internal", text: "" },
    ]);
    const [temp, uri, ttl, values] = t.members.properties;
    expect(temp!.doc.text).toBe("Temperature.");
    expect(validationTags(temp!.doc)).toEqual({ type: "number", minimum: "0", maximum: "1" });
    expect(validationTags(uri!.doc)).toEqual({ format: "uri" });
    expect(validationTags(ttl!.doc)).toEqual({ nullable: "" });
    expect(validationTags(values!.doc)).toEqual({ maxItems: "100" });
  });

  it("keeps source locations", () => {
    const model = read(`\n\nexport interface A {\n  x: string;\n}`);
    const a = model.byName.get("A") as InterfaceDeclaration;
    expect(a.loc).toEqual({ file: "fixture.ts", line: 3, column: 18 });
    expect(a.members.properties[0]!.loc).toEqual({ file: "fixture.ts", line: 4, column: 3 });
  });

  it("hashes the source text", () => {
    expect(read("export type A = string;").sha256).toMatch(/^[0-9a-f]{12}$/);
    expect(read("export type A = string;").sha256).not.toBe(read("export type A = number;").sha256);
  });
});

describe("reader: bad input names file:line:col and the problem", () => {
  it("syntax errors", () => {
    const e = expectError(
      `export interface A {\n  x: string\n  y: = 3;\n}`,
      "syntax-error",
      /^fixture\.ts:3:\d+: syntax error: /,
    );
    expect(e.loc?.line).toBe(3);
  });

  it.each([
    ["a tuple", "export type T = [string, number];", /tuple type/],
    ["a mapped type", "export type T = { [K in 'a']: string };", /mapped type/],
    ["a conditional type", "export type T = string extends number ? 1 : 2;", /conditional type/],
    ["keyof", "export interface A { a: string } export type K = keyof A;", /type operator/],
    ["a generic interface", "export interface Box<T> { value: T }", /generic interface/],
    [
      "an unknown generic",
      "export interface A { a: string } export type P = Partial<A>;",
      /generic type 'Partial<\.\.\.>'/,
    ],
    ["an enum", "export enum E { A }", /statement of kind EnumDeclaration/],
    ["a method signature", "export interface A { f(): void }", /MethodSignature member/],
    ["a template literal type", "export type T = `a${string}`;", /template literal type/],
    ["a non-literal const", "export const X = 1 + 2;", /const whose value is not/],
  ])("%s", (_what, text, message) => {
    const e = expectError(text, "unsupported-construct", message);
    expect(e.message).toMatch(/^fixture\.ts:1:\d+: unsupported construct: /);
  });

  it("a schema tsc rejects fails with tsc's location and message", () => {
    expectError(
      `export interface A {\n  b: Missing;\n}`,
      "type-error",
      /^fixture\.ts:2:6: error TS2304: Cannot find name 'Missing'\.$/,
    );
    expectError(
      `export type A = string;\nexport type B = A | B;`,
      "type-error",
      /^fixture\.ts:2:13: error TS2456: Type alias 'B' circularly references itself\.$/,
    );
    expectError(
      `export type A = string;\ntype await = string;`,
      "type-error",
      /^fixture\.ts:2:6: error TS1262: Identifier expected\. 'await' is a reserved word at the top-level of a module\.$/,
    );
    expectError(
      `export const K = 1;\nexport interface A { k: K }`,
      "type-error",
      /^fixture\.ts:2:25: error TS2749: 'K' refers to a value, but is being used as a type here\./,
    );
    expectError(
      `export interface A { v: typeof B }\nexport type B = string;`,
      "type-error",
      /^fixture\.ts:1:32: error TS2693: 'B' only refers to a type/,
    );
    expectError(
      `export interface A { a: string }\nexport interface B extends A { a: number }`,
      "type-error",
      /^fixture\.ts:2:18: error TS2430: Interface 'B' incorrectly extends interface 'A'\./,
    );
  });

  it("an unsupported lib generic is named as unsupported before tsc sees it", () => {
    expectError(
      "export interface A { a: string }\nexport type P = Partial<A>;",
      "unsupported-construct",
      /^fixture\.ts:2:17: unsupported construct: generic type 'Partial<\.\.\.>'/,
    );
  });
});

describe("reader: interface re-declarations merge as in TypeScript", () => {
  it("an identical re-declaration is the same interface", () => {
    const model = read(
      `/** An A. */\nexport interface A { a: string }\nexport interface A { a: string }`,
    );
    expect(model.declarations.map((d) => d.name)).toEqual(["A"]);
    const a = model.byName.get("A") as InterfaceDeclaration;
    expect(a.members.properties.map((p) => [p.name, shape(p.type)])).toEqual([["a", "string"]]);
    expect(a.doc.text.trim()).toBe("An A.");
    expect(a.loc.line).toBe(2);
  });

  it("compatible re-declarations add members and bases, in declaration order", () => {
    const model = read(
      [
        "export interface Base { b?: number }",
        "export interface A { a: string | number }",
        "export type Between = A;",
        "/** Later docs. */",
        "export interface A extends Base { a: number | string; c: boolean; [key: string]: unknown }",
      ].join("\n"),
    );
    expect(model.declarations.map((d) => d.name)).toEqual(["Base", "A", "Between"]);
    const a = model.byName.get("A") as InterfaceDeclaration;
    expect(a.members.properties.map((p) => p.name)).toEqual(["a", "c"]);
    expect(a.extends.map(shape)).toEqual([{ ref: "Base" }]);
    expect(a.members.indexSignature?.keyType).toBe("string");
    expect(a.doc.text.trim()).toBe("Later docs.");
    expect(new Resolver(model).objectOf("A")?.properties.has("b")).toBe(true);
  });

  it("a property of another type, or optionality, is tsc's located error", () => {
    expectError(
      `export interface A { a: string }\nexport interface A { a: number }`,
      "type-error",
      /^fixture\.ts:2:22: error TS2717: Subsequent property declarations must have the same type\. Property 'a' must be of type 'string', but here has type 'number'\.$/,
    );
    expectError(
      `export interface A { a: string }\nexport interface A { a?: string }`,
      "type-error",
      /^fixture\.ts:1:22: error TS2687: All declarations of 'a' must have identical modifiers\.$/,
    );
  });

  it("re-declarations that are not two interfaces are located errors", () => {
    expectError(
      `export type A = string;\nexport type A = number;`,
      "type-error",
      /^fixture\.ts:1:13: error TS2300: Duplicate identifier 'A'\.$/,
    );
    expectError(
      `export interface A { a: string }\nexport const A = 1;`,
      "unsupported-construct",
      /^fixture\.ts:2:14: declaration merging: 'A' is declared again as a const \(first as an interface at line 1\); only interfaces merge$/,
    );
  });
});

describe("validation tags", () => {
  it("a validating tag the compiled validators do not implement is an error, not ignored", async () => {
    const { buildValidationSchemas } = await import("../src/schema/validation.js");
    const model = readSchemaText(
      "fixture.ts",
      "export interface A {\n  /** @minProperties 1 */\n  m: { [key: string]: string };\n}",
    );
    expect(() => buildValidationSchemas(model)).toThrow(
      /^fixture\.ts:3:6: unsupported construct: validation tag @minProperties$/,
    );
    const annotated = readSchemaText(
      "fixture.ts",
      "export interface A {\n  /** @default 3 */\n  n?: number;\n}",
    );
    expect(buildValidationSchemas(annotated).get("A")).toMatchObject({ kind: "object" });
  });
});

describe("text beyond Latin-1 in the schema", () => {
  // The reader copies names and literals into one-byte strings when they fit (memory);
  // text with other characters must come through unchanged.
  it("keeps names, literals and docs exactly as written", () => {
    const text = [
      "/**",
      " * Café — “quoted” 😀",
      " */",
      'export const CAFÉ = "café €uro 😀";',
      "export interface Ünïcode {",
      "  /**",
      "   * naïve — doc",
      "   */",
      '  "clé €": "é" | "€" | "\\u{1F600}";',
      "  plain: typeof CAFÉ;",
      "}",
    ].join("\n");
    const model = read(text);
    const konst = model.byName.get("CAFÉ");
    expect(konst?.kind === "const" && konst.value).toBe("café €uro 😀");
    expect(konst?.doc.text).toBe("Café — “quoted” 😀");
    const i = model.byName.get("Ünïcode") as InterfaceDeclaration;
    expect(i.members.properties.map((p) => p.name)).toEqual(["clé €", "plain"]);
    expect(i.members.properties[0]?.doc.text).toBe("naïve — doc");
    expect(shape(i.members.properties[0]!.type)).toEqual({
      union: [{ literal: "é" }, { literal: "€" }, { literal: "😀" }],
    });
    expect(shape(i.members.properties[1]!.type)).toEqual({ typeof: "CAFÉ" });
  });
});
