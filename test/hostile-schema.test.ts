import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { beforeAll, describe, expect, it } from "vitest";
import ts from "typescript";
import { generate, headerFor, type OutputFile } from "../generators/index.js";
import { typesGenerator } from "../generators/types.js";
import { McpGenError } from "../schema/diagnostics.js";
import { loadRevision } from "../schema/index.js";
import { MAX_NESTING } from "../schema/nesting.js";
import { readSchemaText } from "../schema/reader.js";
import {
  cli,
  fakeSpec,
  readFixture,
  tempDir,
  typecheck,
  writeFiles,
  writeGenerated,
} from "./helpers.js";

// Schema text written by whoever wrote a draft reaches types.ts and methods.ts as method
// names, literal types, property names, type names, constants and docs. Each payload below
// tries to end the string or comment around it and run `globalThis.__pwned = 1` at import.
// Output must compile under the strict flags and run nothing, or generation must fail with
// one located line and write nothing.

const RUN = "globalThis.__pwned = 1;";
const PAYLOADS = [
  `*/ ${RUN} /*`,
  `/* ${RUN}`,
  `\u2028${RUN} //`,
  `\u2029${RUN} //`,
  "`${" + RUN + "}`",
  `"; ${RUN} "`,
  `'; ${RUN} '`,
  `it's "quoted" '' "`,
  `\\"; ${RUN} //`,
  `\n${RUN}\n`,
  `\r${RUN}\r\n//`,
  "\\u0022 \\x22 \\ end\\",
];
// Docs cannot hold `*/` in schema.ts (it would end them there); everything else can.
const DOC_PAYLOADS = PAYLOADS.map((p) => p.replaceAll("*/", "*\\/").replaceAll("\r", ""));

/** A string literal for schema.ts (TypeScript reads JSON escapes). */
const lit = (s: string) => JSON.stringify(s);

/** The mini fixture plus, per payload, a request, a notification, literals, keys, constants and docs. */
function hostileSchema(): string {
  let schema = readFixture("mini-schema.ts");
  const requests: string[] = [];
  const notifications: string[] = [];
  const extra: string[] = [];
  PAYLOADS.forEach((p, i) => {
    const doc = DOC_PAYLOADS[i]!;
    requests.push(`Hostile${i}Request`);
    notifications.push(`Hostile${i}Notification`);
    extra.push(
      `/** ${doc}\n * @deprecated ${doc} */`,
      `export interface Hostile${i}Request extends JSONRPCRequest {\n  /** ${doc} */\n  method: ${lit(p)};\n  params?: RequestParams;\n}`,
      `export interface Hostile${i}Notification extends JSONRPCNotification {\n  method: ${lit(`notifications/${p}`)};\n}`,
      `/** ${doc} */`,
      `export interface Hostile${i}Shape {\n  /** ${doc} */\n  ${lit(p)}?: ${lit(p)};\n  ${lit(`k${i}${p}`)}: { ${lit(p)}: ${lit(p)} | "other" }[];\n}`,
      `export type Hostile${i}Literal = ${lit(p)} | ${lit(`${p}${p}`)};`,
      `export interface Hostile${i}Omit extends Omit<Hostile${i}Shape, ${lit(p)}> {}`,
      `export const HOSTILE_${i} = ${lit(p)};`,
    );
  });
  schema = schema
    .replace(
      "export type ClientRequest = PingRequest | CallToolRequest;",
      `export type ClientRequest = PingRequest | CallToolRequest | ${requests.join(" | ")};`,
    )
    .replace(
      "export type ClientNotification = CancelledNotification;",
      `export type ClientNotification = CancelledNotification | ${notifications.join(" | ")};`,
    );
  return `${schema}\n${extra.join("\n\n")}\n`;
}

