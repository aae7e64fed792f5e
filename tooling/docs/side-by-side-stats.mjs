// The numbers of docs/guide/side-by-side.md, counted from the two files of
// examples/side-by-side (the same server written with mcp-gen and with the v2 SDK), never
// typed by hand: lines of code (lines with something other than blanks and comments), per
// file and per `#region`, and the escapes from the type checker (`as` casts, non-null
// assertions, `any`). The page holds the table between two markers; packages/cli/test/side-by-side.test.ts
// fails when it differs from what this counts.
//   node tooling/docs/side-by-side-stats.mjs           prints the table
//   node tooling/docs/side-by-side-stats.mjs --write   writes it into the page
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { DOCS, ROOT } from "./tools.mjs";

export const EXAMPLE = join(ROOT, "examples", "side-by-side");
export const PAGE = join(DOCS, "guide", "side-by-side.md");
const FILES = { mcpGen: "with-mcp-gen.ts", sdk: "with-sdk.ts" };
/** The regions both files mark, in the table's order, with the row each gets. */
const REGIONS = [
  ["search", "`search_books` (object input, outputSchema)"],
  ["order", "`order_pizza` (enum, optional, nested)"],
  ["divide", "`divide` (isError)"],
  ["serve", "the server, served over HTTP"],
];
const BEGIN = "<!-- side-by-side-stats: written by tooling/docs/side-by-side-stats.mjs -->";
const END = "<!-- /side-by-side-stats -->";

/** The comment ranges of a source file, as [start, end) offsets. */
function commentRanges(source) {
  // A comment is the leading trivia of one token and the trailing trivia of another: once.
  const ranges = new Map();
  const add = (pos, end) => void ranges.set(pos, end);
  const visit = (node) => {
    ts.forEachLeadingCommentRange(source.text, node.pos, add);
    ts.forEachTrailingCommentRange(source.text, node.end, add);
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...ranges];
}

/** The 0-based numbers of the lines that hold code: something other than blanks and comments. */
function codeLines(source) {
  const chars = [...source.text];
  // Blanked out, their line breaks kept (a comment may span lines).
  for (const [start, end] of commentRanges(source))
    for (let i = start; i < end; i++) if (chars[i] !== "\n") chars[i] = " ";
  return new Set(
    chars
      .join("")
      .split("\n")
      .flatMap((line, i) => (line.trim() === "" ? [] : [i])),
  );
}

/** The 0-based lines inside `// #region name` ... `// #endregion name`. */
function regionLines(text, name) {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => new RegExp(`#region ${name}\\b`).test(l));
  const end = lines.findIndex((l) => new RegExp(`#endregion ${name}\\b`).test(l));
  if (start === -1 || end < start) throw new Error(`no region '${name}'`);
  return (line) => line > start && line < end;
}

/** The type checker's escape hatches in a source file, by kind. */
function escapes(source) {
  const found = { casts: 0, nonNull: 0, any: 0 };
  const visit = (node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      // `as const` narrows a literal's type; it asserts nothing the checker cannot see.
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.getText(source) === "const";
      if (!isConst) found.casts += 1;
    } else if (ts.isNonNullExpression(node)) found.nonNull += 1;
    else if (node.kind === ts.SyntaxKind.AnyKeyword) found.any += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What one file counts: lines of code in all and per region, and its escapes. */
export function fileStats(path) {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = [...codeLines(source)];
  const regions = Object.fromEntries(
    REGIONS.map(([name]) => [name, lines.filter(regionLines(text, name)).length]),
  );
  return { lines: lines.length, regions, ...escapes(source) };
}

/** Both files' numbers. */
export function sideBySideStats(dir = EXAMPLE) {
  return {
    mcpGen: fileStats(join(dir, FILES.mcpGen)),
    sdk: fileStats(join(dir, FILES.sdk)),
  };
}

/** The page's table, from the numbers. */
export function statsTable({ mcpGen, sdk }) {
  const rows = [
    ["Lines of code: the whole file", mcpGen.lines, sdk.lines],
    ...REGIONS.map(([name, row]) => [
      `Lines of code: ${row}`,
      mcpGen.regions[name],
      sdk.regions[name],
    ]),
    ["`as` casts (`as const` aside)", mcpGen.casts, sdk.casts],
    ["Non-null assertions (`!`)", mcpGen.nonNull, sdk.nonNull],
    ["`any`", mcpGen.any, sdk.any],
  ];
  return [
    `| | mcp-gen (\`${FILES.mcpGen}\`) | v2 SDK (\`${FILES.sdk}\`) |`,
    "| --- | ---: | ---: |",
    ...rows.map(([what, a, b]) => `| ${what} | ${a} | ${b} |`),
  ].join("\n");
}

/** The table the page holds between its markers, or undefined when the markers are missing. */
export function pageTable(page = readFileSync(PAGE, "utf8")) {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end < start) return undefined;
  return page.slice(start + BEGIN.length, end).trim();
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const table = statsTable(sideBySideStats());
  if (process.argv.includes("--write")) {
    const page = readFileSync(PAGE, "utf8");
    const start = page.indexOf(BEGIN);
    const end = page.indexOf(END);
    if (start === -1 || end < start) {
      console.error(`${PAGE}: no ${BEGIN} ... ${END} markers`);
      process.exit(1);
    }
    writeFileSync(PAGE, `${page.slice(0, start + BEGIN.length)}\n\n${table}\n\n${page.slice(end)}`);
    console.log(`side-by-side-stats: wrote the table into ${PAGE}`);
  } else console.log(table);
}
