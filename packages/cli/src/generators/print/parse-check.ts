import type * as TS from "typescript";
import { generatedCodeError } from "../../schema/diagnostics.js";
import { ts } from "../../schema/typescript.js";

/**
 * Throws generatedCodeError (file, line and column) when `code` is not syntactically valid
 * TypeScript. The TypeScript compiler is already loaded: the schema was read with it.
 */
export function checkParses(path: string, code: string): void {
  const file = ts.createSourceFile(path, code, ts.ScriptTarget.ES2022);
  const host: TS.CompilerHost = {
    getSourceFile: (name) => (name === path ? file : undefined),
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => {},
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => name === path,
    readFile: () => undefined,
  };
  const program = ts.createProgram({
    rootNames: [path],
    options: { noLib: true, noResolve: true },
    host,
  });
  const [first] = program.getSyntacticDiagnostics(file);
  if (!first) return;
  const { line, character } = ts.getLineAndCharacterOfPosition(file, first.start ?? 0);
  throw generatedCodeError(path, {
    message: ts.flattenDiagnosticMessageText(first.messageText, " "),
    loc: { start: { line: line + 1, column: character + 1 } },
  });
}
