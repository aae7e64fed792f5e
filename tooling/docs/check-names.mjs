// Names in the docs that must exist: a page that names a file, folder or npm package the
// repository no longer has fails the docs build, one line per name (`file:line: what`).
// Read: the pages of docs/ (not the generated API reference), the repository files they
// include, README.md and CONTRIBUTING.md; not CHANGELOG.md, whose past entries name what
// was. Only inline code spans and Markdown links are read; fenced blocks are commands and
// output (their code comes from examples/, see check-snippets.mjs).
//
// The rules, so that a name is either checked or plainly not:
// - Links: a relative link (or one from the site root, `/guide/x`) must resolve from the
//   file it is in to a file or folder, a page being `x`, `x.md` or `x/index.md`; links into
//   GENERATED (the API reference, written by the build) are not checked. Links with
//   a scheme (https:, mailto:) and anchors alone are not checked here (the build checks
//   anchors on the built site).
// - Paths in code spans: each word of a span with a `/` in it is a repository path when its
//   first segment is a top-level entry of the repository, or a top-level folder of one of
//   its workspace packages (so `generators/x.ts` is still checked, and then fails, once
//   generators/ lives in a package), both read from the tree at run time. It must then
//   exist from the repository root; `*` matches within a segment. Not checked: words with a
//   placeholder (`<revision>`, `{name}`, `$VAR`, `...`), paths that start with `.` or `..`
//   (relative to a project or a command's folder), paths through node_modules (installed,
//   not in the tree), PROJECT_RELATIVE first segments (folders
//   of a generated project or of build output, which a fresh clone does not have), names on
//   OUTSIDE_PATHS (files of another checkout), and words without a `/` (`server.ts` is as
//   often a generated project's file as one of this repository's).
// - Packages in code spans: a scoped name (`@scope/name`, with an optional `@version` and
//   subpath) anywhere in a span, and an unscoped one after `npm install`, `npm i`,
//   `npm add`, `pnpm add`, `yarn add` or `bun add`, must be the name or a dependency of a
//   package.json in the repository, or on KNOWN_PACKAGES. A subpath of a package of this
//   repository (`@mcp-gen/runtime/redis`) must be one of its exports.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { pages, withIncludes } from "./check-snippets.mjs";
import { ROOT } from "./tools.mjs";

/** Packages the docs name that no package.json of the repository depends on: tools users
 * run or install, and libraries named for comparison. */
export const KNOWN_PACKAGES = new Set([
  "@modelcontextprotocol/inspector", // run with npx to try a server (reference/cli.md)
  "@fastify/cors", // named as a CORS package the runtime does without (deployment.md)
]);

/** First segments that name a generated project's folders or build output, not the tree. */
export const PROJECT_RELATIVE = new Set(["src", "dist", "out", "node_modules"]);

/** Paths of another checkout (the MCP specification's), named as such in the text. */
export const OUTSIDE_PATHS = new Set([
  "schema/draft/", // the spec checkout's draft schema (guide/spec-bumps.md, reference/cli.md)
  "schema/draft/schema.ts",
  "docs/community/sdk-tiers.mdx", // the spec repository's SDK tiering page (ROADMAP.md)
]);

/** Folders the docs build writes before the site is built: links into them are not checked. */
export const GENERATED = ["docs/reference/api"];

/** Workspaces whose src/ folder names are also protocol words: not taken as path roots. */
const RUNTIME_LIKE = new Set(["runtime"]);

const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "dist", "out"]);

/** What the tree holds, read now: path roots, packages and their exports. */
export function readTree(root = ROOT, docs = join(root, "docs")) {
  const rootPackage = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const workspaces = (rootPackage.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return existsSync(parent) ? readdirSync(parent).map((name) => join(parent, name)) : [];
  });
  const pathRoots = new Set(readdirSync(root));
  // A workspace's top-level folders and those of its src/: a name written from inside a
  // package (`test/x.ts`, `generators/y.ts`) is checked from the root, so it must be spelled
  // from there.
  for (const workspace of workspaces.filter(isFolder))
    for (const folder of [workspace, join(workspace, "src")].filter(isFolder))
      // The runtime's src/ folders (auth, client, core, server) read as protocol names.
      if (folder === workspace || !RUNTIME_LIKE.has(basename(workspace)))
        for (const name of readdirSync(folder))
          if (isFolder(join(folder, name))) pathRoots.add(name);
  for (const name of PROJECT_RELATIVE) pathRoots.delete(name);

  const packages = new Set(KNOWN_PACKAGES);
  const exportsOf = new Map();
  for (const file of packageFiles(root)) {
    const json = JSON.parse(readFileSync(file, "utf8"));
    if (json.name) packages.add(json.name);
    if (json.name && json.exports && typeof json.exports === "object")
      exportsOf.set(json.name, new Set(Object.keys(json.exports)));
    for (const field of [
      "dependencies",
      "devDependencies",
      "peerDependencies",
      "optionalDependencies",
    ])
      for (const name of Object.keys(json[field] ?? {})) packages.add(name);
  }
  return { root, docs, pathRoots, packages, exportsOf };
}

function packageFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (isFolder(path))
      return SKIPPED_FOLDERS.has(name) || name.startsWith(".") ? [] : packageFiles(path);
    return name === "package.json" ? [path] : [];
  });
}

