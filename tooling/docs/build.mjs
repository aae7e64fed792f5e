// `npm run docs:build`: the documentation site, built and checked. Installs the docs tools
// (docs/package-lock.json) when missing, writes the API reference (TypeDoc over the
// runtime's entry points), refuses code in a page that is not included from a file and a
// path or package name the tree does not have (check-names.mjs), builds
// with VitePress (dead links fail it) and checks every link and anchor of the built pages.
// The browser check is `npm run docs:check` (tooling/docs/browser-check.mjs).
import { join } from "node:path";
import { buildApiReference } from "./api-reference.mjs";
import { brokenLinks } from "./check-links.mjs";
import { checkNames } from "./check-names.mjs";
import { checkSnippets } from "./check-snippets.mjs";
import { DOCS, installDocsTools, ROOT, runIn } from "./tools.mjs";

const started = Date.now();
const step = (what) =>
  console.log(`docs: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
try {
  installDocsTools();
  step("tools installed");
  checkSnippets();
  step("every code block comes from examples/");
  checkNames();
  step("every path and package the docs name exists");
  const entries = buildApiReference();
  step(`API reference written from ${entries} entry points`);
  runIn(ROOT, process.execPath, [
    join(DOCS, "node_modules", "vitepress", "bin", "vitepress.js"),
    "build",
    "docs",
  ]);
  step("site built into docs/.vitepress/dist");
  const { pages, broken } = brokenLinks();
  if (broken.length > 0) throw new Error(`${broken.length} broken links:\n${broken.join("\n")}`);
  step(`links of ${pages} pages checked`);
} catch (error) {
  console.error(`docs: ${error.message}`);
  process.exit(1);
}
