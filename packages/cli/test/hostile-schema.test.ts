import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { beforeAll, describe, expect, it } from "vitest";
import { runtimeImports } from "../src/generators/emit/runtime.js";
import ts from "typescript";
import { generate, headerFor, type OutputFile } from "../src/generators/emit/index.js";
import { typesGenerator } from "../src/generators/emit/types.js";
import { McpGenError } from "../src/schema/diagnostics.js";
import { loadRevision } from "../src/schema/index.js";
import { MAX_NESTING } from "../src/schema/nesting.js";
import { readSchemaText } from "../src/schema/reader.js";
import {
  cli,
  fakeSpec,
  readFixture,
  SPEC_DIR,
  tempDir,
  typecheck,
  writeFiles,
  writeGenerated,
} from "./helpers.js";
import { itCompiles } from "./support/compile.js";
import { hostileDeclarations, hostileSchema, lit, PAYLOADS } from "./support/hostile.js";

// Schema text written by whoever wrote a draft (packages/cli/test/support/hostile.ts) reaches every
// generated file. Output must compile under the strict flags, run nothing at import and keep
// every string as the schema wrote it, or generation must fail with one located line and
// write nothing.

/** The revisions of a spec folder whose 2025-11-25 (initialize-based) carries the payloads. */
function hostileLegacySpec(): string {
  const spec = tempDir("mcp-gen-spec-");
  const copy = (revision: string, edit: (text: string) => string) => {
    const dir = join(spec, "schema", revision);
    mkdirSync(dir, { recursive: true });
    const text = readFileSync(join(SPEC_DIR, "schema", revision, "schema.ts"), "utf8");
    writeFileSync(join(dir, "schema.ts"), edit(text));
  };
  copy("2026-07-28", (text) => text);
  copy("2025-11-25", (text) => {
    const { declarations, requests } = hostileDeclarations(true);
    const union = "export type ClientRequest =";
    expect(text).toContain(union);
    return `${text.replace(union, `${union}\n  | ${requests.join("\n  | ")}`)}\n${declarations}\n`;
  });
  return spec;
}

const SETUPS: [string, () => Promise<OutputFile[]>][] = [
  // A method that is not an identifier cannot name a client function (see below): the client
  // generator meets the payloads as docs, keys and literals, the others as methods too.
  [
    "every generator but the client's, methods hostile",
    () =>
      generate(loadRevision(fakeSpec(hostileSchema()), "2030-01-01"), [
        "types",
        "methods",
        "validators",
        "dispatcher",
      ]),
  ],
  [
    "every generator, methods plain",
    () => generate(loadRevision(fakeSpec(hostileSchema(true)), "2030-01-01")),
  ],
  [
    "a legacy revision beside 2026-07-28 (eras, legacy/, the client's legacy-only calls)",
    async () => {
      const spec = hostileLegacySpec();
      return generate(loadRevision(spec, "2026-07-28"), undefined, {
        legacy: [loadRevision(spec, "2025-11-25")],
      });
    },
  ],
];

