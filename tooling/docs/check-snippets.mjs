// Code shown in the docs comes from files: every fenced block of code (TypeScript,
// JavaScript, JSON) in a page must instead be an include of a file under examples/
// (`<<< @/../examples/<file>` or `...#<region>`), so what a page shows is what the tests
// type-check and run. Shell commands and output (sh, bash, console, text) may be written in
// place. Each include must name an existing file and, with #region, a region the file marks
// (`// #region name` ... `// #endregion name`). The API reference (TypeDoc's pages, written
// from the runtime's source) is not checked.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { DOCS, ROOT } from "./tools.mjs";

const CODE = new Set([
  "ts",
  "typescript",
  "js",
  "javascript",
  "mjs",
  "cjs",
  "tsx",
  "jsx",
  "json",
  "jsonc",
  "json5",
  "vue",
  "html",
]);
const IN_PLACE = new Set(["sh", "bash", "shell", "console", "text", "txt", ""]);
const EXAMPLES = join(ROOT, "examples");

export function pages(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", ".vitepress", "api"].includes(entry.name) ? [] : pages(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** The problems of one page's Markdown, each `file:line: what`. */
export function snippetProblems(file, text, docs = DOCS) {
  const problems = [];
  const at = (line) => `${relative(ROOT, file)}:${line}`;
  let fence;
  text.split("\n").forEach((line, i) => {
    const open = /^(\s*)(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fence) {
      if (open && open[2].startsWith(fence) && line.trim() === open[2]) fence = undefined;
      return;
    }
    if (open) {
      fence = open[2];
      const lang = open[3].toLowerCase();
      if (CODE.has(lang))
        problems.push(
          `${at(i + 1)}: a \`${lang}\` block written in the page; include it from a file under examples/ (<<< @/../examples/...)`,
        );
      else if (!IN_PLACE.has(lang))
        problems.push(
          `${at(i + 1)}: a \`${lang}\` block: only commands and output (sh, console, text) may be written in place`,
        );
      return;
    }
    const include = /^<<<\s+(\S+?)(?:#([\w-]+))?(?:\{[^}]*\})?(?:\s*\[.*\])?\s*$/.exec(line);
    if (!include) return;
    const [, target, region] = include;
    if (!target.startsWith("@/")) {
      problems.push(
        `${at(i + 1)}: include ${target}: name it from the docs root (<<< @/../examples/...)`,
      );
      return;
    }
    const path = resolve(docs, target.slice(2));
    if (!path.startsWith(EXAMPLES + "/")) {
      problems.push(`${at(i + 1)}: include ${target}: code shown in the docs comes from examples/`);
      return;
    }
    if (!existsSync(path)) {
      problems.push(`${at(i + 1)}: include ${target}: no such file`);
      return;
    }
    if (region) {
      const source = readFileSync(path, "utf8");
      const start = new RegExp(`#region ${region}\\b`);
      const end = new RegExp(`#endregion ${region}\\b`);
      if (!start.test(source) || !end.test(source))
        problems.push(
          `${at(i + 1)}: include ${target}#${region}: ${relative(ROOT, path)} has no region '${region}'`,
        );
    }
  });
  if (fence) problems.push(`${relative(ROOT, file)}: a code block that never closes`);
  return problems;
}

/** A page and the files it includes (`<!--@include: path-->`), which the site shows as its text. */
export function withIncludes(file) {
  const text = readFileSync(file, "utf8");
  const included = [...text.matchAll(/<!--@include:\s*([^\s#]+?)\s*-->/g)].map((m) =>
    resolve(file, "..", m[1]),
  );
  return [file, ...included.filter(existsSync)];
}

export function checkSnippets() {
  const files = [...new Set(pages(DOCS).flatMap(withIncludes))];
  const problems = files.flatMap((file) => snippetProblems(file, readFileSync(file, "utf8")));
  if (problems.length > 0)
    throw new Error(`code in the docs that is not from a file:\n${problems.join("\n")}`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  try {
    checkSnippets();
    console.log("check-snippets: every code block in the docs is included from examples/");
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
