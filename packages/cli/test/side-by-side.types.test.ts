// What docs/guide/side-by-side.md says each API checks of a tool's structuredContent, verified
// both ways: a structuredContent that does not match the tool's outputSchema (`total` a string
// where the schema says number), and one missing from a successful result. `npm run
// typecheck` type-checks this file (tsconfig.test.json): each mcp-gen mistake must fail to
// compile (its `@ts-expect-error` meets an error, or the check fails), and the v2 SDK's must
// compile (no directive: should the SDK start refusing them, the check fails and the page must
// change). vitest runs it for what each does at run time. examples/side-by-side/mistakes.ts
// shows the first mistake in the page, against the generated dispatcher.
import { defineTool, defineTools } from "@mcp-gen/runtime/server";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const inputSchema = z.object({ query: z.string() });
const outputSchema = z.object({ titles: z.array(z.string()), total: z.number() });
const content = [{ type: "text" as const, text: "Dune" }];
const call = { name: "search_books", arguments: { query: "d" } };

// defineTool bound to a revision's shapes, as the generated dispatcher binds it.
interface Tool {
  name: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
}
interface Result {
  content: { type: "text"; text: string }[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
}
type Params = { name: string; arguments?: { [key: string]: unknown } };
type In = typeof inputSchema;
type Out = typeof outputSchema;
const tool = { name: "search_books", inputSchema, outputSchema };

describe("mcp-gen: structuredContent is checked at compile time and at run time", () => {
  it("a right one compiles, and is sent", async () => {
    const right = defineTool<Tool, unknown, Params, Result, In, Out>({
      tool,
      call: () => ({ content, structuredContent: { titles: ["Dune"], total: 1 } }),
    });
    expect(await defineTools([right], {})["tools/call"](call, {})).toEqual({
      content,
      structuredContent: { titles: ["Dune"], total: 1 },
    });
  });

  it("a wrong one does not compile, and is refused before it is sent", async () => {
    const wrong = defineTool<Tool, unknown, Params, Result, In, Out>({
      tool,
      // @ts-expect-error total is a number in outputSchema
      call: () => ({ content, structuredContent: { titles: ["Dune"], total: "one" } }),
    });
    // The tools/call handler throws; the dispatcher answers that as a tool execution error
    // (isError), which packages/cli/test/side-by-side.test.ts sees over HTTP.
    await expect(defineTools([wrong], {})["tools/call"](call, {})).rejects.toThrow(
      /^Output validation error: Invalid structured content for tool search_books: \/total: /,
    );
  });

  it("a missing one does not compile, and is refused before it is sent", async () => {
    const missing = defineTool<Tool, unknown, Params, Result, In, Out>({
      tool,
      // @ts-expect-error structuredContent is required on a successful result
      call: () => ({ content }),
    });
    await expect(defineTools([missing], {})["tools/call"](call, {})).rejects.toThrow(
      /^Output validation error: /,
    );
  });
});

/** What the v2 SDK client gets from the v2 SDK server whose tool `register` registers. */
async function sdkAnswer(register: (server: McpServer) => void): Promise<unknown> {
  const server = new McpServer({ name: "bookshop", version: "1.0.0" });
  register(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "side-by-side", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    return await client.callTool(call).then(
      (result) => ({ result }),
      (error: unknown) => ({ error: String(error) }),
    );
  } finally {
    await client.close();
  }
}

describe("the arguments: typed from inputSchema by both", () => {
  it("an argument used as what it is not does not compile, with either", () => {
    defineTool<Tool, unknown, Params, Result, In, undefined>({
      tool: { name: "search_books", inputSchema },
      // @ts-expect-error query is a string
      call: ({ query }) => ({ content: [{ type: "text", text: query.toFixed() }] }),
    });
    const server = new McpServer({ name: "bookshop", version: "1.0.0" });
    server.registerTool("search_books", { inputSchema }, ({ query }) => ({
      // @ts-expect-error query is a string
      content: [{ type: "text", text: query.toFixed() }],
    }));
    expect(server).toBeInstanceOf(McpServer);
  });
});

describe("v2 SDK 2.4.0: structuredContent is checked at run time only", () => {
  it("a wrong one compiles, and is refused at run time", async () => {
    const answer = await sdkAnswer((server) =>
      // No @ts-expect-error: registerTool types structuredContent as any object.
      server.registerTool("search_books", { inputSchema, outputSchema }, () => ({
        content,
        structuredContent: { titles: ["Dune"], total: "one" },
      })),
    );
    expect(answer).toEqual({
      result: {
        content: [
          {
            type: "text",
            text: "Output validation error: Invalid structured content for tool search_books: total: Invalid input: expected number, received string",
          },
        ],
        isError: true,
      },
    });
  });

  it("a missing one compiles, and is refused at run time", async () => {
    const answer = await sdkAnswer((server) =>
      server.registerTool("search_books", { inputSchema, outputSchema }, () => ({ content })),
    );
    expect(answer).toEqual({
      result: {
        content: [
          {
            type: "text",
            text: "Output validation error: Tool search_books has an output schema but no structured content was provided",
          },
        ],
        isError: true,
      },
    });
  });
});
