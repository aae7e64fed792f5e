// `mcp-gen client` on what a server controls: a hostile listing (names that are reserved
// words, not identifiers, `__proto__`, `then`, another script, names that collide; comment
// ends in descriptions and schema keys; the `tsType` keyword some generators paste as code)
// is printed escaped, as code that type-checks; sizes past the caps and bad input are one
// line; `--check` on a saved listing tells what changed without connecting. And the guide's
// example (examples/typed-client) as its reader runs it.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { CLI, ROOT, SPEC_DIR, tempDir, typecheck, writeFiles, writeGenerated } from "./helpers.js";
import { LEGACY } from "./support/dual-era-client.js";
import { printedUntil } from "./support/project-processes.js";
import { runHere } from "./support/run-here.js";
import { transpileDir } from "../../../tooling/transpile-generated.mjs";

/**
 * The client generated for 2026-07-28 alone (the typed file needs only its types: the
 * initialize-based revisions' validators would triple a type-check), and for the example's
 * config, every era.
 */
let clientFiles: OutputFile[];
let dualEraFiles: OutputFile[];
beforeAll(async () => {
  const newest = loadRevision(SPEC_DIR, "2026-07-28");
  clientFiles = await generate(newest, ["client"]);
  dualEraFiles = await generate(newest, ["client"], {
    legacy: LEGACY.map((r) => loadRevision(SPEC_DIR, r)),
  });
}, 120_000);

/** A folder with the generated client in out/ and `listing` as tools.json. */
function project(listing: unknown): string {
  const dir = tempDir("mcp-gen-typed-input-");
  writeFiles(
    dir,
    clientFiles.map((f) => ({ path: `out/${f.path}`, content: f.content })),
  );
  writeFileSync(join(dir, "tools.json"), JSON.stringify(listing));
  return dir;
}

const object = (properties: object = {}, extra: object = {}) => ({
  type: "object",
  properties,
  ...extra,
});
const client = (dir: string, ...more: string[]) =>
  runHere(
    ["client", "--from", "tools.json", "--out", "src/tools.ts", "--client", "out", ...more],
    dir,
  );

const HOSTILE = {
  tools: [
    { name: "delete", inputSchema: object() },
    { name: "a-b", inputSchema: object({ ["__proto__"]: { type: "string" } }) },
    { name: "aB", inputSchema: object({ "*/ export const x = 1; /*": { const: "*/" } }) },
    { name: "a_b", inputSchema: object({}, { additionalProperties: false }) },
    { name: "__proto__", inputSchema: object() },
    { name: "then", inputSchema: object() },
    { name: "constructor", inputSchema: object() },
    { name: "搜索", description: "finds\u2028*/ console.log('pwned') /*", inputSchema: object() },
    {
      name: "inject",
      description: "*/ throw 1; /**",
      inputSchema: object(
        { q: { type: "string", tsType: "string; } console.log('pwned'); interface X {" } },
        { required: ["q"], title: "*/ evil" },
      ),
      outputSchema: object(
        { tree: { $ref: "#/$defs/node" } },
        {
          required: ["tree"],
          $defs: {
            node: object({ kids: { type: "array", items: { $ref: "#/$defs/node" } } }),
          },
        },
      ),
    },
    { name: "remote", inputSchema: object({ r: { $ref: "https://example.com/evil.json" } }) },
  ],
  prompts: [{ name: "the end */", arguments: [{ name: "x-y", required: true }] }],
};