describe("hostile text in a schema that generates", () => {
  let files: OutputFile[];
  beforeAll(async () => {
    const spec = fakeSpec(hostileSchema());
    files = await generate(loadRevision(spec, "2030-01-01"), ["types", "methods"]);
  });

  it("compiles under --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes", () => {
    const dir = tempDir();
    writeFiles(dir, files);
    expect(typecheck(files.map((f) => join(dir, f.path)))).toEqual([]);
  });

  it("runs nothing at import, and every string comes back exactly as the schema wrote it", async () => {
    const dir = writeGenerated(files);
    const types = (await import(join(dir, "types.js"))) as Record<string, unknown>;
    const methods = (await import(join(dir, "methods.js"))) as {
      METHODS: Record<string, { type: string }>;
    };
    await import(join(dir, "index.js"));
    expect((globalThis as Record<string, unknown>)["__pwned"]).toBeUndefined();
    PAYLOADS.forEach((p, i) => {
      expect(types[`HOSTILE_${i}`]).toBe(p);
      expect(methods.METHODS[p]?.type).toBe(`Hostile${i}Request`);
      expect(methods.METHODS[`notifications/${p}`]?.type).toBe(`Hostile${i}Notification`);
    });
  });

  it("keeps payloads inside strings and comments: no payload token is code", () => {
    for (const f of files.filter((f) => f.path === "types.ts" || f.path === "methods.ts")) {
      expect(f.content).not.toMatch(/[\u2028\u2029\r]/);
      const scanner = ts.createScanner(
        ts.ScriptTarget.ES2022,
        true,
        ts.LanguageVariant.Standard,
        f.content,
      );
      const identifiers = new Set<string>();
      for (
        let token = scanner.scan();
        token !== ts.SyntaxKind.EndOfFileToken;
        token = scanner.scan()
      ) {
        if (token === ts.SyntaxKind.Identifier) identifiers.add(scanner.getTokenText());
      }
      expect(identifiers.has("globalThis")).toBe(false);
      expect(identifiers.has("__pwned")).toBe(false);
    }
  });

  it("types.ts is printed already laid out, exactly as prettier would lay it out", async () => {
    const spec = fakeSpec(hostileSchema());
    const loaded = loadRevision(spec, "2030-01-01");
    const [emitted] = typesGenerator.emit({
      loaded,
      header: headerFor(loaded),
      legacy: [],
      auth: false,
      headerFor,
    });
    expect(emitted!.preformatted).toBe(true);
    expect(await prettier.format(emitted!.code, { parser: "babel-ts", printWidth: 100 })).toBe(
      emitted!.code,
    );
  });
});

/** Generates a schema expected to fail; returns the one error line. */
async function failure(schemaTs: string, generators?: string[]): Promise<string> {
  const spec = fakeSpec(schemaTs);
  try {
    await generate(loadRevision(spec, "2030-01-01"), generators);
  } catch (e) {
    expect(e).toBeInstanceOf(McpGenError);
    const message = (e as Error).message;
    expect(message.split(/[\n\r\u2028\u2029]/)).toHaveLength(1);
    return message;
  }
  throw new Error("generation succeeded");
}

const base = readFixture("mini-schema.ts");
const LOCATED = /^\S*schema\.ts:\d+:\d+: /;

describe("schema text that cannot be made safe is one located error line", () => {
  it.each([
    "await",
    "yield",
    "let",
    "static",
    "implements",
    "arguments",
    "eval",
    "undefined",
    "string",
    "unknown",
  ])("a type named %s", async (name) => {
    const message = await failure(`${base}\nexport type ${name} = string;\n`, ["types"]);
    expect(message).toMatch(LOCATED);
    expect(message).toMatch(new RegExp(`(type name '${name}' is a reserved word|${name})`));
  });

  it("an interface named with a reserved word", async () => {
    expect(await failure(`${base}\nexport interface package { a: string }\n`, ["types"])).toMatch(
      /schema\.ts:\d+:\d+: .*'package' is a reserved word/,
    );
  });

  it("a type name that is not an identifier in generated code", async () => {
    const message = await failure(`${base}\nexport interface Café { a: string }\n`, ["types"]);
    expect(message).toMatch(/schema\.ts:\d+:\d+: type name 'Café' is not an identifier/);
  });

  it.each([
    ["x/2fa", "2faX", "is not an identifier"],
    ["x/close", "closeX", undefined],
    ["close", "close", "is a member every client already has"],
    ["request", "request", "is a member every client already has"],
    ["tools/listPages", "listPages", "ends in 'Pages'"],
    ["x/notifyAll", "notifyAll", "starts with 'notify'"],
    ["a/b*/c", "cAB*", "is not an identifier"],
    ["x/\u2028", "\u2028X", "is not an identifier"],
  ])("a method %j as a client function", async (method, name, problem) => {
    const schema = base
      .replace(
        "export type ClientRequest = PingRequest | CallToolRequest;",
        "export type ClientRequest = PingRequest | CallToolRequest | OddRequest;",
      )
      .concat(
        `\nexport interface OddRequest extends JSONRPCRequest {\n  method: ${lit(method)};\n}\n`,
      );
    if (problem === undefined) {
      // A name that is fine generates (control for the cases below).
      const files = await generate(loadRevision(fakeSpec(schema), "2030-01-01"));
      expect(files.find((f) => f.path === "client.ts")!.content).toContain(`${name}(`);
      return;
    }
    const message = await failure(schema);
    expect(message).toContain(
      `method ${JSON.stringify(method).replace("\u2028", "\\u2028")} would be the client function`,
    );
    expect(message).toContain(problem);
  });
});

