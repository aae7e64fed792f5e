import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_TOOLS, catalogSuite, PROMPTS, TEMPLATES } from "./everything-catalog.js";
import { SESSION_TOOLS, sessionSuite } from "./everything-session.js";
import {
  drive,
  EVERYTHING_VERSION,
  importClient,
  type Drive,
  type TransportKind,
} from "./everything.js";

// The whole drive of server-everything over one transport (test/everything-drive-*.test.ts):
// what it offers is listed first and must be what these suites cover, so a tool, prompt or
// template a later version adds fails here until a test calls it; the last test checks from
// what the client sent that each was used.

type Any = any;

const GENERATION_TIMEOUT_MS = 180_000;

export function everythingDrive(kind: TransportKind): void {
  let d: Drive;
  let listed: { tools: Any[]; prompts: Any[]; templates: Any[] };

  let modules: Any[];
  // Generating the dual-era client (four revisions) takes a few seconds on a quiet machine,
  // and over a minute on a loaded one; the drive itself is bounded by the usual timeouts.
  beforeAll(async () => {
    modules = await importClient();
  }, GENERATION_TIMEOUT_MS);
  beforeAll(async () => {
    d = await drive(kind, modules);
  });
  afterAll(() => d?.close());

  describe(`@modelcontextprotocol/server-everything ${EVERYTHING_VERSION} over ${kind}`, () => {
    it("is a legacy server; what it lists is what these tests cover", async () => {
      expect(await d.c.era()).toBe("legacy");
      listed = {
        tools: (await d.c.listTools()).tools,
        prompts: (await d.c.listPrompts()).prompts,
        templates: (await d.c.listResourceTemplates()).resourceTemplates,
      };
      const names = (items: Any[], key = "name") => items.map((i) => i[key]).sort();
      expect(names(listed.tools)).toEqual([...CATALOG_TOOLS, ...SESSION_TOOLS].sort());
      expect(names(listed.prompts)).toEqual([...PROMPTS].sort());
      expect(names(listed.templates, "uriTemplate")).toEqual([...TEMPLATES].sort());
    });

    catalogSuite(
      () => d,
      () => listed.tools,
    );
    sessionSuite(() => d);

    it("every tool, prompt, resource and template listed was used", async () => {
      const sent = (method: string) =>
        d.sent.list.filter((m) => m.method === method).map((m) => m.params);
      const called = new Set(sent("tools/call").map((p) => p.name));
      expect(listed.tools.filter((t) => !called.has(t.name))).toEqual([]);
      const got = new Set(sent("prompts/get").map((p) => p.name));
      expect(listed.prompts.filter((p) => !got.has(p.name))).toEqual([]);
      const read = sent("resources/read").map((p) => p.uri);
      const { resources } = await d.c.listResources();
      expect(resources.filter((r: Any) => !read.includes(r.uri))).toEqual([]);
      for (const { uriTemplate } of listed.templates) {
        const instance = new RegExp(`^${uriTemplate.replace("{resourceId}", "\\d+")}$`);
        expect(read.some((uri) => instance.test(uri))).toBe(true);
      }
    });
  });
}
