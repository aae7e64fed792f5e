import { relative, sep } from "node:path";
import { formatLocation, McpGenError } from "../schema/diagnostics.js";
import type { LoadedRevision } from "../schema/index.js";
import { lintContext, SEVERITIES, type Finding, type Rule, type Severity } from "./finding.js";
import { RULES } from "./rules.js";

export { RULES } from "./rules.js";
export type { Finding, Rule, Severity } from "./finding.js";

export interface LintReport {
  revision: string;
  findings: Finding[];
}

/** Runs every rule over one revision; findings sorted by file, line, column and rule. */
export async function lintRevision(
  loaded: LoadedRevision,
  rules: readonly Rule[] = RULES,
): Promise<LintReport> {
  const ctx = lintContext(loaded);
  const findings: Finding[] = [];
  for (const rule of rules) {
    let raw;
    try {
      raw = await rule.check(ctx);
    } catch (error) {
      // A schema the generator refuses (an unsupported @format) stops that rule, not the run.
      if (!(error instanceof McpGenError)) throw error;
      raw = [
        {
          loc: error.loc ?? { file: loaded.model.file, line: 1, column: 1 },
          // The message starts with the place when it has one; the finding has it apart.
          message: `the rule could not run: ${error.loc ? error.message.slice(formatLocation(error.loc).length + 2) : error.message}`,
        },
      ];
    }
    for (const f of raw) findings.push({ ...f, rule: rule.id, severity: rule.severity });
  }
  const order = new Map(rules.map((r, i) => [r.id, i]));
  findings.sort(
    (a, b) =>
      compare(a.loc.file, b.loc.file) ||
      a.loc.line - b.loc.line ||
      a.loc.column - b.loc.column ||
      order.get(a.rule)! - order.get(b.rule)! ||
      compare(a.message, b.message),
  );
  return { revision: loaded.revision.name, findings };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/**
 * The `--format json` document (docs/reference/lint.md, "JSON output"). Paths are relative
 * to the spec checkout, with `/`, so the same checkout gives the same bytes anywhere.
 */
export function lintJson(
  report: LintReport,
  specDir: string,
  rules: readonly Rule[] = RULES,
): object {
  return {
    format: 1,
    revision: report.revision,
    summary: countBySeverity(report.findings),
    rules: rules.map((r) => ({
      id: r.id,
      severity: r.severity,
      count: report.findings.filter((f) => f.rule === r.id).length,
    })),
    findings: report.findings.map((f) => ({
      rule: f.rule,
      severity: f.severity,
      file: relative(specDir, f.loc.file).split(sep).join("/"),
      line: f.loc.line,
      column: f.loc.column,
      message: f.message,
    })),
  };
}

/** The text output: a line a finding (`file:line:col: severity rule: message`), then a summary. */
export function lintText(report: LintReport, path: (file: string) => string): string[] {
  const lines = report.findings.map(
    (f) =>
      `${path(f.loc.file)}:${f.loc.line}:${f.loc.column}: ${f.severity} ${f.rule}: ${f.message}`,
  );
  const counts = countBySeverity(report.findings);
  const summary = SEVERITIES.map(
    (s) => `${counts[s]} ${s}${counts[s] === 1 || s === "info" ? "" : "s"}`,
  );
  lines.push(`mcp-gen lint: ${report.revision}: ${summary.join(", ")}`);
  return lines;
}
