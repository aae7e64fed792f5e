// A generated file, as generators emit it: a module of its own so that the runtime's emitter
// (runtime.ts), which the generators' context names, need not import the context's module.

/** A file as emitted. `scaffold` files belong to the user once written: created only when missing. */
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
  /** Laid out exactly as prettier would (else printed valid, but only checked to parse). */
  preformatted?: boolean;
}
