// examples/sdk-v2-zod: a server on the v2 SDK 2.4.0's low-level Server whose tools/list and
// tools/call params and results are validated by mcp-gen's zod output (generated here for
// 2026-07-28 from the example's config), called in memory by the v2 SDK client 2.4.0 (a real
// peer): the tool listed, a call answered, and a call with bad arguments refused with zod's
// words. A second test type-checks server.ts with the output under the strict flags.
import { cpSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, type Server } from "@modelcontextprotocol/server";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { ROOT, SPEC_DIR, tempDir, typecheck, writeFiles } from "./helpers.js";
import { itCompiles } from "./support/compile.js";

const EXAMPLE = join(ROOT, "examples", "sdk-v2-zod");
let dir: string;

/** The example's files beside its generated output (./mcp), in a temporary folder. */
beforeAll(async () => {
  const config = JSON.parse(readFileSync(join(EXAMPLE, "mcp-gen.config.json"), "utf8")) as {
    revisions: string[];
    generators: string[];
  };
  expect(config.generators).toContain("zod");
  dir = tempDir("mcp-gen-sdk-v2-zod-");
  cpSync(EXAMPLE, dir, { recursive: true });
  writeFiles(
    join(dir, "mcp"),
    await generate(loadRevision(SPEC_DIR, config.revisions[0]!), config.generators),
  );
  // The SDK and zod, as the example's package.json installs them.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
});

/** The v2 SDK client, connected in memory to the example's server. */
async function connected(): Promise<Client> {
  const { createServer } = (await import(join(dir, "server.ts"))) as {
    createServer(): Server;
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer().connect(serverSide);
  const client = new Client({ name: "sdk-v2-zod-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("examples/sdk-v2-zod", () => {
  it("lists its tool, answers a call, and refuses bad arguments with zod's error", async () => {
    const client = await connected();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["add"]);
      expect(tools[0]!.inputSchema).toMatchObject({
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      });

      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      expect(sum.content).toEqual([{ type: "text", text: "5" }]);

      // Refused before the handler runs, by the params schema (the SDK's words around zod's),
      // as a JSON-RPC error: the three-argument form answers invalid params so.
      const refused = client.callTool({ name: "add", arguments: { a: 2, b: "three" } });
      await expect(refused).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(
          "Invalid params for tools/call: arguments.b: Invalid input: expected number, received string",
        ) as unknown,
      });
      // A tool the params schema does not know: refused by its `name` literal.
      await expect(client.callTool({ name: "subtract", arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('name: Invalid input: expected "add"') as unknown,
      });
    } finally {
      await client.close();
    }
  });

  itCompiles("server.ts type-checks with the output under the strict flags", () => {
    expect(typecheck([join(dir, "server.ts")])).toEqual([]);
  });
});
