import type { Generator } from "./plugin.js";
import { printDeclaration } from "../schema/print-ts.js";
import { renderTemplate } from "./render.js";

/** types.ts: every declaration of the schema, with its docs, as self-contained TypeScript. */
export const typesGenerator: Generator = {
  name: "types",
  description: "types.ts: every schema type, with its docs and deprecations",
  emit({ loaded, header }) {
    const declarations = loaded.model.declarations.map((d) => ({ code: printDeclaration(d) }));
    return [{ path: "types.ts", kind: "generated", code: renderTemplate("types.ts.hbs", { header, declarations }) }];
  },
};
