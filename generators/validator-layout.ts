// Lays out generated validator code the way prettier does with the options of render.ts
// (printWidth 100), so validators.ts, by far the largest output, skips prettier. It only
// knows the few statement shapes the validator writer emits; test/validators-layout.test.ts
// checks that prettier leaves every revision's validators.ts unchanged.

import { WIDTH } from "./printer.js";

/**
 * Indents lines written without indentation: a line ending in `{` opens a level, a line
 * starting with `}` closes one, and each leading tab adds a level to that line alone
 * (statements under a `case`). Lines too long for the width are broken as prettier does.
 */
export function layout(lines: readonly string[], depth = 0): string {
  const out: string[] = [];
  for (const raw of lines) {
    let line = raw;
    let extra = 0;
    while (line.startsWith("\t")) {
      extra++;
      line = line.slice(1);
    }
    if (line.startsWith("}")) depth--;
    out.push(...fit("  ".repeat(depth + extra), line));
    if (line.endsWith("{")) depth++;
  }
  return out.join("\n");
}

/** One statement at an indentation, broken where it is wider than the page. */
function fit(indent: string, line: string): string[] {
  if (indent.length + line.length <= WIDTH) return [indent + line];
  // `if (test) statement;` -> the statement on the next line, one level deeper.
  const ifHead = /^(?:else )?if \(/.exec(line);
  if (ifHead) {
    const close = matching(line, ifHead[0].length - 1);
    const rest = line.slice(close + 2);
    if (close > 0 && rest !== "" && !rest.endsWith("{"))
      return [indent + line.slice(0, close + 1), ...fit(indent + "  ", rest)];
  }
  // `function f(a, b): R {` -> one parameter per line.
  const fn = /^(?:export )?function [\w$]+(?:<[^>]*>)?\(/.exec(line);
  if (fn && line.endsWith("{")) {
    const open = fn[0].length - 1;
    const close = matching(line, open);
    return [
      indent + line.slice(0, open + 1),
      ...splitArgs(line.slice(open + 1, close)).map((a) => `${indent}  ${a},`),
      indent + line.slice(close),
    ];
  }
  // `callee(a, b);` or `return callee(a, b);` -> one argument per line.
  const call = /^(?:return )?[\w$.]+(?:<[^>]*>)?\(/.exec(line);
  if (call && line.endsWith(");")) {
    const open = call[0].length - 1;
    if (matching(line, open) === line.length - 2) {
      return [
        indent + line.slice(0, open + 1),
        ...splitArgs(line.slice(open + 1, -2)).flatMap((a) => fitArgument(`${indent}  `, a)),
        indent + ");",
      ];
    }
  }
  return [indent + line];
}

/** An argument on its own line; an array literal still too wide gets one element per line. */
function fitArgument(indent: string, arg: string): string[] {
  if (
    indent.length + arg.length + 1 <= WIDTH ||
    !arg.startsWith("[") ||
    matching(arg, 0) !== arg.length - 1
  )
    return [`${indent}${arg},`];
  return [
    `${indent}[`,
    ...splitArgs(arg.slice(1, -1)).map((a) => `${indent}  ${a},`),
    `${indent}],`,
  ];
}

/** The index of the bracket closing the one at `open`, skipping string literals. */
function matching(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === text[start]) return i;
  }
  return text.length;
}

/** Splits an argument list at its top-level commas. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || c === ">") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out;
}
