import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { validate } from "./ajv-validate.js";
import { EVERYTHING_DIR, texts, type Drive } from "./everything.js";

// What server-everything lists, and every tool of it that needs no input from the client,
// every resource, template, prompt and completion, driven through the generated client; each
// result checked against what was sent or what the server listed, not against copied text.

type Any = any;

/** Tools this suite calls; the session suite (everything-session.ts) calls the others. */
export const CATALOG_TOOLS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
];
export const PROMPTS = ["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"];
export const TEMPLATES = [
  "demo://resource/dynamic/text/{resourceId}",
  "demo://resource/dynamic/blob/{resourceId}",
];
/** Where the server's static documents come from (each is a resource). */
const DOCS = join(EVERYTHING_DIR, "dist/docs");
const STATIC = "demo://resource/static/document/";
const SESSION = "demo://resource/session/";

const call = (d: Drive, name: string, args: Any = {}) =>
  d.c.callTool({ name, arguments: args }).then((r: Any) => {
    expect(r.isError ?? false).toBe(false);
    return r;
  });
/** A resource's content as text (a blob decoded). */
const contentText = (content: Any): string =>
  content.text ?? Buffer.from(content.blob, "base64").toString("utf8");
const fill = (template: string, id: string) => template.replace("{resourceId}", id);

