import type * as TS from "typescript";
import { ts } from "../../schema/typescript.js";
import { parseHandlersSource } from "./handlers-source.js";

// Which request methods a handlers module serves, read from its code with the TypeScript
// parser: comments and strings never count, so a note about a method is never silenced by a
// line that mentions it, and never shown for one a table serves. Syntax only (no type
// checking, no imports followed), so a run stays fast and a file that does not compile yet
// is still read.

/** What each runtime table serves, as packages/runtime/src/server's tools, prompts and resources build it. */
const TABLE_METHODS: Readonly<Record<string, readonly string[]>> = {
  defineTools: ["tools/list", "tools/call"],
  definePrompts: ["prompts/list", "prompts/get"],
  defineResources: ["resources/list", "resources/templates/list", "resources/read"],
};

/** defineServer's parts that hold a table, and the call that makes that table. */
const PART_TABLES: Readonly<Record<string, string>> = {
  tools: "defineTools",
  prompts: "definePrompts",
  resources: "defineResources",
};

/** The name of a property as written: `a`, `"a/b"`, `'a'`, `` `a` ``, `["a/b"]`; undefined when computed. */
function propertyName(name: TS.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name)) return name.text;
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression))
    return name.expression.text;
  return undefined;
}

/** `defineTools(...)` or `mcp.defineTools(...)`: the function's own name. */
function calleeName(call: TS.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** Whether an entry in `node` has completions (a `complete` property), which makes its table answer completion/complete. */
function hasCompletions(node: TS.Node): boolean {
  let found = false;
  const visit = (n: TS.Node): void => {
    if (found) return;
    if (
      (ts.isPropertyAssignment(n) || ts.isMethodDeclaration(n)) &&
      n.name !== undefined &&
      propertyName(n.name) === "complete"
    )
      found = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/**
 * The methods served by defineServer's `parts` (its second argument, when written as an object):
 * a table part serves its table's methods; `listChanged` or `subscribe` makes it serve the
 * revision's subscriptions/listen. completion/complete is added by the caller, which sees
 * whether any table completes.
 */
function serverPartMethods(parts: TS.ObjectLiteralExpression, served: Set<string>): void {
  for (const p of parts.properties) {
    if (p.name === undefined) continue;
    const name = propertyName(p.name);
    const table = name === undefined ? undefined : PART_TABLES[name];
    if (table !== undefined) for (const m of TABLE_METHODS[table]!) served.add(m);
    if (name === "listChanged" || name === "subscribe") served.add("subscriptions/listen");
  }
}

/**
 * The request methods `code` serves: every key of an object literal (a method-keyed handlers
 * object: `"tools/call": ...`, `ping() {}`, a shorthand `ping`), the methods of each runtime
 * table it builds (defineTools, definePrompts, defineResources), and what defineServer adds
 * (its parts' tables, completion/complete when a table completes, subscriptions/listen when it
 * follows lists). A table counts wherever it is built: where its handlers are spread is data
 * flow the parser does not follow. Handlers brought from another module are not seen.
 */
export function servedMethods(code: string, fileName = "handlers.ts"): Set<string> {
  const file = parseHandlersSource(fileName, code);
  const served = new Set<string>();
  let completes = false;
  let server = false;
  const visit = (node: TS.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        const name = p.name === undefined ? undefined : propertyName(p.name);
        if (name !== undefined) served.add(name);
      }
    } else if (ts.isCallExpression(node)) {
      const callee = calleeName(node);
      const table = callee === undefined ? undefined : TABLE_METHODS[callee];
      if (table !== undefined) {
        for (const m of table) served.add(m);
        if (callee !== "defineTools" && node.arguments.some(hasCompletions)) completes = true;
      }
      const parts = node.arguments[1];
      if (callee === "defineServer") {
        server = true;
        if (parts !== undefined && ts.isObjectLiteralExpression(parts))
          serverPartMethods(parts, served);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  // defineServer routes completion/complete to the table owning the prompt or template; a
  // table spread by hand has no such handler.
  if (server && completes) served.add("completion/complete");
  return served;
}
