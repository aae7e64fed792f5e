import { describe, expect, it } from "vitest";
import { deprecatedUseLines } from "../src/generators/output/deprecated-uses.js";

const SEP = "Deprecated as of protocol version 2026-07-28 (SEP-2577). At least twelve months.";
const DEPRECATED = { "sampling/createMessage": SEP, "roots/list": SEP };

describe("generate's note on deprecated methods the handlers use", () => {
  it("names each deprecated method served or written as a string, once, in the revision's order", () => {
    const code = `
      export const handlers = {
        "tools/call": (p, ctx) => inputRequired(ctx, {
          inputRequests: { r: { method: "roots/list" }, again: { method: "roots/list" } },
        }),
        "sampling/createMessage": () => ({}),
      };`;
    expect(deprecatedUseLines(code, "src/handlers.ts", "2026-07-28", DEPRECATED)).toEqual([
      "mcp-gen: note: src/handlers.ts uses sampling/createMessage, which MCP 2026-07-28 deprecates (SEP-2577; removal 2027-07-28 at the earliest)",
      "mcp-gen: note: src/handlers.ts uses roots/list, which MCP 2026-07-28 deprecates (SEP-2577; removal 2027-07-28 at the earliest)",
    ]);
  });

  it("does not count a comment, or a method the revision keeps", () => {
    const code = `// we no longer ask "roots/list"\nexport const h = { "tools/list": () => ({ tools: [] }) };`;
    expect(deprecatedUseLines(code, "h.ts", "2026-07-28", DEPRECATED)).toEqual([]);
    expect(deprecatedUseLines(`const m = "roots/list";`, "h.ts", "2025-11-25", {})).toEqual([]);
  });
});
