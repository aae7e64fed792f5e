import type { Generator } from "./plugin.js";
import { printDeclarations } from "../schema/print-ts.js";

/**
 * types.ts: every declaration of the schema, with its docs, as self-contained TypeScript.
 * Printed already laid out as prettier would, so formatting is skipped, unless the schema
 * uses a shape the layout rules do not cover (then prettier lays the file out as before).
 */
export const typesGenerator: Generator = {
  name: "types",
  description: "types.ts: every schema type, with its docs and deprecations",
  emit({ loaded, header }) {
    const { code, exact } = printDeclarations(loaded.model.declarations);
    const lines = [header, "// Every type of the MCP schema, printed from mcp-gen's model of schema.ts.", ""];
    const text = code ? [...lines, code, ""].join("\n") : [...lines.slice(0, -1), ""].join("\n");
    return [{ path: "types.ts", kind: "generated", code: text, preformatted: exact }];
  },
};