/** Whether `path` (from `base`, `*` matching within a segment) names something that exists. */
function exists(base, path) {
  let candidates = [base];
  for (const segment of path.split("/").filter(Boolean)) {
    if (!segment.includes("*")) {
      candidates = candidates.map((dir) => join(dir, segment)).filter(existsSync);
      continue;
    }
    const pattern = new RegExp(`^${segment.split("*").map(escapeRegExp).join(".*")}$`);
    candidates = candidates.flatMap((dir) =>
      isFolder(dir)
        ? readdirSync(dir)
            .filter((name) => pattern.test(name))
            .map((name) => join(dir, name))
        : [],
    );
  }
  return candidates.length > 0;
}

const isFolder = (path) => existsSync(path) && statSync(path).isDirectory();
const escapeRegExp = (text) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/** A link target's problem, or undefined. */
function linkProblem(file, target, tree) {
  if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith("#")) return undefined;
  const path = decodeURI(target.replace(/[#?].*$/, ""));
  if (path === "") return undefined;
  const from = path.startsWith("/") ? join(tree.docs, path) : resolve(dirname(file), path);
  if (GENERATED.some((folder) => `${from}/`.startsWith(join(tree.root, folder) + "/"))) return;
  const found = [from, `${from}.md`, join(from, "index.md"), from.replace(/\.html$/, ".md")];
  if (found.some(existsSync)) return undefined;
  return `link ${target}: no such file or page (${relative(tree.root, from) || "."})`;
}

/** The repository paths and package names of one code span, each checked. */
function spanProblems(span, tree) {
  const problems = [];
  const words = span
    .split(/\s+/)
    .map((word) => word.replace(/^[("'[]+|[)"',;:\]]+$/g, "").replace(/(?<!\.)\.$/, ""));
  words.forEach((word, i) => {
    if (word.startsWith("@")) {
      const problem = packageProblem(word, tree);
      if (problem) problems.push(problem);
      return;
    }
    const installs = /^(npm (install|i|add)|pnpm add|yarn add|bun add)$/.test(
      words.slice(Math.max(0, i - 2), i).join(" "),
    );
    if (installs && /^[a-z0-9][\w.-]*(@[\w.^~-]+)?$/.test(word)) {
      const problem = packageProblem(word, tree);
      if (problem) problems.push(problem);
      return;
    }
    const problem = pathProblem(word, tree);
    if (problem) problems.push(problem);
  });
  return problems;
}

function pathProblem(word, tree) {
  if (!word.includes("/") || /[<>{}$]|\.\.\./.test(word) || /^\.\.?\//.test(word)) return;
  if (word.split("/").includes("node_modules")) return;
  const path = word.replace(/#.*$/, "").replace(/:\d+(-\d+)?$/, "");
  if (!/^[\w.@*-]+(\/[\w.@*-]+)*\/?$/.test(path)) return;
  if (!tree.pathRoots.has(path.split("/")[0]) || OUTSIDE_PATHS.has(path)) return;
  if (!exists(tree.root, path)) return `${path}: no such file or folder in the repository`;
}

function packageProblem(word, tree) {
  const scoped = /^(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*)(?:@[\w.^~-]+)?(\/[\w./-]*)?$/i.exec(word);
  const unscoped = /^([a-z0-9][\w.-]*)(?:@[\w.^~-]+)?$/.exec(word);
  const [, name, subpath] = scoped ?? unscoped ?? [];
  if (!name) return;
  if (!tree.packages.has(name))
    return `${name}: no package.json of the repository names this package (add it to KNOWN_PACKAGES in tooling/docs/check-names.mjs if the docs mean it)`;
  const exported = tree.exportsOf.get(name);
  if (
    subpath &&
    subpath !== "/" &&
    exported &&
    !subpath.includes("...") &&
    !exported.has(`.${subpath}`)
  )
    return `${name}${subpath}: ${name} exports no ${subpath.slice(1)}`;
}

/** The stale names of one Markdown file, each `file:line: what`. */
export function nameProblems(file, text, tree = readTree()) {
  const problems = [];
  let fence;
  text.split("\n").forEach((line, i) => {
    const open = /^\s*(```+|~~~+)/.exec(line);
    if (fence) {
      if (open && open[1].startsWith(fence) && line.trim() === open[1]) fence = undefined;
      return;
    }
    if (open) {
      fence = open[1];
      return;
    }
    const at = `${relative(tree.root, file)}:${i + 1}`;
    for (const [, , span] of line.matchAll(/(`+)(.+?)\1/g))
      for (const problem of spanProblems(span, tree)) problems.push(`${at}: ${problem}`);
    const prose = line.replace(/(`+).+?\1/g, "");
    for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const problem = linkProblem(file, target, tree);
      if (problem) problems.push(`${at}: ${problem}`);
    }
  });
  return problems;
}

/** The files read: see the top of this file. */
export function checkedFiles(root = ROOT, docs = join(root, "docs")) {
  const files = new Set(pages(docs).flatMap(withIncludes));
  for (const name of ["README.md", "CONTRIBUTING.md"]) files.add(join(root, name));
  files.delete(join(root, "CHANGELOG.md"));
  return [...files].filter(existsSync);
}

export function checkNames(root = ROOT, docs = join(root, "docs")) {
  const tree = readTree(root, docs);
  const problems = checkedFiles(root, docs).flatMap((file) =>
    nameProblems(file, readFileSync(file, "utf8"), tree),
  );
  if (problems.length > 0)
    throw new Error(`names in the docs that the tree does not have:\n${problems.join("\n")}`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  try {
    checkNames();
    console.log("check-names: every path and package the docs name exists");
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
