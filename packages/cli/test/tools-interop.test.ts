// defineTools against real clients: ONE generated dual-era server (2026-07-28, and 2025-11-25
// through initialize) whose tools come from the generated dispatcher's defineTools, validated
// with the ajv adapter README recommends, called by the v1 SDK client 1.32.2 (legacy session)
// and the v2 SDK client 2.4.0 (modern, per request). Invalid arguments must reach them as a
// tool execution error they can show the model, an unknown tool as the SDK servers' -32602.
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";
import { validate } from "./support/ajv-validate.js";

type Any = any;
let server: { url: string; close(): Promise<void> };
const serverErrors: unknown[] = [];

beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const dir = writeGenerated(files);
  const [dispatcher, http] = await Promise.all(
    ["dispatcher.js", "http-server.js"].map((m) => import(join(dir, m))),
  );
  const tools = dispatcher.defineTools(
    [
      {
        tool: {
          name: "add",
          description: "Adds two numbers",
          inputSchema: {
            type: "object",
            properties: { a: { type: "number" }, b: { type: "number" } },
            required: ["a", "b"],
          },
        },
        call: (args: Any) => ({ content: [{ type: "text", text: String(args.a + args.b) }] }),
      },
      {
        tool: {
          name: "weather",
          inputSchema: {
            type: "object",
            properties: { city: { type: "string", minLength: 1 } },
            required: ["city"],
          },
          outputSchema: {
            type: "object",
            properties: { celsius: { type: "number" } },
            required: ["celsius"],
          },
        },
        call: (args: Any) => {
          const celsius = args.city === "Atlantis" ? "unknown" : 21;
          return {
            content: [{ type: "text", text: JSON.stringify({ celsius }) }],
            structuredContent: { celsius },
          };
        },
      },
    ],
    { validate, list: { ttlMs: 0, cacheScope: "private" } },
  );
  const d = dispatcher.createServerDispatcher(tools, {
    serverInfo: { name: "tools", version: "1.0.0" },
    onError: (e: unknown) => serverErrors.push(e),
  });
  server = await http.serveHttp(d);
});
afterAll(() => server?.close());

const failure = (text: string) => ({ content: [{ type: "text", text }], isError: true });
const INVALID_ADD = "Input validation error: Invalid arguments for tool add: /b must be number";

describe("defineTools served to the SDK clients", () => {
  it("v1 SDK client 1.32.2 (legacy session): lists, calls, sees invalid arguments as isError, an unknown tool as -32602", async () => {
    const client = new V1Client({ name: "v1", version: "1.0.0" });
    await client.connect(new V1HttpTransport(new URL(server.url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add", "weather"]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: "text", text: "5" }],
    });
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: "3" } })).toEqual(
      failure(INVALID_ADD),
    );
    expect(await client.callTool({ name: "weather", arguments: {} })).toEqual(
      failure(
        "Input validation error: Invalid arguments for tool weather: / must have required property 'city'",
      ),
    );
    await expect(client.callTool({ name: "subtract", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Tool subtract not found",
    });
    // The client checks structuredContent against the listed outputSchema itself: it passes.
    const weather = await client.callTool({ name: "weather", arguments: { city: "Oslo" } });
    expect(weather.structuredContent).toEqual({ celsius: 21 });
    // Content that does not conform is refused by the server, never sent.
    const atlantis = await client.callTool({ name: "weather", arguments: { city: "Atlantis" } });
    expect(atlantis).toEqual(
      failure(
        "Output validation error: Invalid structured content for tool weather: /celsius must be number",
      ),
    );
    expect(serverErrors.map(String)).toEqual([
      "Error: Output validation error: Invalid structured content for tool weather: /celsius must be number",
    ]);
    serverErrors.length = 0;
    await client.close();
  });

  it("v2 SDK client 2.4.0 in auto mode (modern, stateless): the same answers", async () => {
    const client = new V2Client(
      { name: "v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new V2HttpTransport(new URL(server.url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add", "weather"]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: "text", text: "5" }],
    });
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: "3" } })).toMatchObject(
      failure(INVALID_ADD),
    );
    await expect(client.callTool({ name: "subtract", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await client.close();
  });
});
