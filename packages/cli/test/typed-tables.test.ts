// The types of the resource and prompt tables: template variables read from the template
// literal and prompt arguments from their declarations, checked by the type checker (this
// file is in tsconfig.test.json: `npm run typecheck`), against the runtime's generic tables
// and, compiled in one program with the generated output, against dispatcher.ts's bindings,
// where each `@ts-expect-error` must meet an error (else tsc reports the unused directive).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  definePrompts,
  defineResources,
  prompt,
  resourceTemplate,
  type PromptArguments,
  type TemplateVariables,
} from "@mcp-gen/runtime/server";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, tempDir, typecheck, writeFiles } from "./helpers.js";
import { itCompiles } from "./support/compile.js";

describe("the runtime's tables, typed from their literals", () => {
  it("a template's read gets the variables its uriTemplate names", () => {
    const entry = resourceTemplate({
      template: { uriTemplate: "file:///{+path}{?rev}", name: "file" },
      read: (uri, variables) => {
        expectTypeOf(variables).toEqualTypeOf<{ readonly path: string; readonly rev?: string }>();
        // @ts-expect-error -- `name` is not a variable of the template
        void variables.name;
        return { contents: [{ uri, text: variables.path }] };
      },
      complete: {
        path: (value, known) => {
          expectTypeOf(known).toEqualTypeOf<{ readonly path?: string; readonly rev?: string }>();
          return [value];
        },
        // @ts-expect-error -- no such variable to complete
        name: () => [],
      },
    });
    expect(defineResources([entry]).completes).toBe(true);
  });

  it("a prompt's get gets its arguments: required ones as strings, the others optional", () => {
    const review = prompt({
      prompt: {
        name: "review",
        arguments: [{ name: "code", required: true }, { name: "style" }],
      },
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ readonly code: string; readonly style?: string }>();
        // @ts-expect-error -- `language` is not declared
        void args.language;
        // @ts-expect-error -- `style` may be undefined
        args.style.toUpperCase();
        return { messages: [] };
      },
      complete: {
        style: () => ["terse"],
        // @ts-expect-error -- no such argument to complete
        language: () => [],
      },
    });
    expect(definePrompts([review]).completes).toBe(true);
    expectTypeOf<keyof PromptArguments<readonly []>>().toEqualTypeOf<never>();
    expectTypeOf<TemplateVariables<"a{/b*}">>().toEqualTypeOf<{ readonly b: string[] }>();
  });
});

/** Use of the generated bindings: each `@ts-expect-error` marks what must not compile. */
const USE = `
import {
  definePrompts,
  defineResources,
  defineServer,
  prompt,
  resource,
  resourceTemplate,
  type ServerHandlers,
} from "./out/dispatcher.js";
import { defineResources as runtimeDefineResources } from "@mcp-gen/runtime/server";

const note = resourceTemplate({
  template: { uriTemplate: "note://{folder}/{name}", name: "note" },
  read: (uri, { folder, name }) => ({
    contents: [{ uri, text: folder + name }],
    ttlMs: 0,
    cacheScope: "private",
  }),
});
const wrongVariable = resourceTemplate({
  template: { uriTemplate: "note://{name}", name: "note" },
  // @ts-expect-error the template has no variable "title"
  read: (uri, { title }) => ({ contents: [{ uri, text: title }], ttlMs: 0, cacheScope: "private" }),
});
const wrongResult = resource({
  resource: { uri: "about://x", name: "about" },
  // @ts-expect-error resources/read's result needs contents (and, in 2026-07-28, ttlMs and cacheScope)
  read: (uri) => ({ text: uri }),
});
// @ts-expect-error 2026-07-28 lists need ttlMs and cacheScope
defineResources([note]);
const files = resourceTemplate({
  template: { uriTemplate: "file:///{+path}", name: "file" },
  allow: { dotSegments: true },
  read: (uri, { path }) => ({ contents: [{ uri, text: path }], ttlMs: 0, cacheScope: "private" }),
});
resourceTemplate({
  template: { uriTemplate: "file:///{+path}", name: "file" },
  // @ts-expect-error allow names dotSegments and nul only
  allow: { slashes: true },
  read: (uri) => ({ contents: [{ uri, text: "" }], ttlMs: 0, cacheScope: "private" }),
});
const resources = defineResources([note, wrongVariable, wrongResult, files], {
  list: { ttlMs: 0, cacheScope: "private" },
  maxUriLength: 4096,
});

const review = prompt({
  prompt: { name: "review", arguments: [{ name: "code", required: true }] },
  get: ({ code }) => ({ messages: [{ role: "user", content: { type: "text", text: code } }] }),
  // @ts-expect-error no argument "lang" to complete
  complete: { lang: () => [] },
});
const badMessage = prompt({
  prompt: { name: "bad" },
  // @ts-expect-error a message's role is "user" or "assistant"
  get: () => ({ messages: [{ role: "system", content: { type: "text", text: "x" } }] }),
});
const prompts = definePrompts([review, badMessage], { list: { ttlMs: 0, cacheScope: "public" } });

const server = defineServer({ resources, prompts, listChanged: ["resources"], subscribe: true });
server.listChanged("resources");
// @ts-expect-error "prompts" was not declared in listChanged
server.listChanged("prompts");
server.resourceUpdated("note://a/b");
// The tables' handlers are the revision's: they spread into ServerHandlers as they are.
export const spread: ServerHandlers = { ...resources.handlers, ...prompts.handlers };
export const wrongBeside: ServerHandlers = {
  ...resources.handlers,
  // @ts-expect-error a hand-written handler beside them is still checked: no prompts
  "prompts/list": () => ({ ttlMs: 0, cacheScope: "private" }),
};
// The runtime's own table, not bound to the revision, answers what it does not know to fit.
// @ts-expect-error its resources/read answers unknown, not ReadResourceResult
export const untyped: ServerHandlers = { ...runtimeDefineResources([]).handlers };
defineServer({
  resources,
  // @ts-expect-error handlers are the generated ServerHandlers: no such method
  handlers: { "resources/lsit": () => ({}) },
});
`;

describe("dispatcher.ts's bindings (2026-07-28 with 2025-11-25)", () => {
  itCompiles("type templates, prompts and defineServer, refusing each misuse", async () => {
    const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
      legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
    });
    const dir = tempDir();
    writeFiles(join(dir, "out"), files);
    writeFileSync(join(dir, "use.ts"), USE);
    expect(typecheck([join(dir, "use.ts")])).toEqual([]);
  });
});
