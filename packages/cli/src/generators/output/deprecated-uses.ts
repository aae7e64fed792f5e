import type * as TS from "typescript";
import { describeDeprecation } from "@mcp-gen/runtime/core";
import { ts } from "../../schema/typescript.js";
import { parseHandlersSource } from "./handlers-source.js";
import { servedMethods } from "./served-methods.js";

// generate's note on what the user's handlers use that the revision deprecates: the methods
// they serve, and method names they write as strings (an input request asking for roots/list,
// say). Read with the TypeScript parser, as served-methods.ts reads them: comments never
// count. The runtime warns at run time too (core/deprecation.ts); this is the same news
// before anything runs, where `generate` is rerun on a spec bump.

/** Every string literal's text in `code` (property names written as strings included). */
function stringsIn(code: string, fileName: string): Set<string> {
  const file = parseHandlersSource(fileName, code);
  const strings = new Set<string>();
  const visit = (node: TS.Node): void => {
    if (ts.isStringLiteralLike(node)) strings.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return strings;
}

/**
 * One note per deprecated method `code` serves or names, in the revision's order:
 * `mcp-gen: note: src/handlers.ts uses roots/list, which MCP 2026-07-28 deprecates (SEP-2577;
 * removal 2027-07-28 at the earliest)`.
 */
export function deprecatedUseLines(
  code: string,
  name: string,
  revision: string,
  deprecated: Readonly<Record<string, string>>,
): string[] {
  const methods = Object.keys(deprecated);
  if (methods.length === 0) return [];
  const used = new Set([...servedMethods(code, name), ...stringsIn(code, name)]);
  return methods
    .filter((method) => used.has(method))
    .map(
      (method) =>
        `mcp-gen: note: ${name} uses ${method}, which MCP ${revision} deprecates (${describeDeprecation(deprecated[method]!)})`,
    );
}
