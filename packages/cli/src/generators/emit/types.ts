import type { Generator } from "./plugin.js";
import { GeneratedFile } from "../print/generated-file.js";
import { writeDeclarations } from "../print/print-types.js";

/**
 * types.ts: every declaration of the schema, with its docs, as self-contained TypeScript.
 * Printed already laid out as prettier would; a shape the layout rules do not cover is
 * printed valid but not in prettier's layout (and checked to parse).
 */
export const typesGenerator: Generator = {
  name: "types",
  description: "types.ts: every schema type, with its docs and deprecations",
  emit({ loaded, header }) {
    const w = new GeneratedFile("types.ts");
    writeDeclarations(w, loaded.model.declarations);
    const intro = "// Every type of the MCP schema, printed from mcp-gen's model of schema.ts.";
    return [w.emit(`${header}\n${intro}`)];
  },
};
