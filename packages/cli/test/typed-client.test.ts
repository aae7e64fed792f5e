// `mcp-gen client`: typed functions for one server's tools, prompts and resource templates,
// over the generated client. Run against a v2 SDK 2.4.0 server over Streamable HTTP (in this
// process, its tools and template changed between runs for --check) and
// @modelcontextprotocol/server-everything 2026.8.31 over stdio; the emitted code type-checks
// under the strict flags with the generated client, and calls work end to end (a tool, a
// prompt, a template read and a template variable completed).
import { spawn } from "node:child_process";
import { once } from "node:events";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createMcpHandler, McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { quote } from "shell-quote";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { CLI, ROOT, SPEC_DIR, tempDir, typecheck, writeFiles, writeGenerated } from "./helpers.js";
import { LEGACY } from "./support/dual-era-client.js";

type Any = any;
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** The CLI run asynchronously (an in-process server must keep answering meanwhile). */
function cli(
  args: string[],
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args, "--spec", SPEC_DIR], { cwd });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b));
  child.stderr.on("data", (b: Buffer) => (stderr += b));
  return once(child, "close").then(([status]) => ({
    status: status as number | null,
    stdout,
    stderr,
  }));
}

/** The dual-era client (2026-07-28 and the initialize-based revisions), generated once. */
let clientFiles: OutputFile[];
beforeAll(async () => {
  clientFiles = await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["client"], {
    legacy: LEGACY.map((r) => loadRevision(SPEC_DIR, r)),
  });
}, 120_000);

const inOut = () => clientFiles.map((f) => ({ path: `out/${f.path}`, content: f.content }));

/** The project folder: the generated client in out/, the typed file to be written in src/. */
function project(): string {
  const dir = tempDir("mcp-gen-typed-client-");
  writeFiles(dir, inOut());
  return dir;
}

/** The typed file and the generated client as JavaScript, imported: the typed module. */
async function importTyped(dir: string, file: string): Promise<Any> {
  const js = writeGenerated([
    ...inOut(),
    { path: file, content: readFileSync(join(dir, file), "utf8") },
  ]);
  const [typed, client, http, stdio] = await Promise.all(
    [file.replace(/\.ts$/, ".js"), "out/client.js", "out/http-client.js", "out/stdio.js"].map(
      (m) => import(join(js, m)),
    ),
  );
  return { typed, client, http, stdio };
}

