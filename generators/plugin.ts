import type { LoadedRevision } from "../schema/index.js";

export interface GeneratorContext {
  loaded: LoadedRevision;
  /** The first line of every generated file. */
  header: string;
}

/** A file before formatting. `scaffold` files belong to the user once written: created only when missing. */
export interface EmittedFile {
  path: string;
  code: string;
  kind: "generated" | "scaffold";
  /** Node.js-only modules stay out of index.ts, so importing it works in any runtime. */
  nodeOnly?: boolean;
  /** Already laid out as prettier would print it: written as emitted, not formatted. */
  preformatted?: boolean;
}

/** One output of mcp-gen: model in, files out. */
export interface Generator {
  name: string;
  description: string;
  emit(ctx: GeneratorContext): EmittedFile[];
}
