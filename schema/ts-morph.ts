import { createRequire } from "node:module";

// ts-morph, and the TypeScript it bundles, are CommonJS. Imported from an ES module, Node
// first scans their source for export names (cjs-module-lexer over megabytes of code), which
// cost a cold generation about 0.3 s of CPU, more than its own code; require() skips that.
// Modules import the values from here and the types from "ts-morph" (`import type`).
export const { Node, Project, SyntaxKind, ts } = createRequire(import.meta.url)(
  "ts-morph",
) as typeof import("ts-morph");