describe.each(SETUPS)("hostile text in a schema that generates: %s", (_, run) => {
  let files: OutputFile[];
  beforeAll(async () => {
    files = await run();
  });

  itCompiles(
    "compiles under --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes",
    () => {
      const dir = tempDir();
      writeFiles(dir, files);
      expect(typecheck(files.map((f) => join(dir, f.path)))).toEqual([]);
    },
  );

  it("runs nothing at import, and every string comes back exactly as the schema wrote it", async () => {
    const dir = writeGenerated(files);
    const modules = files.filter((f) => !f.path.startsWith("runtime/") && f.path.endsWith(".ts"));
    for (const f of modules) await import(join(dir, f.path.replace(/\.ts$/, ".js")));
    expect((globalThis as Record<string, unknown>)["__pwned"]).toBeUndefined();
    const legacy = files.some((f) => f.path.startsWith("legacy/"));
    const typesAt = legacy ? "legacy/2025-11-25/types.js" : "types.js";
    const types = (await import(join(dir, typesAt))) as Record<string, unknown>;
    const methodsAt = legacy ? "legacy/2025-11-25/methods.js" : "methods.js";
    const { METHODS } = (await import(join(dir, methodsAt))) as {
      METHODS: Record<string, { type: string }>;
    };
    const hostileMethods = !files.some((f) => f.path === "client.ts");
    PAYLOADS.forEach((p, i) => {
      expect(types[`HOSTILE_${i}`]).toBe(p);
      const method = hostileMethods ? p : `x/hostile${i}`;
      // Own keys: `{ "__proto__": ... }` in a literal would set the prototype instead.
      expect(Object.hasOwn(METHODS, method)).toBe(true);
      expect(METHODS[method]!.type).toBe(`Hostile${i}Request`);
      if (!legacy) {
        const notification = hostileMethods ? `notifications/${p}` : `notifications/hostile${i}`;
        expect(METHODS[notification]?.type).toBe(`Hostile${i}Notification`);
      }
    });
  });

  it("keeps payloads inside strings and comments: no payload token is code", () => {
    // The runtime is the same text for every schema; everything else is printed from it.
    for (const f of files.filter((f) => !f.path.startsWith("runtime/"))) {
      expect(f.content).not.toMatch(/[\u2028\u2029\r]/);
      // Parsed, not scanned: a scanner without the parser's context reads a regex literal
      // as division, and the strings after it inside out.
      const source = ts.createSourceFile(f.path, f.content, ts.ScriptTarget.ES2022);
      const identifiers = new Set<string>();
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node)) identifiers.add(node.text);
        ts.forEachChild(node, visit);
      };
      visit(source);
      expect(identifiers.has("globalThis"), f.path).toBe(false);
      expect(identifiers.has("__pwned"), f.path).toBe(false);
    }
  });
});

describe("types.ts of a hostile schema", () => {
  it("types.ts is printed already laid out, exactly as prettier would lay it out", async () => {
    const spec = fakeSpec(hostileSchema());
    const loaded = loadRevision(spec, "2030-01-01");
    const [emitted] = typesGenerator.emit({
      loaded,
      header: headerFor(loaded),
      legacy: [],
      auth: false,
      headerFor,
      runtime: runtimeImports("package"),
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
    ["odd/it's", "it'sOdd", "is not an identifier"],
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
    // At the method's declaration: the `method` property of OddRequest, the schema's last.
    const line = schema.trimEnd().split("\n").length - 1;
    expect(message).toMatch(new RegExp(`^\\S*schema\\.ts:${line}:3: method `));
  });
});

describe("from the command line", { tags: "process" }, () => {
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
      expect(r.stderr).toMatch(/^mcp-gen: \S+schema\.ts:\d+:\d+: /);
      expect(r.stderr).not.toMatch(/internal error| {4}at /);
      expect(existsSync(out)).toBe(false);
      expect(readFileSync(join(spec, "schema", "2030-01-01", "schema.ts"), "utf8")).toBe(schema);
    }
  });
});

describe("a schema the dispatcher cannot serve", () => {
  it("is refused at JSONRPCMessage's declaration, not at 1:1", () => {
    const union =
      "export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResultResponse | JSONRPCErrorResponse;";
    expect(base).toContain(union);
    const schema = base.replace(union, union.replace(" | JSONRPCErrorResponse", ""));
    const line = schema.slice(0, schema.indexOf("export type JSONRPCMessage")).split("\n").length;
    const out = join(tempDir(), "out");
    const r = cli([
      "generate",
      "--spec",
      fakeSpec(schema),
      "--revision",
      "2030-01-01",
      "--out",
      out,
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^mcp-gen: \\S+schema\\.ts:${line}:\\d+: the dispatcher needs JSONRPCMessage with`,
      ),
    );
    expect(existsSync(out)).toBe(false);
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

  it(
    "from the command line: 10,000 deep, and a chain of 10,000 aliases: exit 1, one located line, nothing written",
    { tags: "process" },
    () => {
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
    },
  );
});
