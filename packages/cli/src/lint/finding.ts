import type { LoadedRevision } from "../schema/index.js";
import type { SourceLocation } from "../schema/model.js";
import { Resolver } from "../schema/resolve.js";

/** How much a finding matters: `error` makes `mcp-gen lint` exit 1, the others are advice. */
export type Severity = "error" | "warning" | "info";

export const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

/** What a rule reports: where (a place in schema.ts, schema.json or an example) and what. */
export interface RawFinding {
  loc: SourceLocation;
  message: string;
}

/** A finding as `mcp-gen lint` prints it: the rule that made it and its severity attached. */
export interface Finding extends RawFinding {
  rule: string;
  severity: Severity;
}

/** What every rule reads: the revision as the generator sees it, read once. */
export interface LintContext {
  loaded: LoadedRevision;
  resolver: Resolver;
}

export interface Rule {
  /** Stable id, kebab-case: named in the output, the docs (docs/reference/lint.md) and tests. */
  id: string;
  severity: Severity;
  /** One line for the rules table of `--format json` and the docs. */
  summary: string;
  check(ctx: LintContext): RawFinding[] | Promise<RawFinding[]>;
}

export function lintContext(loaded: LoadedRevision): LintContext {
  return { loaded, resolver: new Resolver(loaded.model) };
}
