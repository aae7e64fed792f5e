import type { SourceLocation } from "./model.js";

/** Stable codes, so callers and tests can tell failures apart without parsing messages. */
export type IssueCode =
  | "spec-not-found"
  | "revision-not-found"
  | "syntax-error"
  /** tsc rejects the schema (a semantic error): the message is tsc's own. */
  | "type-error"
  | "unsupported-construct"
  | "unknown-type"
  | "protocol"
  | "config"
  | "output-conflict"
  /** Writing the output failed (no space, read-only file system, permissions...). */
  | "output-failed"
  /** A plugin (`--plugin`, config `plugins`) failed to load, threw, or returned what it may not. */
  | "plugin"
  /** A bug in mcp-gen (e.g. it emitted code prettier cannot parse): please report it. */
  | "internal"
  | "usage";

/**
 * The one error type mcp-gen raises for bad input. Its message is a single line,
 * prefixed with file:line:col when the problem has a place in the schema.
 */
export class McpGenError extends Error {
  readonly code: IssueCode;
  readonly loc: SourceLocation | undefined;
  /** 2 for usage errors, 1 for everything else (the CLI's exit code). */
  readonly exitCode: number;

  constructor(code: IssueCode, message: string, loc?: SourceLocation) {
    super(loc ? `${formatLocation(loc)}: ${message}` : message);
    this.name = "McpGenError";
    this.code = code;
    this.loc = loc;
    this.exitCode = code === "usage" ? 2 : 1;
  }
}

/** Schema text quoted for a one-line message: JSON-escaped, U+2028 and U+2029 too. */
export function quoteText(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function formatLocation(loc: SourceLocation): string {
  return `${loc.file}:${loc.line}:${loc.column}`;
}

/**
 * mcp-gen emitted code the formatter cannot parse: a bug in mcp-gen (or schema text that
 * reached the output unescaped), reported at the place in the generated file, in one line.
 */
export function generatedCodeError(path: string, error: unknown): McpGenError {
  const e = error as { message?: unknown; loc?: { start?: { line?: number; column?: number } } };
  const start = e.loc?.start;
  const where = start?.line !== undefined ? `:${start.line}:${start.column ?? 1}` : "";
  const reason = String(e.message ?? error)
    .split("\n")[0]!
    .replace(/\s*\(\d+:\d+\)$/, "");
  return new McpGenError(
    "internal",
    `generated ${path}${where}: internal error: the generated code does not parse (${reason}); nothing was written`,
  );
}
