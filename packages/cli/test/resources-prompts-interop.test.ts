// defineServer against real clients: ONE generated dual-era server (2026-07-28, and
// 2025-11-25 through initialize) whose resources, templates, prompts and completions come from
// the generated dispatcher's defineResources, definePrompts and defineServer, asked by the v1
// SDK client 1.32.2 (legacy session) and the v2 SDK client 2.4.0 (modern, per request): lists,
// templates matched and read, completions of template variables and prompt arguments, prompts
// with arguments (a missing required one refused with -32602), and change notifications sent
// by one call each reaching both eras (the session's GET stream, a subscriptions/listen stream).
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";
import { validate } from "./support/ajv-validate.js";
import { within } from "./support/wait.js";

type Any = any;
let server: { url: string; close(): Promise<void> };
let mcp: Any;
const FILES = new Map([
  ["README.md", "# Hello"],
  ["src/main.ts", "export {};"],
  ["src/a b.ts", "// spaced"],
]);
const LANGUAGES = ["go", "java", "javascript", "python", "rust", "typescript"];
const text = (t: string) => ({ type: "text", text: t });

beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const dir = writeGenerated(files);
  const [d, http] = await Promise.all(
    ["dispatcher.js", "http-server.js"].map((m) => import(join(dir, m))),
  );
  const fileTemplate = new d.UriTemplate("file:///{+path}");
  const resources = d.defineResources(
    [
      {
        resource: { uri: "memo://welcome", name: "welcome", mimeType: "text/plain" },
        read: (uri: string) => ({
          contents: [{ uri, text: "Welcome" }],
          ttlMs: 0,
          cacheScope: "private",
        }),
      },
      d.resourceTemplate({
        template: { uriTemplate: "file:///{+path}", name: "file", mimeType: "text/plain" },
        list: () =>
          [...FILES.keys()].map((path) => ({ uri: fileTemplate.expand({ path }), name: path })),
        read: (uri: string, { path }: Any) => {
          const content = FILES.get(path);
          if (content === undefined) throw new d.McpError(-32602, `no file ${path}`);
          return { contents: [{ uri, text: content }], ttlMs: 0, cacheScope: "private" };
        },
        complete: {
          path: (value: string) => [...FILES.keys()].filter((p) => p.startsWith(value)),
        },
      }),
      d.resourceTemplate({
        template: { uriTemplate: "search://files{?q,limit}", name: "search" },
        read: (uri: string, { q = "", limit = "10" }: Any) => {
          const found = [...FILES.keys()].filter((p) => p.includes(q)).slice(0, Number(limit));
          return { contents: [{ uri, text: found.join("\n") }], ttlMs: 0, cacheScope: "private" };
        },
      }),
    ],
    { list: { ttlMs: 0, cacheScope: "private" } },
  );
  const prompts = d.definePrompts(
    [
      d.prompt({
        prompt: {
          name: "review",
          arguments: [{ name: "language", required: true }, { name: "style" }],
        },
        get: ({ language, style }: Any) => ({
          messages: [
            {
              role: "user",
              content: text(`Review this ${language} code${style ? ` (${style})` : ""}.`),
            },
          ],
        }),
        complete: {
          language: (value: string) => LANGUAGES.filter((l) => l.startsWith(value)),
          // What the style may be depends on the language already chosen (context.arguments).
          style: (value: string, known: Any) =>
            (known.language === "rust"
              ? ["idiomatic", "unsafe-free"]
              : ["terse", "verbose"]
            ).filter((s) => s.startsWith(value)),
        },
      }),
    ],
    { list: { ttlMs: 0, cacheScope: "public" } },
  );
  const tools = d.defineTools(
    [
      {
        tool: { name: "touch", inputSchema: { type: "object" } },
        // One call per change, told to every client following it, whatever its era.
        call: () => {
          const updated = mcp.resourceUpdated("memo://welcome");
          const listed = mcp.listChanged("resources");
          return { content: [text(`updated ${updated}, list ${listed}`)] };
        },
      },
    ],
    { validate, list: { ttlMs: 0, cacheScope: "private" } },
  );
  mcp = d.defineServer(
    { tools, resources, prompts, listChanged: ["resources"], subscribe: true },
    { serverInfo: { name: "tables", version: "1.0.0" } },
  );
  server = await http.serveHttp(mcp.dispatcher);
});
afterAll(() => server?.close());

const URIS = ["memo://welcome", "file:///README.md", "file:///src/main.ts", "file:///src/a%20b.ts"];
const TEMPLATES = ["file:///{+path}", "search://files{?q,limit}"];

