import { createRequire } from "node:module";

// TypeScript is CommonJS. Imported from an ES module, Node first scans its source for export
// names (cjs-module-lexer over 9 MB of code), which cost a cold generation about 0.3 s of
// CPU, more than its own code; require() skips that. Modules import the value from here and
// the types from "typescript" (`import type`).
export const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
