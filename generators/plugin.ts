import type { LoadedRevision } from "../schema/index.js";
import type { RuntimeImports } from "./runtime.js";

export interface GeneratorContext {
  loaded: LoadedRevision;
  /** The first line of every file printed from the schema (schema-free files use SCHEMA_FREE_HEADER, generators/headers.ts). */
  header: string;
  /**
   * Older revisions the output also speaks, newest first: stateless ones (servers: per
   * request, routed by version) and initialize-based ones (servers: through `initialize`).
   */
  legacy: LoadedRevision[];
  /** Also emit the auth modules (runtime/auth-jwt.ts; auth.ts, the OAuth client), whose libraries are peer dependencies of the output. */
  auth: boolean;
  /** The header of a file generated from `revision`. */
  headerFor(revision: LoadedRevision): string;
  /** How the files emitted import the runtime (the package, or a copy in the output). */
  runtime: RuntimeImports;
}

/** A file before formatting. `scaffold` files belong to the user once written: created only when missing. */
export interface EmittedFile {
  path: string;
  code: string;
  kind: "generated" | "scaffold";
  /** Node.js-only modules stay out of index.ts, so importing it works in any runtime. */
  nodeOnly?: boolean;
  /** A package the file imports (a peer dependency of the output): kept out of index.ts. */
  peerDependency?: string;
  /**
   * A scaffold's request methods, each of which it writes an entry for: a kept copy that names
   * one nowhere is reported (see kept-files.ts).
   */
  handlerMethods?: readonly string[];
  /** Printed already laid out as prettier would: skips formatting (big files, where prettier dominates generation time). */
  preformatted?: boolean;
}

/** A file as written: formatted, with what the output plan and the manifest need of it. */
export interface OutputFile {
  path: string;
  content: string;
  kind: EmittedFile["kind"];
  handlerMethods?: EmittedFile["handlerMethods"];
}

/** One output of mcp-gen: model in, files out. */
export interface Generator {
  name: string;
  description: string;
  /** Generators whose files this one's import: selecting it selects them too. */
  requires?: readonly string[];
  /** Emits eras.ts and legacy/<revision>/ for `GeneratorContext.legacy`: without such a generator, older revisions have no use. */
  eras?: boolean;
  emit(ctx: GeneratorContext): EmittedFile[];
}
