import type * as TS from "typescript";
import { ts } from "./typescript.js";
import { McpGenError } from "./diagnostics.js";
import type { SourceLocation } from "./model.js";

// The schema must be TypeScript that tsc accepts (a circular alias, `type await`, a name
// that is not declared, an incompatible interface re-declaration...): the reader works on
// syntax alone, so without this check such a schema would generate code that does not
// compile, or code for a schema that means nothing.
//
// Cost: loading TypeScript's lib.es5.d.ts would add its parse and bind time to every
// generation, so the program gets the few globals the checker requires plus the lib
// generics the reader supports (`Array<T>`, `Record`, `Omit`), with lib.es5.d.ts's own
// definitions. The reader rejects every other lib generic as an unsupported construct
// before this check runs; a plain reference to another lib type (`Date`) is "Cannot find
// name", which is the verdict mcp-gen wants too: it is not part of the schema language.
export const MINI_LIB = `
interface Array<T> { length: number; [n: number]: T; }
interface Boolean {}
interface CallableFunction {}
interface Function {}
interface IArguments {}
interface NewableFunction {}
interface Number {}
interface Object {}
interface RegExp {}
interface String {}
type Record<K extends keyof any, T> = { [P in K]: T; };
type Pick<T, K extends keyof T> = { [P in K]: T[P]; };
type Exclude<T, U> = T extends U ? never : T;
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;
`;

/** The compiler options of the schema program: strict, as the spec builds its schema, and only MINI_LIB. */
export const SCHEMA_COMPILER_OPTIONS: TS.CompilerOptions = {
  noLib: true,
  strict: true,
  target: ts.ScriptTarget.ES2022,
};

export const MINI_LIB_PATH = "/mcp-gen-lib.d.ts";
const SCHEMA_PATH = "/schema.ts";

/**
 * The schema's program: schema.ts and MINI_LIB, both in memory, nothing read from disk. Its
 * source file keeps no parent pointers (the reader walks down from statements only).
 */
export function schemaProgram(text: string): { program: TS.Program; sourceFile: TS.SourceFile } {
  // JSDoc is left unparsed (a third of the parse time): the reader takes a comment's text
  // from the source (SchemaReader.doc), and JSDoc never changes a TypeScript file's types.
  const options = {
    languageVersion: SCHEMA_COMPILER_OPTIONS.target!,
    jsDocParsingMode: ts.JSDocParsingMode.ParseNone,
  };
  const files = new Map([
    [SCHEMA_PATH, ts.createSourceFile(SCHEMA_PATH, text, options)],
    [MINI_LIB_PATH, ts.createSourceFile(MINI_LIB_PATH, MINI_LIB, options)],
  ]);
  const host: TS.CompilerHost = {
    getSourceFile: (name) => files.get(name),
    getDefaultLibFileName: () => MINI_LIB_PATH,
    writeFile: () => {},
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => files.has(name),
    readFile: () => undefined,
  };
  const program = ts.createProgram({
    rootNames: [...files.keys()],
    options: SCHEMA_COMPILER_OPTIONS,
    host,
  });
  return { program, sourceFile: files.get(SCHEMA_PATH)! };
}

/**
 * Type-checks the schema file (its own semantic diagnostics only; the reader checked its
 * syntax first) and throws the first error, at tsc's location, with tsc's message.
 */
export function checkSchemaWithTsc(
  program: TS.Program,
  sourceFile: TS.SourceFile,
  locate: (pos: number) => SourceLocation,
): void {
  const semantic = [...program.getSemanticDiagnostics(sourceFile)].filter(
    (d) => d.category === ts.DiagnosticCategory.Error,
  );
  const first = semantic.sort((a, b) => (a.start ?? 0) - (b.start ?? 0))[0];
  if (!first) return;
  const message = ts.flattenDiagnosticMessageText(first.messageText, " ").replace(/\s+/g, " ");
  throw new McpGenError(
    "type-error",
    `error TS${first.code}: ${message}`,
    locate(first.start ?? 0),
  );
}
