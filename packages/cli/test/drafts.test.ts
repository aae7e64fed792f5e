// A spec draft (packages/cli/test/fixtures/draft-schema.ts: the real 2026-07-28 with documented edits)
// must generate with no change to mcp-gen, compile under the strict flags together with typed
// code that uses each new bit, and behave: the generated client against the generated
// dispatcher, against the same dispatcher serving a 2025-11-25 (legacy) client over HTTP, and
// against a server of 2026-07-28, the release the draft follows (served beside it).
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, relative, resolve } from "node:path";
import { existsSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, type OutputFile } from "../src/generators/emit/index.js";
import { RESULT_FIELDS_WITH_DEFAULTS } from "../src/generators/emit/eras.js";
import { loadRevision } from "../src/schema/index.js";
import { MODERN_RESULT_DEFAULTS } from "../../runtime/src/client/versions.js";
import { applyEdits, DRAFT_EDITS, REQUIRED_CAPABILITY_EDITS } from "./fixtures/draft-schema.js";
import {
  cli,
  fakeSpec,
  SPEC_DIR,
  STRICT_OPTIONS,
  tempDir,
  typecheck,
  writeFiles,
  writeGenerated,
} from "./helpers.js";
import { itCompiles } from "./support/compile.js";

type Any = any;
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const info = { name: "draft", version: "1.0.0" };

/**
 * Typed use of the draft's new bits, compiled with the output. Each `@ts-expect-error` marks
 * a mistake the types must catch (an unused directive is itself an error).
 */
const USAGE = `
import { createServerDispatcher, type ServerDispatcherOptions } from "./dispatcher.js";
import { createClient, createDirectTransport } from "./client.js";
import type * as T from "./types.js";

const info = { name: "usage", version: "1.0.0" };
const handlers = {
  "tools/validate": (p: { name: string }) => ({ valid: p.name.length > 0 }),
  // Older revisions' resources/read requests lack the draft's required at: optional here.
  "resources/read": (p: { uri: string; at?: string }) => ({ contents: [{ uri: p.uri, text: p.at ?? "latest" }], ttlMs: 0, cacheScope: "public" as const }),
  "things/find": (p: T.FindByNameParams | T.FindByUriParams) => ({ found: "name" in p ? p.name : p.uri }),
};
// @ts-expect-error at may be missing (a 2025-11-25 client's request)
createServerDispatcher({ "resources/read": (p) => ({ contents: [{ uri: p.uri, text: p.at.toUpperCase() }], ttlMs: 0, cacheScope: "public" as const }) }, { discoverFields: { serverInfo: info } });
// @ts-expect-error server/discover requires serverInfo, which the dispatcher cannot fill
createServerDispatcher(handlers, { serverInfo: info });
const fields: ServerDispatcherOptions["discoverFields"] = { serverInfo: info };
const server = createServerDispatcher(handlers, { serverInfo: info, discoverFields: fields });
// A server answering server/discover itself needs no discoverFields.
createServerDispatcher({ "server/discover": () => ({ supportedVersions: [], capabilities: {}, serverInfo: info, ttlMs: 0, cacheScope: "public" as const }) });

const transport = createDirectTransport((m, ctx) => server.handle(m, ctx));
// @ts-expect-error the draft's requests must carry clientInfo
createClient({ transport });
const client = createClient({
  transport,
  clientInfo: info,
  inputHandlers: { "elicitation/confirm": (p: { message: string }): T.ConfirmResult => ({ confirmed: p.message !== "" }) },
});

export async function use(): Promise<void> {
  const valid: boolean = (await client.validateTool({ name: "x" })).valid;
  const text: string = (await client.renderPrompt({ name: "x" })).text;
  const found: string = (await client.findThing({ uri: "x:/y" })).found;
  const status: "ok" | "degraded" = (await client.health()).status;
  const called = await client.callTool({ name: "x" });
  // Older revisions' tools/call results lack the draft's required cost: optional here.
  const cost: number | undefined = called.cost;
  // @ts-expect-error cost may be missing
  const always: number = called.cost;
  void [valid, text, found, status, cost, always];
}
`;

