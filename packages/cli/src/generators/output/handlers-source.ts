import type * as TS from "typescript";
import { ts } from "../../schema/typescript.js";

// generate reads the user's handlers module for two notes (served-methods.ts: the methods it
// has no handler for; deprecated-uses.ts: what it uses that the revision deprecates), and the
// second reads the served methods too: three parses of one text per run. The last text
// parsed is kept, so each run parses it once.

let last: { fileName: string; code: string; file: TS.SourceFile } | undefined;

/** `code` parsed as TypeScript (no parent pointers); the same tree again for the same text. */
export function parseHandlersSource(fileName: string, code: string): TS.SourceFile {
  if (last?.fileName === fileName && last.code === code) return last.file;
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  last = { fileName, code, file };
  return file;
}
