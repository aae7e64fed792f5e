import { describe, expect, it } from "vitest";
import { defineServer, type ServerFactory } from "../src/server/define-server.js";
import { definePrompts, prompt } from "../src/server/prompts.js";
import { defineResources, resourceTemplate } from "../src/server/resources.js";

// defineResources, definePrompts and defineServer on their own (the SDK clients ask them
// through a generated dispatcher in packages/cli/test/resources-prompts-interop.test.ts): the refusals
// each table answers, completions cut to 100, the handlers and capabilities defineServer
// gives the dispatcher, and its subscriptions/listen stream.

type Any = any;
const ctx = {} as Any;

const review = prompt({
  prompt: { name: "review", arguments: [{ name: "code", required: true }, { name: "style" }] },
  get: (args) => ({ messages: [{ role: "user", content: { type: "text", text: args.code } }] }),
  complete: { style: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`) },
});

const file = resourceTemplate({
  template: { uriTemplate: "file:///{+path}", name: "file" },
  read: (uri, { path }) => ({ contents: [{ uri, text: path }] }),
  complete: { path: (value, known) => [value, JSON.stringify(known)] },
});

describe("definePrompts", () => {
  const { handlers, complete } = definePrompts([review]);

  it("refuses an unknown prompt, a missing required argument and an undeclared one with -32602", async () => {
    const get = (params: Any) => handlers["prompts/get"](params, ctx);
    await expect(get({ name: "nope" })).rejects.toMatchObject({
      code: -32602,
      message: "Prompt nope not found",
    });
    await expect(get({ name: "review", arguments: { style: "x" } })).rejects.toMatchObject({
      code: -32602,
      message: "Prompt review: missing required argument code",
    });
    await expect(get({ name: "review", arguments: { code: "x", lang: "go" } })).rejects.toThrow(
      "Prompt review: unknown argument lang",
    );
    expect(await get({ name: "review", arguments: { code: "1 + 1" } })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "1 + 1" } }],
    });
  });

  it("completes at most 100 values, says how many there were, refuses an undeclared argument", async () => {
    const request = (name: string) => ({ argument: { name, value: "s" } });
    const { completion } = (await complete("review", request("style"), ctx))!;
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 150, hasMore: true });
    expect(await complete("review", request("code"), ctx)).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
    await expect(complete("review", request("lang"), ctx)).rejects.toThrow(
      "Prompt review has no argument lang",
    );
    expect(complete("other", request("code"), ctx)).toBeUndefined();
  });

  it("refuses a prompt named twice when the table is made", () => {
    expect(() => definePrompts([review, review])).toThrow('prompt "review" is defined twice');
  });
});

describe("defineResources", () => {
  it("reads through the template, answers -32602 with the URI for what nothing serves", async () => {
    const { handlers, complete } = defineResources([file]);
    expect(await handlers["resources/read"]({ uri: "file:///a/b%20c" }, ctx)).toEqual({
      contents: [{ uri: "file:///a/b%20c", text: "a/b c" }],
    });
    await expect(handlers["resources/read"]({ uri: "http://x" }, ctx)).rejects.toMatchObject({
      code: -32602,
      message: "Resource http://x not found",
      data: { uri: "http://x" },
    });
    const known = { argument: { name: "path", value: "a" }, context: { arguments: { x: "1" } } };
    // Only the template's own variables are passed on as known.
    expect((await complete("file:///{+path}", known, ctx))!.completion.values).toEqual(["a", "{}"]);
    expect(complete("file:///{path}", known, ctx)).toBeUndefined();
  });

  it("refuses a template given twice, and a malformed one, when the table is made", () => {
    expect(() => defineResources([file, file])).toThrow("given twice");
    const broken = resourceTemplate({
      template: { uriTemplate: "file:///{path", name: "f" },
      read: () => ({}),
    });
    expect(() => defineResources([broken])).toThrow('"{" is not closed');
  });
});

describe("defineServer", () => {
  const made: { handlers: Any; options: Any }[] = [];
  const factory: ServerFactory<{ notifySessions(n: object): number }, Any> = {
    create: (handlers, options) => {
      made.push({ handlers, options });
      return { notifySessions: () => 2 };
    },
    listen: "subscriptions/listen",
  };

  it("assembles the tables' handlers, completion/complete and the capabilities they imply", () => {
    made.length = 0;
    const server = defineServer(
      factory,
      {
        resources: defineResources([file]),
        prompts: definePrompts([review]),
        handlers: { "logging/setLevel": () => ({}) },
        listChanged: ["prompts"],
      },
      { capabilities: { logging: {}, prompts: { other: true } } },
    );
    const { handlers, options } = made[0]!;
    expect(Object.keys(handlers).sort()).toEqual([
      "completion/complete",
      "logging/setLevel",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/templates/list",
      "subscriptions/listen",
    ]);
    expect(options.capabilities).toEqual({
      logging: {},
      prompts: { listChanged: true, other: true },
    });
    // Two legacy sessions, no listen stream open.
    expect(server.listChanged("prompts")).toBe(2);
    expect(() => (server as Any).listChanged("tools")).toThrow("declare it");
    expect(() => server.resourceUpdated("file:///a")).toThrow("subscribe: true");
  });

  it("refuses a handler for a method a table serves", () => {
    expect(() =>
      defineServer(
        factory,
        { prompts: definePrompts([review]), handlers: { "prompts/get": () => ({}) } },
        {},
      ),
    ).toThrow('"prompts/get" is served by the server\'s tables');
  });

  it("acknowledges what it honors on subscriptions/listen, then sends only that until the stream ends", async () => {
    made.length = 0;
    const server = defineServer(factory, { listChanged: ["resources"], subscribe: true }, {});
    const sent: Any[] = [];
    const abort = new AbortController();
    const listen = made[0]!.handlers["subscriptions/listen"];
    const acknowledged = new Promise<void>((resolve) => {
      const stream = {
        id: 7,
        signal: abort.signal,
        notify: async (n: Any) => void (sent.push(n), resolve()),
      };
      const asked = {
        notifications: {
          toolsListChanged: true,
          resourcesListChanged: true,
          resourceSubscriptions: ["a://1", "a://1"],
        },
      };
      void listen(asked, stream).then((result: Any) => sent.push(result));
    });
    await acknowledged;
    const meta = { "io.modelcontextprotocol/subscriptionId": 7 };
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: { resourcesListChanged: true, resourceSubscriptions: ["a://1"] },
          _meta: meta,
        },
      },
    ]);
    expect(server.resourceUpdated("a://2")).toBe(0);
    expect(server.resourceUpdated("a://1")).toBe(1);
    expect(server.listChanged("resources")).toBe(3);
    expect(sent.slice(1).map((n) => [n.method, n.params])).toEqual([
      ["notifications/resources/updated", { uri: "a://1", _meta: meta }],
      ["notifications/resources/list_changed", { _meta: meta }],
    ]);
    abort.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.at(-1)).toEqual({ _meta: meta });
    expect(server.resourceUpdated("a://1")).toBe(0);
  });
});