// Each schema in its own dialect: the v2 SDK writes 2020-12, server-everything draft-07.
const ajv2020 = new Ajv2020({ strict: false });
const ajv07 = new Ajv({ strict: false });
const validate = (schema: object, value: unknown) => {
  const draft07 = (schema as { $schema?: string }).$schema?.includes("draft-07") === true;
  const check = (draft07 ? ajv07 : ajv2020).compile(schema);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

describe("against a v2 SDK 2.4.0 server over Streamable HTTP", () => {
  let http: HttpServer;
  let url: string;
  let dir: string;
  /** What the server lists: changed by the --check test. */
  const shape = { extraTool: false, limitIsString: false, pagesMoved: false };

  beforeAll(async () => {
    const server = () => {
      const v2 = new McpServer({ name: "typed-client-test", version: "1.0.0" });
      v2.registerTool(
        "search",
        {
          description: "Search */ the docs",
          inputSchema: z.object({
            query: z.string(),
            limit: shape.limitIsString ? z.string().optional() : z.number().int().optional(),
          }),
          outputSchema: z.object({ hits: z.array(z.object({ url: z.string() })) }),
        },
        async ({ query }) => ({
          content: [{ type: "text", text: query }],
          structuredContent: { hits: [{ url: `https://example.com/${query}` }] },
        }),
      );
      v2.registerTool("fail", { inputSchema: z.object({}) }, async () => ({
        content: [{ type: "text", text: "it broke" }],
        isError: true,
      }));
      if (shape.extraTool)
        v2.registerTool("count", { inputSchema: z.object({}) }, async () => ({ content: [] }));
      const slugs = ["typed-client", "tools", "tasks"];
      v2.registerResource(
        "page",
        new ResourceTemplate(`docs://${shape.pagesMoved ? "v2/" : ""}pages/{slug}{?lang}`, {
          list: undefined,
          complete: { slug: (value) => slugs.filter((s) => s.startsWith(value)) },
        }),
        {
          title: "Docs page",
          description: "A page of the docs */ by its slug",
          mimeType: "text/markdown",
        },
        async (uri, variables) => ({
          contents: [
            { uri: uri.href, mimeType: "text/markdown", text: `# ${String(variables["slug"])}` },
          ],
        }),
      );
      return v2;
    };
    const handler = createMcpHandler(server);
    http = serve({
      fetch: (request) => handler.fetch(request),
      port: 0,
      hostname: "127.0.0.1",
    }) as HttpServer;
    if (!http.listening) await once(http, "listening");
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    dir = project();
    const run = await cli(
      ["client", "--from", url, "--out", "src/tools.ts", "--client", "out"],
      dir,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      /^mcp-gen: 2 tools, 0 prompts, 1 resource template of the server at http:\/\/127\.0\.0\.1:\d+\/mcp -> src\/tools\.ts/,
    );
    expect(run.status).toBe(0);
  }, 180_000);

  afterAll(() => new Promise((r) => (http?.closeAllConnections(), http?.close(r))));

  it("emits code that type-checks with the generated client, and refuses wrong arguments", async () => {
    // Beside the client of 2026-07-28 alone: the typed file needs only its types, and the
    // initialize-based revisions' validators would triple the type-check.
    const checked = tempDir("mcp-gen-typed-check-");
    writeFiles(checked, [
      ...(await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["client"])).map((f) => ({
        path: `out/${f.path}`,
        content: f.content,
      })),
      { path: "src/tools.ts", content: readFileSync(join(dir, "src", "tools.ts"), "utf8") },
    ]);
    // vitest (expectTypeOf) and the runtime resolve from the checkout.
    symlinkSync(join(ROOT, "node_modules"), join(checked, "node_modules"), "dir");
    writeFileSync(
      join(checked, "src", "use.ts"),
      [
        'import { createClient } from "../out/client.js";',
        'import { createHttpTransport } from "../out/http-client.js";',
        'import { expectTypeOf } from "vitest";',
        'import type { CompleteResult, ReadResourceResult } from "../out/types.js";',
        'import { createServerResourceCompletions, createServerResourceTemplates, createServerTools, type PageVariables } from "./tools.js";',
        'const client = createClient({ transport: createHttpTransport({ url: "http://x" }) });',
        "const tools = createServerTools(client);",
        "const pages = createServerResourceTemplates(client);",
        "const completions = createServerResourceCompletions(client);",
        "export async function use(): Promise<string | undefined> {",
        // {slug} is required, {?lang} is not (a named expression leaves out what is not given).
        "  expectTypeOf<PageVariables>().toEqualTypeOf<{ slug: string; lang?: string }>();",
        "  expectTypeOf(pages.page).parameter(0).toEqualTypeOf<PageVariables>();",
        "  expectTypeOf(pages.page).returns.resolves.toEqualTypeOf<ReadResourceResult>();",
        '  await pages.page({ slug: "tools" });',
        "  // @ts-expect-error: slug is required",
        '  await pages.page({ lang: "fr" });',
        "  // @ts-expect-error: the variables are required",
        "  await pages.page();",
        "  // @ts-expect-error: slug is a string",
        "  await pages.page({ slug: 1 });",
        "  // @ts-expect-error: the template has no such variable",
        '  await pages.page({ slug: "tools", section: "a" });',
        '  expectTypeOf(completions.page).parameter(0).toEqualTypeOf<"slug" | "lang">();',
        '  expectTypeOf(completions.page("slug", "t")).resolves.toEqualTypeOf<CompleteResult>();',
        "  // @ts-expect-error: the template has no such variable",
        '  await completions.page("section", "t");',
        '  const { structuredContent } = await tools.search({ query: "a", limit: 2 });',
        "  await tools.fail();",
        "  // @ts-expect-error: query is a string",
        "  await tools.search({ query: 1 });",
        "  // @ts-expect-error: query is required",
        "  await tools.search({});",
        "  // @ts-expect-error: limit is a number",
        '  await tools.search({ query: "a", limit: "2" });',
        "  // @ts-expect-error: hits hold no title",
        "  void structuredContent.hits[0]?.title;",
        "  return structuredContent.hits[0]?.url;",
        "}",
      ].join("\n"),
    );
    expect(typecheck([join(checked, "src", "use.ts")])).toEqual([]);
  }, 180_000);

  it("calls a tool end to end: typed arguments in, structuredContent checked and typed out", async () => {
    const { typed, client, http: transport } = await importTyped(dir, "src/tools.ts");
    const c = client.createClient({ transport: transport.createHttpTransport({ url }) });
    const tools = typed.createServerTools(c, { validate });
    const result = await tools.search({ query: "mcp" });
    expect(result.structuredContent).toEqual({ hits: [{ url: "https://example.com/mcp" }] });
    // isError results are thrown, with the result.
    const failed = await tools.fail().catch((e: Any) => e);
    expect(failed).toBeInstanceOf(typed.ToolError);
    expect(failed.message).toBe('tool "fail" failed: it broke');
    // A result that breaks the outputSchema is refused (the validator is the caller's).
    const strict = typed.createServerTools(c, { validate: () => ["/hits must be empty"] });
    const broken = await strict.search({ query: "mcp" }).catch((e: Any) => e);
    expect(broken).toBeInstanceOf(typed.ToolOutputError);
    expect(broken.problems).toEqual(["/hits must be empty"]);
    // A template's variables expanded (RFC 6570: the space percent-encoded), the resource read
    // from the URI the server matched. (The SDK matches {?lang} only when the query is there:
    // the expansion without it is tested on a saved listing, typed-client-input.test.ts.)
    const pages = typed.createServerResourceTemplates(c);
    const page = await pages.page({ slug: "typed client", lang: "fr" });
    expect(page.contents).toEqual([
      {
        uri: "docs://pages/typed%20client?lang=fr",
        mimeType: "text/markdown",
        text: expect.stringMatching(/^# typed(%20| )client$/),
      },
    ]);
    const completions = typed.createServerResourceCompletions(c);
    expect((await completions.page("slug", "t")).completion.values).toEqual([
      "typed-client",
      "tools",
      "tasks",
    ]);
    expect((await completions.page("slug", "ty")).completion.values).toEqual(["typed-client"]);
    await c.close();
    // Transpiling and importing the four revisions' client: seconds, a minute at load 30.
  }, 180_000);

  it("--check passes while the server is unchanged, and names what changed once it is", async () => {
    const args = ["client", "--from", url, "--out", "src/tools.ts", "--client", "out", "--check"];
    const same = await cli(args, dir);
    expect(same.stdout).toMatch(/^src\/tools\.ts is up to date with the server at http/);
    expect(same.status).toBe(0);
    shape.extraTool = true;
    shape.limitIsString = true;
    shape.pagesMoved = true;
    const changed = await cli(args, dir);
    expect(changed.stderr.trimEnd().split("\n")).toEqual([
      `mcp-gen: src/tools.ts no longer matches the server at ${url}: tool "count" added, tool "search" inputSchema changed, resource template "page" uriTemplate changed; run mcp-gen client --from ${url} --out src/tools.ts --client out`,
    ]);
    expect(changed.status).toBe(3);
  }, 180_000);
});

describe("against @modelcontextprotocol/server-everything 2026.8.31 over stdio", () => {
  it("lists its tools, prompts and templates through the spawned command; typed calls work", async () => {
    const dir = project();
    const command = quote([process.execPath, EVERYTHING, "stdio"]);
    const run = await cli(
      ["client", "--from", command, "--out", "src/everything.ts", "--client", "out"],
      dir,
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const code = readFileSync(join(dir, "src", "everything.ts"), "utf8");
    // The tool with an outputSchema, typed from it.
    expect(code).toContain("getStructuredContent(\n    args: GetStructuredContentArguments,");
    expect(code).toMatch(/export interface GetStructuredContentResult \{[^}]*temperature: number;/);
    expect(code).toMatch(
      /export interface ArgsPromptPromptArguments \{[^}]*city: string;[^}]*state\?: string;/,
    );
    expect(code).toMatch(
      /export interface DynamicTextResourceVariables \{\n {2}resourceId: string;\n\}/,
    );
    const { typed, client, stdio } = await importTyped(dir, "src/everything.ts");
    const c = client.createClient({
      transport: stdio.createStdioTransport({
        command: process.execPath,
        args: [EVERYTHING, "stdio"],
        stderr: "ignore",
      }),
    });
    try {
      const tools = typed.createServerTools(c, { validate });
      const weather = await tools.getStructuredContent({ location: "Chicago" });
      expect(weather.structuredContent).toEqual({
        temperature: 36,
        conditions: "Light rain / drizzle",
        humidity: 82,
      });
      const sum = await tools.getSum({ a: 2, b: 3 });
      expect(sum.content[0].text).toContain("5");
      const prompts = typed.createServerPrompts(c);
      expect((await prompts.simplePrompt()).messages.length).toBeGreaterThan(0);
      const asked = await prompts.argsPrompt({ city: "Lyon" });
      expect(asked.messages[0].content.text).toBe("What's weather in Lyon?");
      // Its template demo://resource/dynamic/text/{resourceId}, read and completed.
      const resources = typed.createServerResourceTemplates(c);
      const text = await resources.dynamicTextResource({ resourceId: "7" });
      expect(text.contents).toHaveLength(1);
      expect(text.contents[0].uri).toBe("demo://resource/dynamic/text/7");
      expect(text.contents[0].text).toMatch(/^Resource 7: This is a plaintext resource/);
      const completions = typed.createServerResourceCompletions(c);
      const valid = await completions.dynamicTextResource("resourceId", "42");
      expect(valid.completion.values).toEqual(["42"]);
      const invalid = await completions.dynamicTextResource("resourceId", "x");
      expect(invalid.completion.values).toEqual([]);
    } finally {
      await c.close();
    }
  }, 180_000);
});
