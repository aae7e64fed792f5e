// A spec bump: the newest revision is a new stateless one ("2026-12-01": the real 2026-07-28
// schema.ts with its own protocol version, an optional result field on tools/call and a new
// request method). ONE server generated for [2026-12-01, 2026-07-28, 2025-11-25], handlers
// written once against 2026-12-01, keeps serving clients of 2026-07-28 per request (the v2
// SDK client 2.4.0 in its modern mode among them) and legacy clients through initialize
// (the v1 SDK client 1.32.2), on one HTTP endpoint.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { createMcpHandler, McpServer as V2Server } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEras } from "../src/cli/commands.js";
import { generate } from "../src/generators/emit/index.js";
import prettier from "prettier";
import { initProject } from "../src/generators/init/project.js";
import { fakeSpec, SPEC_DIR, tempDir, writeGenerated } from "./helpers.js";

type Any = any;
const NEW = "2026-12-01";
const OLD = "2026-07-28";
const LEGACY = "2025-11-25";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

const schemaOf = (revision: string) =>
  readFileSync(join(SPEC_DIR, "schema", revision, "schema.ts"), "utf8");

/** 2026-07-28's schema.ts with the edits a spec bump might bring; each edit must apply. */
function bumpedSchema(): string {
  const edits: [string, string][] = [
    [
      `export const LATEST_PROTOCOL_VERSION = "${OLD}";`,
      `export const LATEST_PROTOCOL_VERSION = "${NEW}";`,
    ],
    [
      "export interface CallToolResult extends Result {\n",
      "export interface CallToolResult extends Result {\n  /** What the call cost, in the server's units. */\n  cost?: number;\n\n",
    ],
    [
      "export type ClientRequest =\n",
      [
        "/** Asks the server how it is. */",
        "export interface HealthRequest extends JSONRPCRequest {",
        '  method: "server/health";',
        "  params: RequestParams;",
        "}",
        "",
        "/** The server's health. */",
        "export interface HealthResult extends Result {",
        '  status: "ok" | "degraded";',
        "}",
        "",
        "/** @internal */",
        "export type ClientRequest =\n  | HealthRequest\n",
      ].join("\n"),
    ],
    ["export type ServerResult =\n", "export type ServerResult =\n  | HealthResult\n"],
  ];
  return edits.reduce((text, [from, to]) => {
    if (!text.includes(from))
      throw new Error(`the 2026-07-28 schema.ts no longer has ${JSON.stringify(from)}`);
    return text.replace(from, to);
  }, schemaOf(OLD));
}

let files: Awaited<ReturnType<typeof generate>>;
let server: { url: string; close(): Promise<void> };
let dispatcher: Any;
let eras: Any;
let oldValidators: Any;
let generated: { client: Any; httpClient: Any; dispatcher: Any };

const meta = (version: string) => ({
  [VERSION_KEY]: version,
  "io.modelcontextprotocol/clientCapabilities": {},
});
const request = (version: string, method: string, params: object = {}, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: meta(version) },
});

let spec: string;

beforeAll(async () => {
  spec = fakeSpec(bumpedSchema(), NEW);
  for (const revision of [OLD, LEGACY]) {
    mkdirSync(join(spec, "schema", revision));
    writeFileSync(join(spec, "schema", revision, "schema.ts"), schemaOf(revision));
  }
  const { loaded, legacy } = loadEras(spec, [NEW, OLD, LEGACY]);
  files = await generate(loaded, undefined, { legacy });
  const dir = writeGenerated(files);
  const [d, http, client, httpClient, erasModule, validators] = await Promise.all(
    [
      "dispatcher.js",
      "http-server.js",
      "client.js",
      "http-client.js",
      "eras.js",
      `modern/${OLD}/validators.js`,
    ].map((m) => import(join(dir, m))),
  );
  generated = { client, httpClient, dispatcher: d };
  eras = erasModule.ERAS;
  oldValidators = validators;
  dispatcher = d.createServerDispatcher(
    {
      "tools/list": () => ({
        tools: [{ name: "add", inputSchema: { type: "object" } }],
        ttlMs: 0,
        cacheScope: "public",
      }),
      "tools/call": (params: Any, ctx: Any) => ({
        content: [{ type: "text", text: `${params.name} at ${ctx.protocolVersion}` }],
        cost: 3,
      }),
      "server/health": () => ({ status: "ok" }),
    },
    { serverInfo: { name: "bumped", version: "1.0.0" } },
  );
  server = await http.serveHttp(dispatcher);
});
afterAll(() => server?.close());