export function catalogSuite(get: () => Drive, tools: () => Any[]): void {
  const tool = (name: string) => tools().find((t) => t.name === name);
  const enumOf = (name: string, property: string): string[] =>
    tool(name).inputSchema.properties[property].enum;

  describe("tools that need nothing from the client", () => {
    it("echo, get-sum (8 in flight), get-env and get-tiny-image answer from what was sent", async () => {
      const d = get();
      const message = `drive ${randomUUID()}`;
      expect(texts(await call(d, "echo", { message }))).toEqual([`Echo: ${message}`]);
      const pairs = Array.from({ length: 8 }, (_, i): [number, number] => [i * 1.25 + 0.5, -i * 3]);
      const sums = await Promise.all(pairs.map(([a, b]) => call(d, "get-sum", { a, b })));
      sums.forEach((r: Any, i) =>
        expect(texts(r)[0]).toContain(`is ${pairs[i]![0] + pairs[i]![1]}.`),
      );
      // get-env shows the server's environment, which the test set.
      const env = JSON.parse(texts(await call(d, "get-env"))[0]);
      expect(env[d.marker.name]).toBe(d.marker.value);
      const image = (await call(d, "get-tiny-image")).content.find((b: Any) => b.type === "image");
      expect(image.mimeType).toBe("image/png");
      expect(Buffer.from(image.data, "base64").subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
    });

    it("get-annotated-message: each message type listed, annotated, with its image", async () => {
      const d = get();
      const tiny = (await call(d, "get-tiny-image")).content.find((b: Any) => b.type === "image");
      const priorities: Record<string, number> = {};
      for (const messageType of enumOf("get-annotated-message", "messageType")) {
        const r = await call(d, "get-annotated-message", { messageType, includeImage: true });
        const [message, image] = r.content;
        expect(message.text).toMatch(new RegExp(messageType, "i"));
        expect(message.annotations.priority).toBeGreaterThanOrEqual(0);
        expect(message.annotations.priority).toBeLessThanOrEqual(1);
        expect(["user", "assistant"]).toEqual(expect.arrayContaining(message.annotations.audience));
        expect(image).toMatchObject({ type: "image", data: tiny.data, mimeType: tiny.mimeType });
        priorities[messageType] = message.annotations.priority;
        const bare = await call(d, "get-annotated-message", { messageType });
        expect(bare.content).toEqual([message]);
      }
      // As the tool says: errors first, debug output last.
      expect(priorities["error"]).toBeGreaterThan(priorities["success"]!);
      expect(priorities["success"]).toBeGreaterThan(priorities["debug"]!);
    });

    it("get-structured-content: each location's structuredContent fits the outputSchema", async () => {
      const d = get();
      // Declared draft-07 by the server; nothing in it reads differently under 2020-12.
      const { $schema: _draft, ...outputSchema } = tool("get-structured-content").outputSchema;
      expect(Object.keys(outputSchema.properties).length).toBeGreaterThan(0);
      for (const location of enumOf("get-structured-content", "location")) {
        const r = await call(d, "get-structured-content", { location });
        expect(validate(outputSchema, r.structuredContent)).toBeUndefined();
        expect(JSON.parse(texts(r)[0])).toEqual(r.structuredContent);
      }
    });

    it("get-resource-links and get-resource-reference point at resources that read back", async () => {
      const d = get();
      const count = 4;
      const links = await call(d, "get-resource-links", { count });
      expect(texts(links)[0]).toContain(`${count} resource links`);
      const linked = links.content.filter((b: Any) => b.type === "resource_link");
      expect(linked).toHaveLength(count);
      for (const link of linked) {
        const [content] = (await d.c.readResource({ uri: link.uri })).contents;
        expect(content).toMatchObject({ uri: link.uri, mimeType: link.mimeType });
        const id = link.uri.split("/").at(-1);
        expect(contentText(content)).toContain(`Resource ${id}:`);
        expect("blob" in content).toBe(link.uri.includes("/blob/"));
      }
      for (const resourceType of enumOf("get-resource-reference", "resourceType")) {
        const resourceId = 7;
        const r = await call(d, "get-resource-reference", { resourceType, resourceId });
        const embedded = r.content.find((b: Any) => b.type === "resource").resource;
        expect(embedded.uri).toBe(`demo://resource/dynamic/${resourceType.toLowerCase()}/7`);
        expect(contentText(embedded)).toContain(`Resource ${resourceId}:`);
        expect(texts(r).join("\n")).toContain(embedded.uri);
        const [read] = (await d.c.readResource({ uri: embedded.uri })).contents;
        expect(Object.keys(read).sort()).toEqual(Object.keys(embedded).sort());
      }
    });

    it("gzip-file-as-resource: a session resource whose blob gunzips to what was sent", async () => {
      const d = get();
      const text = `compress me ${randomUUID()}\n`.repeat(20);
      const data = `data:text/plain;base64,${Buffer.from(text).toString("base64")}`;
      const name = `drive-${randomUUID()}.txt.gz`;
      const linked = await call(d, "gzip-file-as-resource", { name, data });
      const [link] = linked.content;
      expect(link).toMatchObject({ type: "resource_link", uri: `${SESSION}${name}`, name });
      const listed = (await d.c.listResources()).resources.map((r: Any) => r.uri);
      expect(listed).toContain(link.uri);
      const [content] = (await d.c.readResource({ uri: link.uri })).contents;
      expect(content.mimeType).toBe("application/gzip");
      expect(gunzipSync(Buffer.from(content.blob, "base64")).toString("utf8")).toBe(text);
      const inline = await call(d, "gzip-file-as-resource", { name, data, outputType: "resource" });
      const { resource } = inline.content[0];
      expect(resource.uri).toBe(link.uri);
      expect(gunzipSync(Buffer.from(resource.blob, "base64")).toString("utf8")).toBe(text);
    });
  });

  describe("resources, templates, prompts and completions", () => {
    it("reads every listed resource: each static document as its file is", async () => {
      const d = get();
      const listed = (await d.c.listResources()).resources.filter(
        (r: Any) => !r.uri.startsWith(SESSION),
      );
      expect(listed.length).toBeGreaterThan(0);
      for (const resource of listed) {
        // A kind of resource this test does not know fails here until it is covered.
        expect(resource.uri.startsWith(STATIC)).toBe(true);
        const file = join(DOCS, decodeURIComponent(resource.uri.slice(STATIC.length)));
        expect(existsSync(file)).toBe(true);
        const [content] = (await d.c.readResource({ uri: resource.uri })).contents;
        expect(content).toEqual({
          uri: resource.uri,
          mimeType: resource.mimeType,
          text: readFileSync(file, "utf8"),
        });
      }
    });

    it("completes template variables, and reads an instance of every template", async () => {
      const d = get();
      const { resourceTemplates } = await d.c.listResourceTemplates();
      for (const [index, { uriTemplate, mimeType }] of resourceTemplates.entries()) {
        const ref = { type: "ref/resource", uri: uriTemplate };
        const id = String(120 + index);
        const { completion } = await d.c.complete({
          ref,
          argument: { name: "resourceId", value: id },
        });
        expect(completion.values).toEqual([id]);
        const none = await d.c.complete({ ref, argument: { name: "resourceId", value: "x" } });
        expect(none.completion.values).toEqual([]);
        const uri = fill(uriTemplate, completion.values[0]);
        const [content] = (await d.c.readResource({ uri })).contents;
        expect(content.uri).toBe(uri);
        expect(contentText(content)).toContain(`Resource ${id}:`);
        // The blob template lists an octet-stream; its instances say what the bytes are.
        expect(["text/plain", mimeType]).toContain(content.mimeType);
      }
    });

    it("gets every prompt with its arguments", async () => {
      const d = get();
      const simple = await d.c.getPrompt({ name: "simple-prompt" });
      expect(simple.messages).toHaveLength(1);
      expect(simple.messages[0].content.text.length).toBeGreaterThan(0);
      const city = `City ${randomUUID().slice(0, 8)}`;
      const state = `State ${randomUUID().slice(0, 8)}`;
      const both = await d.c.getPrompt({ name: "args-prompt", arguments: { city, state } });
      expect(both.messages[0].content.text).toContain(`${city}, ${state}`);
      const one = await d.c.getPrompt({ name: "args-prompt", arguments: { city } });
      expect(one.messages[0].content.text).toContain(city);
      expect(one.messages[0].content.text).not.toContain(state);
      // resource-prompt: each resource type its completion offers, with an embedded resource.
      const ref = { type: "ref/prompt", name: "resource-prompt" };
      const types = await d.c.complete({ ref, argument: { name: "resourceType", value: "" } });
      expect(types.completion.values.length).toBeGreaterThan(1);
      for (const resourceType of types.completion.values) {
        const prefixed = await d.c.complete({
          ref,
          argument: { name: "resourceType", value: resourceType.slice(0, 1) },
        });
        expect(prefixed.completion.values).toContain(resourceType);
        const ids = await d.c.complete({ ref, argument: { name: "resourceId", value: "5" } });
        expect(ids.completion.values).toEqual(["5"]);
        const r = await d.c.getPrompt({
          name: "resource-prompt",
          arguments: { resourceType, resourceId: ids.completion.values[0] },
        });
        expect(r.messages[0].content.text).toContain(resourceType);
        const { resource } = r.messages[1].content;
        expect(resource.uri).toBe(`demo://resource/dynamic/${resourceType.toLowerCase()}/5`);
        expect(contentText(resource)).toContain("Resource 5:");
      }
    });

    it("completable-prompt: completions narrow by prefix and by the other argument", async () => {
      const d = get();
      const ref = { type: "ref/prompt", name: "completable-prompt" };
      const complete = (name: string, value: string, context?: Any): Promise<string[]> =>
        d.c
          .complete({ ref, argument: { name, value }, ...(context ? { context } : {}) })
          .then((r: Any) => r.completion.values);
      const departments = await complete("department", "");
      expect(departments.length).toBeGreaterThan(1);
      for (const department of departments) {
        const prefix = department.slice(0, 2);
        const narrowed = await complete("department", prefix);
        expect(narrowed).toContain(department);
        expect(narrowed.every((v) => v.startsWith(prefix))).toBe(true);
      }
      const [first, second] = departments as [string, string];
      const names = await complete("name", "", { arguments: { department: first } });
      const others = await complete("name", "", { arguments: { department: second } });
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => others.includes(n))).toEqual([]);
      expect(await complete("name", "", {})).toEqual([]);
      const r = await d.c.getPrompt({
        name: "completable-prompt",
        arguments: { department: first, name: names[0] },
      });
      expect(r.messages[0].content.text).toContain(names[0]);
      expect(r.messages[0].content.text).toContain(first);
    });
  });
}