let files: OutputFile[];
let requiredFiles: OutputFile[];
/** Both drafts in one program, made by the first test that asks (tagged compile). */
let diagnostics: { draft: string[]; required: string[] } | undefined;
function typechecked(): { draft: string[]; required: string[] } {
  if (!diagnostics) {
    const [draft, required] = typecheckTogether([
      { files, usage: USAGE },
      { files: requiredFiles, usage: REQUIRED_USAGE },
    ]) as [string[], string[]];
    diagnostics = { draft, required };
  }
  return diagnostics;
}
let d: Any;
let c: Any;
let m: Any;
let http: { url: string; close(): Promise<void> };
let httpClient: Any;

const served = () => ({
  "tools/validate": (p: Any) => ({ valid: p.name === "ok" }),
  "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
  "prompts/render": (p: Any, ctx: Any) => {
    const who = ctx.inputResponse("who", "elicitation/create");
    if (!who)
      return d.inputRequired(ctx, {
        inputRequests: {
          who: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Who?",
              requestedSchema: { type: "object", properties: { n: { type: "string" } } },
            },
          },
        },
      });
    return { text: `${p.name} for ${who.content.n}` };
  },
  "tools/call": (p: Any, ctx: Any) => {
    if (p.name !== "rm") return { content: [{ type: "text", text: p.name }], cost: 3 };
    const answer = ctx.inputResponse("sure", "elicitation/confirm");
    if (!answer)
      return d.inputRequired(ctx, {
        inputRequests: { sure: { method: "elicitation/confirm", params: { message: "Delete?" } } },
      });
    return { content: [{ type: "text", text: answer.confirmed ? "deleted" : "kept" }], cost: 1 };
  },
  "things/find": (p: Any) => ({ found: "name" in p ? `n:${p.name}` : `u:${p.uri}` }),
  "server/health": (_p: unknown, ctx: Any) => ({ status: ctx.protocolVersion ? "ok" : "degraded" }),
  "resources/read": (p: Any) => ({
    contents: [{ uri: p.uri, text: p.at ?? "no version" }],
    ttlMs: 0,
    cacheScope: "public",
  }),
});

/** Typed use of a draft whose capabilities have required fields (REQUIRED_CAPABILITY_EDITS). */
const REQUIRED_USAGE = `
import { createServerDispatcher } from "./dispatcher.js";
import { createClient, createDirectTransport } from "./client.js";
const info = { name: "usage", version: "1.0.0" };
// @ts-expect-error the capabilities are required: derived ones would lack region
createServerDispatcher({ "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" as const }) });
const server = createServerDispatcher({}, { capabilities: { region: "eu" } });
const transport = createDirectTransport((m, ctx) => server.handle(m, ctx));
// @ts-expect-error the capabilities are required: input handlers cannot imply ui
createClient({ transport, clientInfo: info });
export const client = createClient({ transport, clientInfo: info, capabilities: { ui: "text" } });
`;

/**
 * Type-checks each output with its usage file in one program. Runtime modules are mcp-gen's
 * runtime/*.ts behind a header naming the schema, and import only each other: a later
 * output's import of one resolves to the first output's copy when the two differ only in
 * that header, so it is checked once. Returns each output's diagnostics.
 */