describe("a server generated after a spec bump", () => {
  it("lays out the previous stateless revision as a modern era, with its adapters derived from the two models", () => {
    expect(eras.modern.protocol.protocolVersion).toBe(NEW);
    expect(eras.previous.map((e: Any) => e.protocol.protocolVersion)).toEqual([OLD]);
    expect(eras.legacy.map((e: Any) => e.protocol.protocolVersion)).toEqual([LEGACY]);
    expect(eras.previous[0].adapters["tools/call"]).toEqual({ dropResultFields: ["cost"] });
    expect(eras.previous[0].protocol.methods["server/health"]).toBeUndefined();
    expect(eras.modern.protocol.methods["server/health"]).toBeDefined();
  });

  // Type-checking this output under the strict flags takes 30-50 s here; the same eras.ts
  // shape (with an empty `previous`) is compiled by every init project's build.
  it("prints eras.ts as prettier would, importing the previous revision from modern/<revision>/", async () => {
    const erasTs = files.find((f) => f.path === "eras.ts")!.content;
    expect(await prettier.format(erasTs, { parser: "babel-ts", printWidth: 100 })).toBe(erasTs);
    expect(erasTs).toContain(`from "./modern/${OLD}/protocol.js"`);
    expect(
      files
        .map((f) => f.path)
        .filter((p) => p.startsWith(`modern/${OLD}/`))
        .sort(),
    ).toEqual(
      ["methods.ts", "protocol.ts", "types.ts", "validators.ts"].map((f) => `modern/${OLD}/${f}`),
    );
  });

  it("answers a 2026-07-28 request with a result valid under 2026-07-28, the new field dropped", async () => {
    const reply = await dispatcher.handle(request(OLD, "tools/call", { name: "add" }));
    expect(reply.result.content).toEqual([{ type: "text", text: `add at ${OLD}` }]);
    expect(reply.result).not.toHaveProperty("cost");
    expect(oldValidators.validateMethodResult("tools/call", reply.result)).toMatchObject({
      ok: true,
    });
    // The same request at the new revision keeps the field.
    const newer = await dispatcher.handle(request(NEW, "tools/call", { name: "add" }));
    expect(newer.result).toMatchObject({
      cost: 3,
      content: [{ type: "text", text: `add at ${NEW}` }],
    });
  });

  it("serves a method only the new revision has at that revision, and answers method not found at 2026-07-28", async () => {
    expect(await dispatcher.handle(request(NEW, "server/health"))).toMatchObject({
      result: { status: "ok", resultType: "complete" },
    });
    expect(await dispatcher.handle(request(OLD, "server/health"))).toMatchObject({
      error: { code: -32601 },
    });
  });

  it("lists every per-request version, newest first, in server/discover and the unsupported-version error", async () => {
    const discovered = await dispatcher.handle(request(OLD, "server/discover"));
    expect(discovered.result.supportedVersions).toEqual([NEW, OLD]);
    expect(oldValidators.validateMethodResult("server/discover", discovered.result)).toMatchObject({
      ok: true,
    });
    const refused = await dispatcher.handle(request("2026-01-01", "tools/list"));
    expect(refused).toMatchObject({
      error: { code: -32022, data: { supported: [NEW, OLD], requested: "2026-01-01" } },
    });
    expect(dispatcher.supportedVersions).toEqual([NEW, OLD, LEGACY]);
  });

  it("serves the v2 SDK client 2.4.0 (modern, 2026-07-28) over HTTP", async () => {
    const client = new V2Client(
      { name: "v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new V2HttpTransport(new URL(server.url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add"]);
    const result = await client.callTool({ name: "add", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: `add at ${OLD}` }]);
    expect(result).not.toHaveProperty("cost");
    await client.close();
  });

  it("serves the v1 SDK client 1.32.2 through initialize, at 2025-11-25", async () => {
    const client = new V1Client({ name: "v1", version: "1.0.0" });
    await client.connect(new V1HttpTransport(new URL(server.url)));
    expect(client.getServerVersion()).toEqual({ name: "bumped", version: "1.0.0" });
    const result = await client.callTool({ name: "add", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: `add at ${LEGACY}` }]);
    expect(result).not.toHaveProperty("cost");
    await client.close();
  });

  it("serves mcp-gen's own client of the new revision over HTTP", async () => {
    const client = generated.client.createClient({
      transport: generated.httpClient.createHttpTransport({ url: server.url }),
    });
    expect(await client.callTool({ name: "add" })).toMatchObject({
      cost: 3,
      content: [{ type: "text", text: `add at ${NEW}` }],
    });
    expect(await client.request("server/health", {})).toMatchObject({ status: "ok" });
  });
});

