// A server with one tool, on the code `mcp-gen generate` writes into ./mcp (see
// mcp-gen.config.json): the dispatcher routes and validates every message, defineTools serves
// tools/list and tools/call from one table.
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  createServerDispatcher,
  defineTool,
  defineTools,
  type SchemaValidator,
} from "./mcp/dispatcher.js";

// #region validate
// Tool arguments are checked against each tool's inputSchema before its call runs. Any JSON
// Schema library fits: validate returns the problems found, one line each, or nothing.
const ajv = new Ajv2020({ strict: false });
const validate: SchemaValidator = (schema, value) => {
  const check = ajv.compile(schema);
  if (check(value)) return undefined;
  return (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
};
// #endregion validate

// #region tools
const tools = defineTools(
  [
    // defineTool types `call` from the schema: a and b are numbers (and checked so by
    // `validate` before call runs).
    defineTool({
      tool: {
        name: "add",
        description: "Adds two numbers",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
      call: ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
    }),
  ],
  // tools/list's cache hints (2026-07-28): this list may change, so no one caches it.
  { validate, list: { ttlMs: 0, cacheScope: "private" } },
);
// #endregion tools

// #region dispatcher
export const dispatcher = createServerDispatcher(tools, {
  serverInfo: { name: "hello-server", version: "1.0.0" },
});
// #endregion dispatcher