function typecheckTogether(outputs: { files: OutputFile[]; usage: string }[]): string[][] {
  const root = tempDir("mcp-gen-draft-");
  const dirs = outputs.map((_, i) => join(root, String(i)));
  const body = (content: string) => content.slice(content.indexOf("\n") + 1);
  const runtime = (o: { files: OutputFile[] }) =>
    o.files.filter((f) => f.path.startsWith("runtime/"));
  const first = new Map(runtime(outputs[0]!).map((f) => [f.path, body(f.content)]));
  const shared = outputs.map(
    (o, i) =>
      new Set(
        i === 0
          ? []
          : runtime(o)
              .filter((f) => first.get(f.path) === body(f.content))
              .map((f) => f.path),
      ),
  );
  const rootNames: string[] = [];
  outputs.forEach((o, i) => {
    writeFiles(dirs[i]!, o.files);
    writeFileSync(join(dirs[i]!, "usage.ts"), o.usage);
    rootNames.push(
      ...o.files.filter((f) => !shared[i]!.has(f.path)).map((f) => join(dirs[i]!, f.path)),
      join(dirs[i]!, "usage.ts"),
    );
  });
  const owner = (file: string) => dirs.findIndex((dir) => file.startsWith(`${dir}/`));
  const redirect = (specifier: string, containingFile: string) => {
    const i = owner(containingFile);
    if (i <= 0 || !specifier.startsWith(".")) return undefined;
    const path = relative(dirs[i]!, resolve(dirname(containingFile), specifier)).replace(
      /\.js$/,
      ".ts",
    );
    return shared[i]!.has(path) ? join(dirs[0]!, path) : undefined;
  };
  const lines = typecheck(rootNames, STRICT_OPTIONS, redirect);
  // A line in a shared runtime module concerns every output sharing it; one outside every output (a lib's), all.
  const sharedLine = (line: string, i: number) =>
    [...shared[i]!].some((path) => line.startsWith(`${join(dirs[0]!, path)}:`));
  return outputs.map((_, i) =>
    lines.filter((line) => [i, -1].includes(owner(line)) || sharedLine(line, i)),
  );
}

beforeAll(async () => {
  const spec = fakeSpec(applyEdits(SPEC_DIR, "2026-07-28", DRAFT_EDITS), "draft");
  const older = ["2026-07-28", "2025-11-25"].map((r) => loadRevision(SPEC_DIR, r));
  files = await generate(loadRevision(spec, "draft"), undefined, { legacy: older });
  const required = fakeSpec(applyEdits(SPEC_DIR, "2026-07-28", REQUIRED_CAPABILITY_EDITS), "draft");
  requiredFiles = await generate(loadRevision(required, "draft"));
  const js = writeGenerated(files);
  [d, c, m] = await Promise.all(
    ["dispatcher.js", "client.js", "methods.js"].map((f) => import(join(js, f))),
  );
  const [httpServer, httpClientModule] = await Promise.all(
    ["http-server.js", "http-client.js"].map((f) => import(join(js, f))),
  );
  httpClient = httpClientModule;
  http = await httpServer.serveHttp(
    d.createServerDispatcher(served(), { serverInfo: info, discoverFields: { serverInfo: info } }),
  );
}, 300_000);
afterAll(() => http?.close());

const connect = (server: Any, extra: object = {}) =>
  c.createClient({
    transport: c.createDirectTransport((msg: Any, ctx: Any) => server.handle(msg, ctx)),
    clientInfo: info,
    ...extra,
  });

describe("a spec draft generates code that compiles", () => {
  itCompiles(
    "compiles under --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes, with typed use of the new methods and options",
    () => {
      expect(typechecked().draft).toEqual([]);
    },
  );

  it("records each gate's path and how it is declared (object or boolean), through named capability types", () => {
    expect(m.METHODS["tools/validate"].capabilities).toEqual({
      "client->server": { side: "server", path: ["tools", "validate"], leaf: "boolean" },
    });
    expect(m.METHODS["prompts/render"].capabilities).toEqual({
      "client->server": { side: "server", path: ["prompts", "render"], leaf: "object" },
    });
    expect(m.METHODS["prompts/render"].inputRequired).toBe(true);
    expect(m.METHODS["notifications/resources/list_changed"].capabilities).toEqual({
      "server->client": { side: "server", path: ["resources", "listChanged"], leaf: "boolean" },
    });
    expect(m.INPUT_REQUESTS["elicitation/confirm"].capability).toEqual({
      path: ["elicitation", "confirm"],
      leaf: "boolean",
    });
  });
});