/** The v2 SDK 2.4.0 server, modern only: it speaks 2026-07-28 and nothing newer. */
async function sdkServer(): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(
    () => {
      const server = new V2Server({ name: "v2-server", version: "2.4.0" });
      server.registerTool("plain", { description: "Answers" }, async () => ({
        content: [{ type: "text", text: "plain" }],
      }));
      return server;
    },
    { legacy: "reject" },
  );
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const body = chunks.length > 0 ? { body: Buffer.concat(chunks) } : {};
    const response = await handler.fetch(
      new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method!,
        headers,
        ...body,
      }),
    );
    const text = await response.text(); // a plain tool's answer ends its stream: buffering is safe
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(text);
  };
  const http = createServer(
    (req, res) => void serve(req, res).catch((e) => res.writeHead(500).end(String(e))),
  );
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}

describe("the client generated after a spec bump", () => {
  it("meets a server that speaks only 2026-07-28 (the v2 SDK's): retries at 2026-07-28, and refuses methods 2026-07-28 lacks before sending", async () => {
    const sdk = await sdkServer();
    try {
      const client = generated.client.createClient({
        transport: generated.httpClient.createHttpTransport({ url: sdk.url }),
      });
      expect(await client.era()).toBe("modern");
      const result = await client.callTool({ name: "plain", arguments: {} });
      expect(result).toMatchObject({
        content: [{ type: "text", text: "plain" }],
        resultType: "complete",
      });
      await expect(client.request("server/health", {})).rejects.toMatchObject({
        name: "EraUnsupportedError",
        era: OLD,
      });
      // Offering only the newest version, as before: the server's refusal reaches the caller.
      const strict = generated.client.createClient({
        transport: generated.httpClient.createHttpTransport({ url: sdk.url }),
        era: "modern",
        supportedVersions: [NEW],
      });
      await expect(strict.callTool({ name: "plain", arguments: {} })).rejects.toMatchObject({
        code: -32022,
        data: { supported: [OLD] },
      });
    } finally {
      await sdk.close();
    }
  });
});

describe("mcp-gen init after a spec bump", () => {
  it("bootstraps a server that also serves the previous stateless release and the initialize-based ones", async () => {
    const dir = join(tempDir(), "bumped-server");
    await initProject(dir, { spec, revision: NEW });
    const config = JSON.parse(readFileSync(join(dir, "mcp-gen.config.json"), "utf8"));
    expect(config.revisions).toEqual([NEW, OLD, LEGACY]);
    // An init project generates js+dts: each revision's validators as JavaScript and declarations.
    expect(config.target).toBe("js+dts");
    for (const folder of [join("modern", OLD), join("legacy", LEGACY)])
      for (const file of ["validators.js", "validators.d.ts"])
        expect(existsSync(join(dir, "src", "mcp", folder, file)), `${folder}/${file}`).toBe(true);
  });
});
