import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markdownTable, readRows } from "./report.js";

// Names this run's table file (the test files inherit the environment), and prints the
// table once every file has run.
export default function setup(): () => void {
  const file = join(tmpdir(), `mcp-gen-faults-${process.pid}.jsonl`);
  rmSync(file, { force: true });
  process.env["MCP_GEN_FAULTS_REPORT"] = file;
  return () => {
    const rows = readRows(file);
    console.log(`\nFault suite: ${rows.length} cases\n\n${markdownTable(rows)}\n`);
    rmSync(file, { force: true });
  };
}