describe("a spec draft's generated code behaves", () => {
  it("advertises nested capabilities as the schema types them, with the discover fields the server gives", async () => {
    const server = d.createServerDispatcher(served(), {
      serverInfo: info,
      discoverFields: { serverInfo: info },
    });
    const discovered = await connect(server).discover();
    expect(discovered.capabilities).toEqual({
      tools: { validate: true },
      prompts: { render: {} },
      resources: {},
      logging: {},
    });
    expect(discovered.serverInfo).toEqual(info);
    // A server answering server/discover itself is asked nothing more.
    const own = d.createServerDispatcher({
      "server/discover": () => ({
        supportedVersions: ["x"],
        capabilities: {},
        serverInfo: info,
        ttlMs: 0,
        cacheScope: "public",
      }),
    });
    expect((await connect(own).discover()).supportedVersions).toEqual(["x"]);
  });

  it("declares a boolean input-request capability as true, and takes an explicit false as not declared", async () => {
    const server = d.createServerDispatcher(served(), { discoverFields: { serverInfo: info } });
    const sent: Any[] = [];
    const spy = {
      handle: (msg: Any, ctx: Any) => (
        sent.push(msg.params?._meta?.[CAPABILITIES_KEY]),
        server.handle(msg, ctx)
      ),
    };
    const confirm = (p: Any) => ({ confirmed: p.message === "Delete?" });
    const client = connect(spy, { inputHandlers: { "elicitation/confirm": confirm } });
    expect((await client.callTool({ name: "rm" })).content).toEqual([
      { type: "text", text: "deleted" },
    ]);
    // The Tasks extension is declared on every modern request (the client polls tasks).
    expect(sent[0]).toEqual({
      elicitation: { confirm: true },
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    const refusing = connect(server, {
      inputHandlers: { "elicitation/confirm": confirm },
      capabilities: { elicitation: { confirm: false } },
    });
    await expect(refusing.callTool({ name: "rm" })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { confirm: true } } },
    });
  });

  it("round-trips the new request shapes: input_required, union params, no params", async () => {
    const server = d.createServerDispatcher(served(), { discoverFields: { serverInfo: info } });
    const client = connect(server, {
      inputHandlers: { "elicitation/create": () => ({ action: "accept", content: { n: "Ada" } }) },
    });
    expect((await client.renderPrompt({ name: "hi" })).text).toBe("hi for Ada");
    expect((await client.findThing({ name: "a" })).found).toBe("n:a");
    expect((await client.findThing({ uri: "x:/b" })).found).toBe("u:x:/b");
    await expect(client.request("things/find", { other: 1 })).rejects.toMatchObject({
      code: -32602,
    });
    expect((await client.validateTool({ name: "ok" })).valid).toBe(true);
    expect((await client.health()).status).toBe("ok");
    const bare = await server.handle({ jsonrpc: "2.0", id: 9, method: "server/health" });
    expect(bare.result.status).toBe("degraded");
  });

  it("serves and reads the other era without the fields the draft made required: a legacy result without cost, a legacy request without at", async () => {
    const legacy = c.createClient({
      transport: httpClient.createHttpTransport({ url: http.url }),
      clientInfo: info,
      era: "legacy",
    });
    const modern = c.createClient({
      transport: httpClient.createHttpTransport({ url: http.url }),
      clientInfo: info,
      era: "modern",
    });
    try {
      const old = await legacy.callTool({ name: "x" });
      expect(old).toMatchObject({ content: [{ type: "text", text: "x" }], resultType: "complete" });
      expect(old).not.toHaveProperty("cost");
      const now = await modern.callTool({ name: "x" });
      expect(now).toMatchObject({ cost: 3, _meta: { "io.modelcontextprotocol/serverInfo": info } });
      // A request as a 2025-11-25 client sends it, without the draft's required at.
      expect((await legacy.request("resources/read", { uri: "x:/a" })).contents).toEqual([
        { uri: "x:/a", text: "no version" },
      ]);
      expect((await modern.readResource({ uri: "x:/a", at: "v2" })).contents).toEqual([
        { uri: "x:/a", text: "v2" },
      ]);
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it("takes a 2026-07-28 server for modern: its server/discover answer, at 2026-07-28, lacks what the draft requires", async () => {
    // A 2026-07-28-only server: refuses other versions with the versions it speaks.
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk));
      req.on("end", () => {
        const msg = JSON.parse(body);
        const version = msg.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
        seen.push(`${msg.method}@${version}`);
        const reply = (status: number, fields: object) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, ...fields }));
        };
        if (version !== "2026-07-28")
          return reply(400, {
            error: {
              code: -32022,
              message: "Unsupported protocol version",
              data: { supported: ["2026-07-28"], requested: version },
            },
          });
        if (msg.method === "server/discover")
          return reply(200, {
            result: {
              supportedVersions: ["2026-07-28"],
              capabilities: { tools: {} },
              ttlMs: 0,
              cacheScope: "public",
              resultType: "complete",
            },
          });
        return reply(200, {
          result: { content: [{ type: "text", text: "at 2026-07-28" }], resultType: "complete" },
        });
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const client = c.createClient({
      transport: httpClient.createHttpTransport({ url }),
      clientInfo: info,
    });
    try {
      expect(await client.era()).toBe("modern");
      expect((await client.callTool({ name: "x" })).content).toEqual([
        { type: "text", text: "at 2026-07-28" },
      ]);
      expect(seen).toEqual([
        "server/discover@DRAFT-2026-v1",
        "server/discover@2026-07-28",
        "tools/call@2026-07-28",
      ]);
    } finally {
      server.close();
    }
  });

  it("the generator's list of result fields with defaults is the client's", () => {
    expect([...RESULT_FIELDS_WITH_DEFAULTS].sort()).toEqual(
      Object.keys(MODERN_RESULT_DEFAULTS).sort(),
    );
  });
});

