import { afterAll, describe, expect, it } from "vitest";
import { backChannelHandlers } from "../src/server/back-channel-uses.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import { withInput } from "../src/server/straight-line.js";
import { defineTools } from "../src/server/tools.js";
import { defineTool } from "../src/server/typed-tools.js";
import { serveHttp, type ServeHttpOptions } from "../src/transport/http/server/server.js";
import { dualEras, LEGACY_PROTOCOL, PROTOCOL } from "./fixture.js";
import { legacyModeWarnings } from "./legacy-mode-warnings.js";

// The start-up list of a legacy serving mode without a back-channel (HttpCoreOptions.legacy):
// once, as the server is created, the handlers that ask the client for input or send
// notifications during a call, each with what the mode takes from it, the mode named.

type Ctx = any;
const schema = { type: "object" } as const;
/** defineTool's type arguments here: results are not this test's subject. */
type Shape = { name: string; inputSchema: object };
const secret = "a secret of at least thirty-two characters";

/** One tool per way of using the back-channel, and two that use none. */
const tools = defineTools(
  [
    defineTool<Shape, Ctx, unknown, any, typeof schema, never>({
      tool: { name: "research", inputSchema: schema },
      call: withInput(
        PROTOCOL,
        async (_args: unknown, _ctx: Ctx, ask) => {
          const answer = await ask("elicitation/create", { message: "Topic?" });
          return { content: [{ type: "text", text: JSON.stringify(answer) }] };
        },
        { secret },
      ),
    }),
    {
      tool: { name: "branching", inputSchema: schema },
      call: async (_args, ctx: Ctx) =>
        ctx.inputResponse("who", "elicitation/create")
          ? { content: [] }
          : inputRequired(PROTOCOL, ctx, {
              inputRequests: { who: { method: "elicitation/create", params: { message: "?" } } },
            }),
    },
    {
      tool: { name: "chatty", inputSchema: schema },
      call: async (_args, ctx: Ctx) => {
        await ctx.sendProgress(1, 2);
        return { content: [] };
      },
    },
    defineTool<Shape, Ctx, unknown, any, typeof schema, never>({
      tool: { name: "logs", inputSchema: schema },
      call: async (_args, ctx: Ctx) => {
        await ctx.log("info", "started");
        return { content: [] };
      },
    }),
    {
      tool: { name: "quiet", inputSchema: schema },
      call: async () => {
        console.log("console output is not a notification");
        return { content: [] };
      },
    },
  ],
  { validate: "handler" },
);

const LEGACY = { ...LEGACY_PROTOCOL, protocolVersion: "2025-11-25" };
const dispatcher = () => createEraDispatcher(dualEras(LEGACY), { ...tools });

const servers: { close(): Promise<void> }[] = [];
const warnings = legacyModeWarnings();
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(legacy: NonNullable<ServeHttpOptions["legacy"]>) {
  servers.push(await serveHttp(PROTOCOL, dispatcher(), { legacy }));
}

describe("what the dispatcher reads of its handlers", () => {
  it("names each tool of a table with its uses: marks (withInput, defineTool) and code", () => {
    expect(dispatcher().backChannelHandlers()).toEqual([
      { handler: 'tools/call "research"', uses: ["input"] },
      { handler: 'tools/call "branching"', uses: ["input"] },
      { handler: 'tools/call "chatty"', uses: ["notifications"] },
      { handler: 'tools/call "logs"', uses: ["notifications"] },
    ]);
  });

  it("reads a plain handler by its method, and only methods the legacy revisions serve", () => {
    const handlers = {
      "tools/call": async (_p: unknown, ctx: Ctx) => (await ctx.notify({}), {}),
      "tools/list": () => ({ tools: [] }),
      "made/up": async (_p: unknown, ctx: Ctx) => inputRequired(PROTOCOL, ctx, {}),
    };
    expect(backChannelHandlers(handlers, LEGACY.methods)).toEqual([
      { handler: "tools/call", uses: ["notifications"] },
    ]);
  });
});

describe("the warning at creation", () => {
  it("JSON responses: every tool that asks or sends, with what it loses, the mode named", async () => {
    await start({ responses: "json" });
    expect(warnings).toHaveLength(1);
    const [first, ...listed] = warnings[0]!.split("\n");
    expect(first).toMatch(/legacy.responses: "json".*the handlers affected:$/);
    expect(listed).toEqual([
      '  tools/call "research": asks the client for input',
      '  tools/call "branching": asks the client for input',
      '  tools/call "chatty": sends notifications during a call',
      '  tools/call "logs": sends notifications during a call',
    ]);
  });

  it("stateless with SSE: only the tools that ask, since notifications still stream", async () => {
    await start({ sessions: false });
    expect(warnings).toHaveLength(1);
    const [first, ...listed] = warnings[0]!.split("\n");
    expect(first).toMatch(/legacy.sessions: false.*the handlers affected:$/);
    expect(listed).toEqual([
      '  tools/call "research": asks the client for input',
      '  tools/call "branching": asks the client for input',
    ]);
  });

  it("sessions with SSE (the default) lose nothing: no warning", async () => {
    await start({});
    expect(warnings).toEqual([]);
  });
});
