// A tool call parsed with the zod schemas mcp-gen generates (`mcp-gen generate --generators zod`,
// mcp/zod.ts): the parsed value is typed as mcp/types.ts types it, and keeps the keys the schema
// does not declare, as the spec allows them.
// #region parse
import { CallToolRequestSchema } from "./mcp/zod.js";
import type { CallToolRequest } from "./mcp/types.js";

/** The request in `json`, or what is wrong with it (one line an issue). */
export function parseToolCall(json: string): CallToolRequest | string[] {
  const parsed = CallToolRequestSchema.safeParse(JSON.parse(json));
  if (parsed.success) return parsed.data;
  return parsed.error.issues.map((issue) => `/${issue.path.join("/")}: ${issue.message}`);
}
// #endregion parse
