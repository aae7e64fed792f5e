import type { Generator } from "./plugin.js";
import { printDeclarationLines } from "../print/print-types.js";

/**
 * types.ts: every declaration of the schema, with its docs, as self-contained TypeScript.
 * Printed already laid out as prettier would; a shape the layout rules do not cover is
 * printed valid but not in prettier's layout (and checked to parse).
 */
export const typesGenerator: Generator = {
  name: "types",
  description: "types.ts: every schema type, with its docs and deprecations",
  emit({ loaded, header }) {
    const { lines: body, exact } = printDeclarationLines(loaded.model.declarations);
    const head = [
      header,
      "// Every type of the MCP schema, printed from mcp-gen's model of schema.ts.",
    ];
    const text = [...head, ...(body.length > 0 ? ["", ...body] : []), ""].join("\n");
    return [{ path: "types.ts", kind: "generated", code: text, preformatted: exact }];
  },
};
