import type * as TS from "typescript";
import { ts } from "./typescript.js";
import { McpGenError } from "./diagnostics.js";
import type { Declaration, SourceLocation, TypeExpr } from "./model.js";

// TypeScript's parser and checker, mcp-gen's readers and printers, and prettier all recurse
// into nested types: a schema.ts nested 1,000 deep overflowed the stack somewhere among them
// (an object type literal ~500 deep already overflows TypeScript's parser). So nesting has
// a limit, checked before anything recurses: types nest at most MAX_NESTING levels below
// their declaration. The deepest type in the spec's schemas nests 5 levels; 200 leaves room
// and is still covered end to end by the tests (generation, compilation, validation).

export const MAX_NESTING = 200;

const OPEN = new Set([
  ts.SyntaxKind.OpenBraceToken,
  ts.SyntaxKind.OpenParenToken,
  ts.SyntaxKind.OpenBracketToken,
  ts.SyntaxKind.LessThanToken,
]);
const CLOSE = new Set([
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.GreaterThanToken,
]);

function tooDeep(at: SourceLocation): McpGenError {
  return new McpGenError(
    "unsupported-construct",
    `unsupported construct: types nested more than ${MAX_NESTING} levels deep (mcp-gen's limit)`,
    at,
  );
}

/**
 * Before parsing: brackets (`{ ( [ <`) nested deeper than a declaration's body plus
 * MAX_NESTING levels. The scanner reads tokens one after another, so this cannot overflow.
 */
export function checkBracketNesting(file: string, text: string): void {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, true, ts.LanguageVariant.Standard, text);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (OPEN.has(kind) && ++depth > MAX_NESTING + 1) {
      throw tooDeep(locateIn(file, text, scanner.getTokenStart()));
    }
    if (CLOSE.has(kind)) depth = Math.max(0, depth - 1);
  }
}

/** `pos` as file:line:col, counting lines as TypeScript does (\n, \r\n, \r, U+2028, U+2029). */
function locateIn(file: string, text: string, pos: number): SourceLocation {
  const lines = text.slice(0, pos).split(/\r\n|[\n\r\u2028\u2029]/);
  return { file, line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** Type nodes that hold no other type (keywords, literals, `typeof X`, a bare name): they add no level. */
function isLeaf(node: TS.Node): boolean {
  if (node.kind >= ts.SyntaxKind.FirstKeyword && node.kind <= ts.SyntaxKind.LastKeyword)
    return true;
  if (ts.isTypeReferenceNode(node)) return node.typeArguments === undefined;
  return ts.isLiteralTypeNode(node) || ts.isTypeQueryNode(node) || ts.isThisTypeNode(node);
}

/**
 * After parsing: type nodes nested more than MAX_NESTING deep inside a declaration, walked
 * with an explicit stack. This catches what brackets do not show (`string[][]...[]`).
 */
export function checkTypeNesting(
  sourceFile: TS.SourceFile,
  locate: (pos: number) => SourceLocation,
): void {
  const stack: [TS.Node, number][] = sourceFile.statements.map((s) => [s, 0]);
  while (stack.length > 0) {
    const [node, outer] = stack.pop()!;
    const level = ts.isTypeNode(node) && !isLeaf(node) ? outer + 1 : outer;
    if (level > MAX_NESTING) throw tooDeep(locate(node.getStart(sourceFile)));
    ts.forEachChild(node, (child) => void stack.push([child, level]));
  }
}

/**
 * How many interfaces deep an `extends` chain may go. Resolving a chain recurses once per
 * level, and each level's flattened properties are kept (memory grows with the square of
 * the depth): 3,000 levels took 750 MB, 10,000 overflowed the stack. The spec's deepest
 * chain is 3 levels; 200 leaves the same room as the nesting limit.
 */
export const MAX_INHERITANCE = 200;

/** The declarations a heritage clause or an alias's type names at its top (`A`, `Omit<A, k>`, `A & B`). */
function heritage(type: TypeExpr): string[] {
  if (type.kind === "ref") return [type.name];
  if (type.kind === "omit") return heritage(type.base);
  if (type.kind === "intersection") return type.members.flatMap(heritage);
  return [];
}

/**
 * Before anything resolves `extends`: no interface may extend a chain more than
 * MAX_INHERITANCE levels deep. Depths are found with an explicit stack, so a chain of any
 * length is measured without recursion; a cycle is left to the checks that name it.
 */
export function checkInheritanceDepth(declarations: readonly Declaration[]): void {
  const bases = new Map<string, string[]>();
  for (const d of declarations) {
    const named =
      d.kind === "interface"
        ? d.extends.flatMap(heritage)
        : d.kind === "alias"
          ? heritage(d.type)
          : [];
    bases.set(d.name, [...(bases.get(d.name) ?? []), ...named]);
  }
  const depth = new Map<string, number>();
  const measure = (root: string): number => {
    const stack = [root];
    const open = new Set<string>();
    while (stack.length > 0) {
      const name = stack[stack.length - 1]!;
      const pending = (bases.get(name) ?? []).filter((b) => !depth.has(b) && !open.has(b));
      if (pending.length > 0 && !open.has(name)) {
        open.add(name);
        for (const b of pending) stack.push(b);
        continue;
      }
      stack.pop();
      open.delete(name);
      const named = bases.get(name) ?? [];
      const own =
        named.length === 0 ? 0 : 1 + named.reduce((m, b) => Math.max(m, depth.get(b) ?? 0), 0);
      depth.set(name, Math.max(depth.get(name) ?? 0, own));
    }
    return depth.get(root)!;
  };
  for (const d of declarations) {
    if (d.kind !== "interface" || (depth.get(d.name) ?? measure(d.name)) <= MAX_INHERITANCE)
      continue;
    throw new McpGenError(
      "unsupported-construct",
      `unsupported construct: '${d.name}' extends interfaces more than ${MAX_INHERITANCE} levels deep (mcp-gen's limit)`,
      d.loc,
    );
  }
}

/**
 * A stack overflow that got past the checks above (a chain of thousands of aliases, each
 * naming the next): one located line rather than a crash.
 */
export function stackOverflowError(error: unknown, file: string, during: string): unknown {
  if (!(error instanceof RangeError) || !/call stack/i.test(error.message)) return error;
  return new McpGenError(
    "unsupported-construct",
    `unsupported construct: the schema nests or chains too deep for mcp-gen (stack overflow while ${during})`,
    { file, line: 1, column: 1 },
  );
}