describe("defineServer's tables served to the SDK clients", () => {
  it("v1 SDK client 1.32.2 (legacy session): lists, reads through templates, completes, gets prompts, hears changes", async () => {
    const client = new V1Client({ name: "v1", version: "1.0.0" });
    const transport = new V1HttpTransport(new URL(server.url));
    await client.connect(transport);
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: {},
      completions: {},
      tools: {},
    });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(URIS);
    expect(
      (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
    ).toEqual(TEMPLATES);
    expect(await client.readResource({ uri: "file:///src/a%20b.ts" })).toEqual({
      contents: [{ uri: "file:///src/a%20b.ts", text: "// spaced" }],
    });
    expect(await client.readResource({ uri: "search://files?limit=1&q=src" })).toEqual({
      contents: [{ uri: "search://files?limit=1&q=src", text: "src/main.ts" }],
    });
    await expect(client.readResource({ uri: "memo://other" })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Resource memo://other not found",
    });
    await expect(client.readResource({ uri: "search://files?sort=1" })).rejects.toMatchObject({
      code: -32602,
    });
    const path = await client.complete({
      ref: { type: "ref/resource", uri: "file:///{+path}" },
      argument: { name: "path", value: "src/" },
    });
    expect(path.completion).toEqual({
      values: ["src/main.ts", "src/a b.ts"],
      total: 2,
      hasMore: false,
    });
    const style = await client.complete({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "style", value: "" },
      context: { arguments: { language: "rust" } },
    });
    expect(style.completion.values).toEqual(["idiomatic", "unsafe-free"]);
    expect(await client.getPrompt({ name: "review", arguments: { language: "go" } })).toEqual({
      messages: [{ role: "user", content: text("Review this go code.") }],
    });
    await expect(client.getPrompt({ name: "review", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Prompt review: missing required argument language",
    });
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 });

    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
        resolve(n.params.uri),
      ),
    );
    const listChanged = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) =>
        resolve(n.method),
      ),
    );
    await client.subscribeResource({ uri: "memo://welcome" });
    const touched = await client.callTool({ name: "touch", arguments: {} });
    expect(touched.content).toEqual([text("updated 1, list 1")]);
    expect(await within(updated, "resources/updated on the GET stream")).toBe("memo://welcome");
    expect(await within(listChanged, "list_changed on the GET stream")).toBe(
      "notifications/resources/list_changed",
    );
    // Ended (DELETE), not just closed: a session left open keeps its GET stream's events
    // recorded for a resumption, and so still counts among the sessions a change reaches.
    await transport.terminateSession();
    await client.close();
  });

  it("v2 SDK client 2.4.0 in auto mode (modern, stateless): the same answers, changes on a listen stream", async () => {
    const client = new V2Client(
      { name: "v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new V2HttpTransport(new URL(server.url)));
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: {},
      completions: {},
    });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(URIS);
    expect(
      (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
    ).toEqual(TEMPLATES);
    expect(await client.readResource({ uri: "file:///README.md" })).toMatchObject({
      contents: [{ uri: "file:///README.md", text: "# Hello" }],
    });
    await expect(client.readResource({ uri: "file:///missing" })).rejects.toMatchObject({
      code: -32602,
    });
    const language = await client.complete({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "language", value: "ja" },
    });
    expect(language.completion).toEqual({
      values: ["java", "javascript"],
      total: 2,
      hasMore: false,
    });
    const path = await client.complete({
      ref: { type: "ref/resource", uri: "file:///{+path}" },
      argument: { name: "path", value: "R" },
    });
    expect(path.completion.values).toEqual(["README.md"]);
    expect(
      await client.getPrompt({ name: "review", arguments: { language: "rust", style: "terse" } }),
    ).toMatchObject({
      messages: [{ role: "user", content: text("Review this rust code (terse).") }],
    });
    await expect(
      client.getPrompt({ name: "review", arguments: { style: "terse" } }),
    ).rejects.toMatchObject({ code: -32602 });

    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler("notifications/resources/updated", (n) =>
        resolve(n.params.uri),
      ),
    );
    const listChanged = new Promise<string>((resolve) =>
      client.setNotificationHandler("notifications/resources/list_changed", (n) =>
        resolve(n.method),
      ),
    );
    const subscription = await client.listen({
      resourceSubscriptions: ["memo://welcome"],
      resourcesListChanged: true,
      promptsListChanged: true,
    });
    // Prompts' list changes were not declared: not honored.
    expect(subscription.honoredFilter).toEqual({
      resourcesListChanged: true,
      resourceSubscriptions: ["memo://welcome"],
    });
    const touched = await client.callTool({ name: "touch", arguments: {} });
    expect(touched.content).toEqual([text("updated 1, list 1")]);
    expect(await within(updated, "resources/updated on the listen stream")).toBe("memo://welcome");
    expect(await within(listChanged, "list_changed on the listen stream")).toBe(
      "notifications/resources/list_changed",
    );
    await subscription.close();
    await client.close();
  });
});