describe("a hostile listing", () => {
  let dir: string;
  let code: string;
  beforeAll(async () => {
    dir = project(HOSTILE);
    const run = await client(dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    code = readFileSync(join(dir, "src", "tools.ts"), "utf8");
  }, 60_000);

  it("gives each tool a safe, distinct function name, and the server's name only as a string", () => {
    const file = ts.createSourceFile("tools.ts", code, ts.ScriptTarget.ES2022);
    const tools = file.statements.find(
      (s): s is ts.InterfaceDeclaration =>
        ts.isInterfaceDeclaration(s) && s.name.text === "ServerTools",
    )!;
    expect(tools.members.map((m) => m.name!.getText(file))).toEqual([
      "__proto___",
      "aB",
      "aB2",
      "a_b",
      "constructor_",
      "delete",
      "inject",
      "remote",
      "then_",
      "tool",
    ]);
    expect(code).toContain(
      'tool: (args, callOptions) => call("搜索", args, undefined, callOptions),',
    );
  });

  it("holds no statement the server wrote: declarations only, every text escaped", () => {
    const file = ts.createSourceFile("tools.ts", code, ts.ScriptTarget.ES2022);
    for (const s of file.statements) {
      const allowed =
        ts.isImportDeclaration(s) ||
        ts.isInterfaceDeclaration(s) ||
        ts.isTypeAliasDeclaration(s) ||
        ts.isClassDeclaration(s) ||
        ts.isFunctionDeclaration(s) ||
        (ts.isVariableStatement(s) &&
          s.declarationList.declarations.every((d) => /OutputSchema$/.test(d.name.getText(file))));
      expect(allowed, s.getText(file)).toBe(true);
    }
    // What the server wrote sits in comments (escaped) and strings only.
    expect(code).not.toMatch(/^\s*console\.log/m);
    expect(code).toContain("*\\/ throw 1; /**");
    expect(code).toContain('"*/ export const x = 1; /*"?: "*/";');
    // tsType is not read; the remote $ref is not fetched: unknown.
    expect(code).toMatch(/export interface InjectArguments \{\n {2}q: string;\n\}/);
    expect(code).toMatch(/export interface RemoteArguments \{\n {2}r\?: unknown;\n\}/);
    expect(code).toMatch(/export interface InjectNode \{\n {2}kids\?: InjectNode\[\];\n\}/);
  });

  it("type-checks under the strict flags, and the functions take what the schemas say", () => {
    writeFileSync(
      join(dir, "src", "use.ts"),
      [
        'import type { ServerTools, ServerPrompts } from "./tools.js";',
        "export async function use(tools: ServerTools, prompts: ServerPrompts) {",
        "  await tools.delete();",
        '  const { structuredContent } = await tools.inject({ q: "x" });',
        "  const depth: number | undefined = structuredContent.tree.kids?.[0]?.kids?.length;",
        '  await tools.aB2({ "*/ export const x = 1; /*": "*/" });',
        '  await prompts.theEnd({ "x-y": "1" });',
        "  // @ts-expect-error: a_b takes no properties",
        "  await tools.a_b({ z: 1 });",
        "  return depth;",
        "}",
      ].join("\n"),
    );
    expect(typecheck([join(dir, "src", "use.ts")])).toEqual([]);
  }, 180_000);
});

describe("limits and bad input: one line each", () => {
  const one = async (listing: unknown, ...more: string[]) => {
    const run = await client(project(listing), ...more);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    return { status: run.status, line: run.stderr.trimEnd() };
  };

  it("refuses more tools than it reads, schemas nested too deep, and names listed twice", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ name: `t${i}`, inputSchema: object() }));
    expect(await one({ tools: many })).toEqual({
      status: 1,
      line: "mcp-gen: tools.json: lists 1001 tools; mcp-gen reads at most 1000",
    });
    let deep: object = { type: "string" };
    for (let i = 0; i < 40; i++) deep = object({ x: deep });
    expect(await one({ tools: [{ name: "deep", inputSchema: deep }] })).toEqual({
      status: 1,
      line: 'mcp-gen: tool "deep" nests deeper than 32 levels; mcp-gen reads no deeper',
    });
    const twice = { name: "x", inputSchema: object() };
    expect((await one({ tools: [twice, twice] })).line).toBe(
      'mcp-gen: tools.json: two tools are named "x"',
    );
  });

  it("says what is wrong with the source or the flags", async () => {
    expect(await one({ tool: [] })).toEqual({
      status: 1,
      line: "mcp-gen: tools.json: is not a tools/list result (an object with a 'tools' array)",
    });
    expect((await one({ tools: [{ name: "x" }] })).line).toBe(
      'mcp-gen: tools.json: tool "x": has no inputSchema object',
    );
    const dir = project({ tools: [] });
    writeFileSync(join(dir, "tools.json"), "{ not json");
    const notJson = await client(dir);
    expect(notJson.stderr).toMatch(/^mcp-gen: tools\.json is not JSON: .*\n$/);
    expect(notJson.status).toBe(2);
    const missing = await runHere(["client", "--from", "gone.json", "--out", "a.ts"], dir);
    expect(missing.stderr).toBe("mcp-gen: --from gone.json: no such file\n");
    expect(missing.status).toBe(2);
    const piped = await runHere(
      ["client", "--from", "node server.js | tee x", "--out", "a.ts"],
      dir,
    );
    expect(piped.stderr).toMatch(/^mcp-gen: --from 'node server\.js \| tee x' holds shell syntax/);
    expect(piped.status).toBe(2);
    const notTs = await runHere(["client", "--from", "tools.json", "--out", "a.js"], dir);
    expect(notTs.stderr).toBe("mcp-gen: --out is 'a.js'; name a .ts file\n");
    expect(notTs.status).toBe(2);
  });
});