describe("from the command line", () => {
  it("a reserved type name and a non-identifier client name: exit 1, one line, nothing written", () => {
    for (const schema of [
      `${base}\nexport type await = string;\n`,
      base.replace('method: "tools/call"', 'method: "tools/2fa"'),
    ]) {
      const spec = fakeSpec(schema);
      const out = join(tempDir(), "out");
      const r = cli(["generate", "--spec", spec, "--revision", "2030-01-01", "--out", out]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(/internal error| {4}at /);
      expect(existsSync(out)).toBe(false);
      expect(readFileSync(join(spec, "schema", "2030-01-01", "schema.ts"), "utf8")).toBe(schema);
    }
  });
});

describe("nesting past the limit is one located line, never a stack overflow", () => {
  // Shapes of nesting `depth` levels deep inside `export interface Deep { x: ... }`.
  const SHAPES: Record<string, (inner: string, i: number) => string> = {
    "object type literals": (t) => `{ a: ${t}; b?: number }`,
    "arrays (T[])": (t) => `${t}[]`,
    "Array<T>": (t) => `Array<${t}>`,
    "parenthesised unions": (t, i) => `(${t}) | { k${i}: number }`,
  };
  const deep = (shape: string, depth: number) => {
    let type = "string";
    for (let i = 0; i < depth; i++) type = SHAPES[shape]!(type, i);
    return `export interface Deep {\n  x: ${type};\n}\n`;
  };
  const read = (source: string) => () => readSchemaText("fixture.ts", source);
  const TOO_DEEP = new RegExp(
    `^fixture\\.ts:2:\\d+: unsupported construct: types nested more than ${MAX_NESTING} levels deep \\(mcp-gen's limit\\)$`,
  );

  it.each(
    Object.keys(SHAPES).flatMap((shape) => [1_000, 10_000].map((depth) => [shape, depth] as const)),
  )("%s, %i deep", (shape, depth) => {
    expect(read(deep(shape, depth))).toThrow(TOO_DEEP);
  });

  it(`the limit: ${MAX_NESTING} levels read, one more does not`, () => {
    expect(read(deep("object type literals", MAX_NESTING))).not.toThrow();
    expect(read(deep("arrays (T[])", MAX_NESTING))).not.toThrow();
    expect(read(deep("object type literals", MAX_NESTING + 1))).toThrow(TOO_DEEP);
    expect(read(deep("arrays (T[])", MAX_NESTING + 1))).toThrow(TOO_DEEP);
  });

  it("from the command line: 10,000 deep, and a chain of 10,000 aliases: exit 1, one located line, nothing written", () => {
    const chain = Array.from(
      { length: 10_000 },
      (_, i) => `export type A${i} = ${i < 9_999 ? `A${i + 1}` : "string"};`,
    ).join("\n");
    for (const extra of [
      deep("object type literals", 10_000),
      `export interface Chained {\n  x: A0;\n}\n${chain}\n`,
    ]) {
      const spec = fakeSpec(`${base}\n${extra}`);
      const out = join(tempDir(), "out");
      const r = cli(["generate", "--spec", spec, "--revision", "2030-01-01", "--out", out]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^mcp-gen: \S+schema\.ts:\d+:\d+: unsupported construct: /);
      expect(existsSync(out)).toBe(false);
    }
  });
});
