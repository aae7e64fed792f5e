// The server under test in the guide's "Testing a server" page: a few tools, each using one
// feature a test should cover (a plain result, an error result, progress and logs, and the
// client's input: elicitation, sampling, roots). server.test.ts calls it in memory.
import { defineServer, defineTools, inputRequired, type ToolDefinition } from "./mcp/dispatcher.js";
import type { TextContent } from "./mcp/types.js";

const text = (text: string): TextContent => ({ type: "text", text });

const divide: ToolDefinition = {
  tool: {
    name: "divide",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
  call: (args) => {
    const a = Number(args["a"]);
    const b = Number(args["b"]);
    if (b === 0) return { content: [text("cannot divide by zero")], isError: true };
    return { content: [text(String(a / b))] };
  },
};

const count: ToolDefinition = {
  tool: { name: "count", inputSchema: { type: "object" } },
  call: async (_args, ctx) => {
    for (let step = 1; step <= 3; step++) await ctx.sendProgress(step, 3, `step ${step}`);
    await ctx.log("info", { counted: 3 }, "count");
    return { content: [text("counted to 3")] };
  },
};

const greet: ToolDefinition = {
  tool: { name: "greet", inputSchema: { type: "object" } },
  call: (_args, ctx) => {
    const answer = ctx.inputResponse("who", "elicitation/create");
    if (answer === undefined)
      return inputRequired(ctx, {
        inputRequests: {
          who: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Who are you?",
              requestedSchema: { type: "object", properties: { name: { type: "string" } } },
            },
          },
        },
      });
    return { content: [text(`Hello, ${String(answer.content?.["name"] ?? "stranger")}`)] };
  },
};

const haiku: ToolDefinition = {
  tool: { name: "haiku", inputSchema: { type: "object" } },
  call: (_args, ctx) => {
    const answer = ctx.inputResponse("poem", "sampling/createMessage");
    if (answer === undefined)
      return inputRequired(ctx, {
        inputRequests: {
          poem: {
            method: "sampling/createMessage",
            params: {
              messages: [{ role: "user", content: text("A haiku, please") }],
              maxTokens: 60,
            },
          },
        },
      });
    const [first] = Array.isArray(answer.content) ? answer.content : [answer.content];
    return { content: [text(first?.type === "text" ? first.text : "(no text)")] };
  },
};

const showRoots: ToolDefinition = {
  tool: { name: "show_roots", inputSchema: { type: "object" } },
  call: (_args, ctx) => {
    const answer = ctx.inputResponse("roots", "roots/list");
    if (answer === undefined)
      return inputRequired(ctx, { inputRequests: { roots: { method: "roots/list" } } });
    return { content: [text(answer.roots.map((root) => root.uri).join(", "))] };
  },
};

// #region server
export const server = defineServer(
  {
    // Each tool checks its own arguments (a JSON Schema validator would go here).
    tools: defineTools([divide, count, greet, haiku, showRoots], {
      validate: "handler",
      list: { ttlMs: 0, cacheScope: "private" },
    }),
  },
  { serverInfo: { name: "tested", version: "1.0.0" }, capabilities: { logging: {} } },
);
// #endregion server
