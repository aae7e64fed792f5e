import { McpGenError } from "../schema/diagnostics.js";

/** One line: newlines and runs of spaces (a JSON parser's excerpt, a code frame) folded. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === "string" &&
    /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!)
  );
}

/**
 * What the CLI prints for a failure: one line, with file:line:col where the problem has a
 * place. Bad input and system errors (a full disk, a folder where a file should be) say
 * what happened; anything else is a bug in mcp-gen and says so. `debug` (--debug) adds the
 * stack trace after that line.
 */
export function describeFailure(error: unknown, debug: boolean): string[] {
  let line: string;
  if (error instanceof McpGenError) line = `mcp-gen: ${oneLine(error.message)}`;
  else if (isSystemError(error)) line = `mcp-gen: ${oneLine(error.message)}`;
  else {
    const message =
      error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
    line = `mcp-gen: internal error: ${oneLine(message)}${debug ? "" : " (rerun with --debug for the stack trace)"}`;
  }
  const stack = debug && error instanceof Error && error.stack ? error.stack.split("\n") : [];
  return [line, ...stack];
}

/**
 * The CLI's exit codes. `stale` is not 1 so CI can tell "regenerate" (a spec bump, a hand
 * edit) from "broken" (a schema that does not parse, a bad config, a full disk).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, stale: 3 } as const;

/** The exit code for a failure: 2 for usage errors, 1 for the rest. */
export function exitCodeOf(error: unknown): number {
  return error instanceof McpGenError ? error.exitCode : 1;
}
