// examples/side-by-side run: the bookshop written with mcp-gen (with-mcp-gen.ts) and with the
// v2 SDK 2.4.0 (with-sdk.ts), each served over HTTP on loopback, both called by the v2 SDK
// client 2.4.0 (calls.ts, a real peer): the same tools, the same answer to every valid call,
// and invalid arguments refused by both with a tool execution error naming the problem. Then
// mistakes.ts's tool, whose structuredContent does not match its outputSchema: both servers
// refuse to send it. The example's files run here as the strict type-check leaves them
// (packages/cli/test/side-by-side-example.test.ts, e2e, type-checks them with the example's own
// generation and runs main.ts), against the default generation for 2026-07-28, which every
// test file of the worker shares: a few seconds, no type-check.
import { cpSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { serve as serveNode } from "@hono/node-server";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedFiles, ROOT, tempDir, writeFiles } from "./helpers.js";

const EXAMPLE = join(ROOT, "examples", "side-by-side");

type Served = { url: string; close: () => Promise<void> };
type Answer = {
  content: { type: string; text: string }[];
  structuredContent?: unknown;
  isError?: boolean;
};
type Arguments = Record<string, unknown>;
interface Modules {
  withMcpGen: { serve(port: number): Promise<Served> };
  withSdk: { serve(port: number): Promise<Served> };
  calls: {
    VALID: [string, Arguments][];
    INVALID: [string, Arguments, RegExp][];
    callTools(
      url: string,
      calls: [string, Arguments, ...unknown[]][],
    ): Promise<{ tools: string[]; answers: Answer[] }>;
  };
  shop: { findBooks(query: string, limit: number): { titles: string[]; total: number } };
  mistakes: { wrongSearch: unknown; registerWrongSearch(server: McpServer): void };
  dispatcher: {
    createServerDispatcher(handlers: object, options: object): unknown;
    defineTools(tools: unknown[], options: object): object;
  };
  http: { serveHttp(dispatcher: unknown, options: { port: number }): Promise<Served> };
}

const servers: Served[] = [];
let modules: Modules;
let urls: { mcpGen: string; sdk: string };

/**
 * The example's files beside the generated code (./mcp) in a temporary folder, imported as
 * TypeScript (vitest strips the types, as it does for the tests themselves); their modules.
 */
async function importExample(): Promise<Modules> {
  const dir = tempDir("mcp-gen-side-by-side-");
  writeFiles(join(dir, "mcp"), await generatedFiles("2026-07-28"));
  cpSync(EXAMPLE, dir, { recursive: true });
  // The SDKs, @hono/node-server and zod, as the example's package.json installs them.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const load = (file: string) => import(join(dir, file));
  return {
    withMcpGen: await load("with-mcp-gen.ts"),
    withSdk: await load("with-sdk.ts"),
    calls: await load("calls.ts"),
    shop: await load("shop.ts"),
    mistakes: await load("mistakes.ts"),
    dispatcher: await load("mcp/dispatcher.ts"),
    http: await load("mcp/http-server.ts"),
  };
}

/** Keeps a server to close after the tests; its URL. */
function kept(served: Served): string {
  servers.push(served);
  return served.url;
}

beforeAll(async () => {
  modules = await importExample();
  urls = {
    mcpGen: kept(await modules.withMcpGen.serve(0)),
    sdk: kept(await modules.withSdk.serve(0)),
  };
});
afterAll(() => Promise.all(servers.map((served) => served.close())));

describe("examples/side-by-side: the same server with mcp-gen and with the v2 SDK", () => {
  it("lists the same tools and answers every valid call the same", async () => {
    const { VALID, callTools } = modules.calls;
    const mcpGen = await callTools(urls.mcpGen, VALID);
    const sdk = await callTools(urls.sdk, VALID);
    expect(mcpGen.tools).toEqual(["search_books", "order_pizza", "divide"]);
    expect(sdk.tools).toEqual(mcpGen.tools);
    expect(sdk.answers).toEqual(mcpGen.answers);
    // What they agree on is what the tools do: the first call, search_books({ query: "e" }),
    // with limit's default (3) applied by both; the division by zero an isError result.
    const found = modules.shop.findBooks("e", 3);
    expect(mcpGen.answers[0]).toEqual({
      content: [{ type: "text", text: found.titles.join(", ") }],
      structuredContent: found,
    });
    expect(mcpGen.answers.at(-1)).toEqual({
      content: [{ type: "text", text: "Cannot divide by zero" }],
      isError: true,
    });
  });

  it("refuses invalid arguments with a tool execution error naming the problem, on both", async () => {
    const { INVALID, callTools } = modules.calls;
    for (const url of [urls.mcpGen, urls.sdk]) {
      const { answers } = await callTools(url, INVALID);
      INVALID.forEach(([name, args, problem], i) => {
        const answer = answers[i]!;
        const label = `${url} ${name}(${JSON.stringify(args)})`;
        expect(answer.isError, label).toBe(true);
        expect(answer.content, label).toHaveLength(1);
        const { text } = answer.content[0]!;
        expect(text, label).toMatch(
          new RegExp(`^Input validation error: Invalid arguments for tool ${name}: `),
        );
        expect(text, label).toMatch(problem);
      });
    }
  });

  it("mistakes.ts: both refuse to send a structuredContent that does not match outputSchema", async () => {
    const { dispatcher, http, mistakes, calls } = modules;
    const mcpGen = kept(
      await http.serveHttp(
        dispatcher.createServerDispatcher(
          dispatcher.defineTools([mistakes.wrongSearch], {
            list: { ttlMs: 0, cacheScope: "private" },
          }),
          { serverInfo: { name: "bookshop", version: "1.0.0" } },
        ),
        { port: 0 },
      ),
    );
    const sdk = kept(await serveSdk(mistakes.registerWrongSearch));
    const call: [string, Arguments] = ["search_books", { query: "Dune" }];
    const [fromMcpGen] = (await calls.callTools(mcpGen, [call])).answers;
    const [fromSdk] = (await calls.callTools(sdk, [call])).answers;
    // The same refusal, the path to the problem written as each writes it; the page shows both.
    const page = readFileSync(join(ROOT, "docs", "guide", "side-by-side.md"), "utf8");
    for (const [who, answer, path] of [
      ["mcp-gen: ", fromMcpGen, "/total"],
      ["v2 SDK:  ", fromSdk, "total"],
    ] as const) {
      const text = `Output validation error: Invalid structured content for tool search_books: ${path}: Invalid input: expected number, received string`;
      expect(answer).toEqual({ content: [{ type: "text", text }], isError: true });
      expect(page).toContain(`\n${who}${text}\n`);
    }
  });
});

/** A v2 SDK server of the tools `register` registers, served as with-sdk.ts serves its own. */
function serveSdk(register: (server: McpServer) => void): Promise<Served> {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "bookshop", version: "1.0.0" });
    register(server);
    return server;
  });
  return new Promise((resolve) => {
    const http = serveNode(
      { fetch: (request) => handler.fetch(request), port: 0, hostname: "127.0.0.1" },
      (info) =>
        resolve({
          url: `http://127.0.0.1:${info.port}/mcp`,
          close: () => new Promise((closed) => http.close(() => closed())),
        }),
    );
  });
}