/** Resource templates as a server may list them: every RFC 6570 operator, names that collide. */
const TEMPLATES = {
  tools: [{ name: "x", inputSchema: object() }],
  resourceTemplates: [
    {
      name: "file",
      title: "Files */ here",
      description: "A file by its path",
      mimeType: "text/plain",
      uriTemplate: "file:///{+path}",
    },
    { name: "search", uriTemplate: "search://docs{/segments*}{?q,tags*}" },
    { name: "fixed", uriTemplate: "fixed://one" },
    { name: "x", uriTemplate: "x://{id}{#part}" },
    { name: "X", uriTemplate: "X://{a.b}{;v}" },
    { name: "then", uriTemplate: 'quote://"*/{q}' },
  ],
};

describe("resource templates on a saved listing", () => {
  let dir: string;
  let code: string;
  beforeAll(async () => {
    dir = project(TEMPLATES);
    const run = await client(dir);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "mcp-gen: 1 tool, 0 prompts, 6 resource templates of tools.json -> src/tools.ts (listing in src/tools.listing.json)\n",
    );
    code = readFileSync(join(dir, "src", "tools.ts"), "utf8");
  }, 60_000);

  it("types each variable from how the template uses it, names distinct and safe", () => {
    expect(code).toMatch(/export interface FileVariables \{\n {2}path: string;\n\}/);
    // An exploded variable is a list; a named expression's variables may be left out.
    expect(code).toMatch(
      /export interface SearchVariables \{\n {2}segments: string\[\];\n {2}q\?: string;\n {2}tags\?: string\[\];\n\}/,
    );
    // "X" and "x" (sorted in that order) both make XVariables: the second is XVariables2.
    expect(code).toMatch(
      /export interface XVariables \{\n {2}"a\.b": string;\n {2}v\?: string;\n\}/,
    );
    expect(code).toMatch(/export interface XVariables2 \{\n {2}id: string;\n {2}part: string;\n\}/);
    expect(code).toContain("fixed(options?: CallOptions): Promise<ReadResourceResult>;");
    expect(code).toContain("then_(variables: ThenVariables, options?: CallOptions)");
    expect(code).toContain('X: (variables, options) => read("X://{a.b}{;v}", variables, options),');
    // The server's text only in comments (escaped) and strings: no statement of its own.
    const file = ts.createSourceFile("tools.ts", code, ts.ScriptTarget.ES2022);
    const kinds = file.statements.map((st) => ts.SyntaxKind[st.kind]);
    expect(new Set(kinds)).toEqual(
      new Set([
        "ImportDeclaration",
        "TypeAliasDeclaration",
        "InterfaceDeclaration",
        "ClassDeclaration",
        "FunctionDeclaration",
      ]),
    );
    expect(code).toContain('Resource template "file": Files *\\/ here');
    expect(code).toContain(`read('quote://"*/{q}', variables, options)`);
  });

  it("expands each template as RFC 6570 says and reads that URI", async () => {
    const js = writeGenerated([{ path: "tools.ts", content: code }]);
    const typed = await import(join(js, "tools.js"));
    const read: unknown[] = [];
    const fake = {
      readResource: async (params: { uri: string }, options?: object) => {
        read.push([params.uri, options]);
        return { contents: [] };
      },
    };
    const templates = typed.createServerResourceTemplates(fake);
    await templates.file({ path: "a b/c.txt" });
    await templates.search({ segments: ["guide", "typed client"], tags: ["x", "y"] });
    await templates.search({ segments: [], q: "a&b" });
    await templates.fixed({ signal: undefined });
    await templates.x({ id: "7", part: "top" });
    await templates.X({ "a.b": "1" });
    expect(read).toEqual([
      ["file:///a%20b/c.txt", undefined],
      ["search://docs/guide/typed%20client?tags=x&tags=y", undefined],
      ["search://docs?q=a%26b", undefined],
      ["fixed://one", { signal: undefined }],
      ["x://7#top", undefined],
      ["X://1", undefined],
    ]);
    const asked: unknown[] = [];
    const completions = typed.createServerResourceCompletions({
      complete: async (params: unknown) => (asked.push(params), { completion: { values: [] } }),
    });
    await completions.search("q", "ty", { segments: "guide" });
    await completions.file("path", "");
    expect(asked).toEqual([
      {
        ref: { type: "ref/resource", uri: "search://docs{/segments*}{?q,tags*}" },
        argument: { name: "q", value: "ty" },
        context: { arguments: { segments: "guide" } },
      },
      {
        ref: { type: "ref/resource", uri: "file:///{+path}" },
        argument: { name: "path", value: "" },
      },
    ]);
    // A template without variables has no completion helper.
    expect(completions.fixed).toBeUndefined();
  });

  it("type-checks under the strict flags; a missing or wrong variable does not", () => {
    writeFileSync(
      join(dir, "src", "use-templates.ts"),
      [
        'import type { ServerResourceCompletions, ServerResourceTemplates } from "./tools.js";',
        "export async function use(t: ServerResourceTemplates, c: ServerResourceCompletions) {",
        '  await t.search({ segments: ["a"] });',
        "  await t.fixed();",
        '  await t.X({ "a.b": "1", v: "2" });',
        '  await c.search("tags", "", { q: "a" });',
        "  // @ts-expect-error: path is required",
        "  await t.file({});",
        "  // @ts-expect-error: segments is a list",
        '  await t.search({ segments: "a" });',
        "  // @ts-expect-error: fixed takes no variables",
        '  await t.fixed({ id: "1" }, {});',
        "  // @ts-expect-error: search has no variable id",
        '  await c.search("id", "");',
        "}",
      ].join("\n"),
    );
    expect(typecheck([join(dir, "src", "use-templates.ts")])).toEqual([]);
  }, 180_000);

  it("imports UriTemplate from the vendored runtime when the config says runtime: vendor", async () => {
    const vendored = tempDir("mcp-gen-typed-vendor-");
    const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["client"], {
      runtime: "vendor",
    });
    writeFiles(
      vendored,
      files.map((f) => ({ path: `out/${f.path}`, content: f.content })),
    );
    writeFileSync(join(vendored, "tools.json"), JSON.stringify(TEMPLATES));
    writeFileSync(join(vendored, "mcp-gen.config.json"), '{ "runtime": "vendor" }');
    const run = await client(vendored);
    expect(run.stderr).toBe("");
    const typed = readFileSync(join(vendored, "src", "tools.ts"), "utf8");
    expect(typed).toContain(
      'import { UriTemplate, type TemplateValue } from "../out/runtime/client/index.js";',
    );
    writeFileSync(
      join(vendored, "src", "use.ts"),
      [
        'import type { ServerResourceTemplates } from "./tools.js";',
        'export const use = (t: ServerResourceTemplates) => t.file({ path: "a" });',
      ].join("\n"),
    );
    expect(typecheck([join(vendored, "src", "use.ts")])).toEqual([]);
  }, 180_000);

  it("refuses a uriTemplate it cannot parse in one line naming the template", async () => {
    const bad = {
      tools: [],
      resourceTemplates: [
        { name: "ok", uriTemplate: "x://{a}" },
        { name: "broken", uriTemplate: "x://{a" },
      ],
    };
    const run = await client(project(bad));
    expect(run.stderr).toBe(
      'mcp-gen: resource template "broken": uriTemplate "x://{a" is not an RFC 6570 URI template ("{" is not closed)\n',
    );
    expect(run.status).toBe(1);
    const long = {
      tools: [],
      resourceTemplates: [{ name: "long", uriTemplate: `x://${"a".repeat(5000)}` }],
    };
    const tooLong = await client(project(long));
    expect(tooLong.stderr).toBe(
      'mcp-gen: tools.json: resource template "long" has a uriTemplate longer than 2048 characters\n',
    );
    expect(tooLong.status).toBe(1);
  });
});

