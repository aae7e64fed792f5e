import type { EmittedFile } from "./emitted-file.js";
import { CodeWriter, str } from "./printer.js";
import { layOutJson, type JsonValue } from "./json-layout.js";
import type { RuntimeEntry, RuntimeImports } from "../emit/runtime.js";
import type { RuntimeSymbol } from "../emit/runtime-symbols.js";

// The one file API of the generators: every generated TypeScript file is a GeneratedFile,
// printed by CodeWriter's layout rules (printer.ts: width, escaping, imports), importing the
// runtime by symbol (runtime-symbols.ts), and emitted through `emit`, which marks the file as
// printed here. test/one-printer.test.ts runs every generator and fails on a file without the
// mark, so a generator that joins strings by hand cannot slip in.

// From the global registry: a module loaded twice (vitest's resetModules) still agrees on it.
const PRINTED = Symbol.for("mcp-gen.printed-by-GeneratedFile");

/** Where a file's runtime imports point (the output's RuntimeImports, or one entry's module). */
export type RuntimeFrom = Pick<RuntimeImports, "from">;

/** What `emit` adds to the path and code (kind defaults to "generated", preformatted to `exact`). */
export type EmitOptions = Partial<Omit<EmittedFile, "path" | "code">>;

export class GeneratedFile extends CodeWriter {
  constructor(
    readonly path: string,
    private readonly runtime?: RuntimeFrom,
  ) {
    super();
  }

  /**
   * A JSON file (schema.json): laid out as prettier would, with no header line (JSON has no
   * comments; the manifest says the file is mcp-gen's). Marked as printed here, as `emit` does.
   */
  static json(path: string, value: JsonValue, options: EmitOptions = {}): EmittedFile {
    const file: EmittedFile = {
      path,
      kind: "generated",
      preformatted: true,
      ...options,
      code: layOutJson(value),
    };
    return Object.defineProperty(file, PRINTED, { value: true, enumerable: true });
  }

  /** The module specifier of a runtime entry point, as this file reaches it. */
  from(entry: RuntimeEntry): string {
    if (!this.runtime) throw new Error(`internal: ${this.path} was given no runtime imports`);
    return this.runtime.from(entry);
  }

  /** Imports a runtime export (as `alias` when given); the name to write in code. */
  use(symbol: RuntimeSymbol, alias?: string): string {
    const name = alias === undefined ? symbol.name : `${symbol.name} as ${alias}`;
    this.import(this.from(symbol.entry), name, symbol.typeOnly);
    return alias ?? symbol.name;
  }

  /** `import * as local from <entry>`; members are then named `local.name` (see `member`). */
  useNamespace(entry: RuntimeEntry, local: string): string {
    return this.import(this.from(entry), `* as ${local}`);
  }

  /**
   * `export { a, type B } from <entry>;` (`export type { ... }` when all are types), names in
   * the order given; on one line when it fits, else one a line. `spaced` as in `list`.
   */
  reexport(symbols: readonly RuntimeSymbol[], spaced = true): this {
    const [first] = symbols;
    if (!first || symbols.some((s) => s.entry !== first.entry))
      throw new Error("internal: reexport takes symbols of one entry point");
    const types = symbols.every((s) => s.typeOnly);
    const names = symbols.map((s) => (s.typeOnly && !types ? `type ${s.name}` : s.name));
    const keyword = types ? "export type {" : "export {";
    return this.list(keyword, names, `} from ${str(this.from(first.entry))};`, spaced);
  }

  /** `export * from <entry>;`: an entry point passed on whole. */
  reexportAll(entry: RuntimeEntry): this {
    return this.line(`export * from ${str(this.from(entry))};`);
  }

  /** The file as generators return it: header, imports, body; marked as printed here. */
  emit(header: string, options: EmitOptions = {}): EmittedFile {
    // Printed first: the imports it writes are part of what `exact` says.
    const code = this.toString(header);
    const file: EmittedFile = {
      path: this.path,
      kind: "generated",
      preformatted: this.exact,
      ...options,
      code,
    };
    return Object.defineProperty(file, PRINTED, { value: true, enumerable: true });
  }
}

/** `ns.name` for a member of a namespace import of the runtime. */
export function member(namespace: string, symbol: RuntimeSymbol): string {
  return `${namespace}.${symbol.name}`;
}

/**
 * Whether `file` came out of `GeneratedFile.emit` (a copy made with spread keeps the mark:
 * eras.ts moves older revisions' files under legacy/ so).
 */
export function isPrinted(file: EmittedFile): boolean {
  return (file as EmittedFile & { [PRINTED]?: boolean })[PRINTED] === true;
}
