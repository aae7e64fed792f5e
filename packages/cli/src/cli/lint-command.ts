import { McpGenError } from "../schema/diagnostics.js";
import { loadRevision, SPEC_CLONE_HINT } from "../schema/index.js";
import { lintJson, lintRevision, lintText } from "../lint/index.js";
import { display } from "./check.js";
import { loadConfig, type Config } from "./config.js";
import { EXIT } from "./failure.js";
import type { Io } from "./io.js";
import type { CommonOptions } from "./settings.js";

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
    spec = checkoutOf(options, loadConfig(options.config));
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

/**
 * The checkout from the flag or the config. Unlike the other commands, never the revisions an
 * installed mcp-gen ships: they are schema.ts alone, and half the rules read schema.json and
 * the examples beside it.
 */
function checkoutOf(options: CommonOptions, config: Config): string {
  const spec = options.spec ?? config.spec;
  if (spec) return spec;
  throw new McpGenError(
    "usage",
    `lint reads a spec checkout (schema.ts, schema.json and the examples of each revision): pass --spec DIR or set "spec" in mcp-gen.config.json (${SPEC_CLONE_HINT})`,
  );
}
