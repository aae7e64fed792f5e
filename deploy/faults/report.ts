import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

// The suite's table (fault, promise, observed): each case records its row as it ends, before
// it asserts, so that a failing case is in the table too; report-setup.ts prints the table
// after the last file. docs/reference/faults.md holds the figures of a recorded run.

export interface FaultRow {
  /** The case's letter and name, e.g. "(a) redis-server restarted". */
  readonly fault: string;
  readonly promise: string;
  /** The counts, as `name: value` text. */
  readonly observed: string;
  /** Whether the promise held (the case's assertions follow). */
  readonly held: boolean;
}

/** The file rows go to; the global setup names it for this run. */
export const reportFile = () =>
  process.env["MCP_GEN_FAULTS_REPORT"] ?? join(tmpdir(), "mcp-gen-faults.jsonl");

/** Adds `row` to the run's table and prints it at once. */
export function recordRow(row: FaultRow): void {
  appendFileSync(reportFile(), `${JSON.stringify(row)}\n`);
  console.log(`FAULT ${row.held ? "held  " : "BROKEN"} ${row.fault}: ${row.observed}`);
}

/** The rows recorded in `file`. */
export function readRows(file: string): FaultRow[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FaultRow);
}

/** `observed` text from counts: `lost 0, hung 0, ...`. */
export const counts = (values: Record<string, number | string>) =>
  Object.entries(values)
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");

/** The rows as a Markdown table (what docs/reference/faults.md shows). */
export function markdownTable(rows: readonly FaultRow[]): string {
  const lines = ["| fault | promise | observed | held |", "| --- | --- | --- | --- |"];
  for (const row of rows)
    lines.push(`| ${row.fault} | ${row.promise} | ${row.observed} | ${row.held ? "yes" : "no"} |`);
  return lines.join("\n");
}