describe("a draft whose capabilities have required fields", () => {
  let out: { d: Any; c: Any };
  beforeAll(async () => {
    const js = writeGenerated(requiredFiles);
    const [d, c] = await Promise.all(
      ["dispatcher.js", "client.js"].map((f) => import(join(js, f))),
    );
    out = { d, c };
  }, 300_000);

  itCompiles("compiles, with both sides made to give them", () => {
    expect(typechecked().required).toEqual([]);
  });

  it("round-trips with the capabilities given", async () => {
    const server = out.d.createServerDispatcher(
      {
        "tools/call": (_p: Any, ctx: Any) => ({
          content: [{ type: "text", text: ctx.clientCapabilities.ui }],
        }),
      },
      { capabilities: { region: "eu", tools: {} } },
    );
    const client = out.c.createClient({
      transport: out.c.createDirectTransport((m: Any, ctx: Any) => server.handle(m, ctx)),
      clientInfo: info,
      capabilities: { ui: "text" },
    });
    expect((await client.discover()).capabilities).toEqual({
      region: "eu",
      tools: {},
      logging: {},
    });
    expect((await client.callTool({ name: "x" })).content).toEqual([
      { type: "text", text: "text" },
    ]);
  });
});

describe("a draft no client can be generated for", () => {
  it("a required request _meta key no role fills (protocolVersion renamed): one located line, exit 1, nothing written; the server side still generates", () => {
    const renamed = {
      why: "protocolVersion renamed",
      from: '"io.modelcontextprotocol/protocolVersion": string;',
      to: '"io.modelcontextprotocol/version": string;',
    };
    const schema = applyEdits(SPEC_DIR, "2026-07-28", [renamed]);
    const spec = fakeSpec(schema, "draft");
    const out = join(tempDir(), "out");
    const r = cli(["generate", "--spec", spec, "--revision", "draft", "--out", out]);
    expect(r.status).toBe(1);
    const line =
      schema.split("\n").findIndex((l) => l.includes('"io.modelcontextprotocol/version"')) + 1;
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        new RegExp(
          `schema\\.ts:${line}:3: requests must carry _meta key "io\\.modelcontextprotocol/version", which the generated client cannot fill`,
        ),
      ),
    ]);
    expect(existsSync(out)).toBe(false);
    expect(
      cli([
        "generate",
        "--spec",
        spec,
        "--revision",
        "draft",
        "--out",
        out,
        "--generators",
        "dispatcher",
      ]).status,
    ).toBe(0);
  });
});