describe("--check on a saved listing", () => {
  it("passes on the same listing, and names each change (without connecting to anything)", async () => {
    const listing = {
      tools: [
        { name: "keep", inputSchema: object() },
        { name: "go", inputSchema: object() },
        { name: "edit", description: "old", inputSchema: object() },
      ],
    };
    const dir = project(listing);
    expect((await client(dir)).status).toBe(0);
    const same = await client(dir, "--check");
    expect(same.stdout).toBe("src/tools.ts is up to date with tools.json\n");
    expect(same.status).toBe(0);
    listing.tools = [
      { name: "keep", inputSchema: object() },
      { name: "edit", description: "new", inputSchema: object({ a: { type: "string" } }) },
      { name: "new", inputSchema: object() },
    ];
    writeFileSync(join(dir, "tools.json"), JSON.stringify(listing));
    const changed = await client(dir, "--check");
    expect(changed.stderr).toBe(
      'mcp-gen: src/tools.ts no longer matches tools.json: tool "edit" inputSchema and description changed, tool "new" added, tool "go" removed; run mcp-gen client --from tools.json --out src/tools.ts --client out\n',
    );
    expect(changed.status).toBe(3);
    // Rewritten, then edited by hand: the listing is the same, the file is not.
    expect((await client(dir)).status).toBe(0);
    const file = join(dir, "src", "tools.ts");
    writeFileSync(file, `${readFileSync(file, "utf8")}// mine\n`);
    const edited = await client(dir, "--check");
    expect(edited.stderr).toMatch(
      /^mcp-gen: src\/tools\.ts differs from what mcp-gen \S+ writes for the same listing \(edited, or written by another mcp-gen\); run /,
    );
    expect(edited.status).toBe(3);
  });
});

