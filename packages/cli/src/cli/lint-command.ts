import { McpGenError } from "../schema/diagnostics.js";
import { loadRevision } from "../schema/index.js";
import { lintJson, lintRevision, lintText } from "../lint/index.js";
import { display } from "./check.js";
import { loadConfig } from "./config.js";
import { EXIT } from "./failure.js";
import type { Io } from "./io.js";
import { specOf, type CommonOptions } from "./settings.js";

export const LINT_FORMATS = ["text", "json"] as const;

/**
 * `mcp-gen lint`: what generating a revision reveals about its schema. Exit 1 when a finding
 * is an error, 0 otherwise; 2 when there is nothing to lint (no checkout, an unknown revision,
 * a schema the reader refuses), so CI can tell "the spec has problems" from "lint did not run".
 */
export async function lintCommand(
  options: CommonOptions & { format?: string },
  io: Io,
): Promise<number> {
  const format = options.format ?? "text";
  if (!(LINT_FORMATS as readonly string[]).includes(format))
    throw new McpGenError("usage", `--format must be text or json, not '${format}'`);
  let spec: string;
  let loaded;
  try {
    spec = specOf(options, loadConfig(options.config));
    loaded = loadRevision(spec, options.revision ?? "latest");
  } catch (error) {
    if (error instanceof McpGenError) throw new McpGenError("usage", error.message);
    throw error;
  }
  const report = await lintRevision(loaded);
  if (format === "json") io.out(JSON.stringify(lintJson(report, spec), null, 2));
  else for (const line of lintText(report, display)) io.out(line);
  return report.findings.some((f) => f.severity === "error") ? EXIT.failed : EXIT.ok;
}
