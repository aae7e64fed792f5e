import type { LoadedRevision } from "../../schema/index.js";
import type { EmittedFile } from "../print/emitted-file.js";
import type { RuntimeEntry, RuntimeImports } from "./runtime.js";

export interface GeneratorContext {
  loaded: LoadedRevision;
  /** The first line of every file printed from the schema (schema-free files use SCHEMA_FREE_HEADER, packages/cli/src/generators/emit/headers.ts). */
  header: string;
  /**
   * Older revisions the output also speaks, newest first: stateless ones (servers: per
   * request, routed by version) and initialize-based ones (servers: through `initialize`).
   */
  legacy: LoadedRevision[];
  /** Also emit the auth modules (the runtime's auth/jwt.ts; auth.ts, the OAuth client), whose libraries are peer dependencies of the output. */
  auth: boolean;
  /** The header of a file generated from `revision`. */
  headerFor(revision: LoadedRevision): string;
  /** How the files emitted import the runtime (the package, or a copy in the output). */
  runtime: RuntimeImports;
}

export type { EmittedFile } from "../print/emitted-file.js";

/** A file as written: formatted, with what the output plan and the manifest need of it. */
export interface OutputFile {
  path: string;
  content: string;
  kind: EmittedFile["kind"];
  handlerMethods?: EmittedFile["handlerMethods"];
  /** Located notes for the user about this file (index.ts: schema names exported renamed). */
  notes?: string[];
}

/**
 * One output of mcp-gen: model in, files out. Every file comes from exactly one generator;
 * a file another needs is that generator's, named in `requires`, and the runtime modules
 * files import are named in `runtime`, for the run to emit once (packages/cli/src/generators/emit/index.ts).
 */
export interface Generator {
  name: string;
  description: string;
  /** Run only when named (`--generators`, config `generators`): not part of the default set. */
  optional?: boolean;
  /** Generators whose files this one's import: selecting it selects them too. */
  requires?: readonly string[];
  /** Serves the revisions of `GeneratorContext.legacy` (through the eras generator): without such a generator, older revisions have no use. */
  eras?: boolean;
  /** The runtime's entry points this generator's files import. */
  runtime?(ctx: GeneratorContext): readonly RuntimeEntry[];
  emit(ctx: GeneratorContext): EmittedFile[];
}