describe("examples/typed-client, as the guide shows it", () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((child) => child.kill()));

  it("type-checks, its search-tools.ts is up to date with its server, and app.ts calls it", async () => {
    const dir = join(tempDir("mcp-gen-example-"), "typed-client");
    cpSync(join(ROOT, "examples", "typed-client"), dir, { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    writeFiles(join(dir, "mcp"), dualEraFiles);
    const sources = ["app.ts", "search-tools.ts", "server.ts"];
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
    const js = join(dir, "..", "js");
    mkdirSync(js);
    symlinkSync(join(ROOT, "node_modules"), join(js, "node_modules"), "dir");
    transpileDir(dir, js);
    const server = spawn(process.execPath, [join(js, "server.js")], {
      env: { ...process.env, PORT: "0" },
    });
    children.push(server);
    const url = /listening on (http:\/\/\S+)/.exec(await printedUntil(server, "\n"))![1]!;
    // The committed file is what the command writes for this server.
    const check = spawn(
      process.execPath,
      [CLI, "client", "--from", url, "--out", "search-tools.ts", "--check", "--spec", SPEC_DIR],
      { cwd: dir },
    );
    children.push(check);
    const checked = await new Promise<{ status: number | null; out: string }>((resolve) => {
      let out = "";
      check.stdout.on("data", (b: Buffer) => (out += b));
      check.stderr.on("data", (b: Buffer) => (out += b));
      check.on("close", (status) => resolve({ status, out }));
    });
    expect(checked.out).toBe(`search-tools.ts is up to date with the server at ${url}\n`);
    expect(checked.status).toBe(0);
    const app = spawn(process.execPath, [join(js, "app.js"), url]);
    children.push(app);
    let printed = "";
    app.stdout.on("data", (b: Buffer) => (printed += b));
    app.stderr.on("data", (b: Buffer) => (printed += b));
    const [status] = await new Promise<[number | null]>((r) => app.on("close", (s) => r([s])));
    expect(printed).toBe(
      [
        "Typed clients: https://example.com/guide/typed-client",
        "The client: https://example.com/guide/client",
        "# Serving every era",
        "slugs starting with t: typed-client",
        "",
      ].join("\n"),
    );
    expect(status).toBe(0);
  }, 240_000);
});
