import type { EmittedFile } from "../../print/emitted-file.js";
import type { CodeWriter } from "../../print/printer.js";

// What `mcp-gen init` prints its TypeScript scaffolds from (src/*.ts of the project): each is
// printed by GeneratedFile (one module here per file), like the generators' output, so its
// imports are declared and every value from the user (the project's name) is escaped by the
// printer. Handlebars renders only the project's text files (templates/project/).

export interface ScaffoldView {
  /** The project's name, its package.json name and the server's name (serverInfo). */
  readonly name: string;
  /** An OAuth-protected HTTP server (`--auth`): src/auth.ts, src/dev-auth.ts, a whoami tool. */
  readonly auth: boolean;
  /**
   * Request methods the generated dispatcher routes and handlers.ts does not serve: entries
   * set to notImplemented, so that `mcp-gen generate` notes only methods a later spec adds.
   */
  readonly unserved: readonly string[];
  /** The server also speaks the legacy revisions (not `--modern-only`): tests run in both eras. */
  readonly dualEra: boolean;
}

/** One scaffold: the project file it prints, and whether the project has it at all. */
export interface Scaffold {
  readonly path: string;
  /** Only in `--auth` projects. */
  readonly authOnly?: boolean;
  print(view: ScaffoldView): EmittedFile;
}

/** A `//` comment of several lines (an empty one is a bare `//`), at the current indentation. */
export function comment(w: CodeWriter, lines: readonly string[]): void {
  for (const text of lines) w.line(text === "" ? "//" : `// ${text}`);
}

/**
 * `head` (an exported function's opening line, `{` included) whose body returns `value` or,
 * if that throws, prints `error: <message>` on stderr and exits 1: what the entry points call
 * for a setting they cannot start without.
 */
export function writeOrExit(w: CodeWriter, head: string, value: string): void {
  w.line(head);
  w.indented(() => {
    w.line("try {");
    w.indented(() => {
      w.line(`return ${value};`);
    });
    w.line("} catch (error) {");
    w.indented(() => {
      w.line("console.error(`error: ${error instanceof Error ? error.message : String(error)}`);");
      w.line("process.exit(1);");
    });
    w.line("}");
  });
  w.line("}");
}
