// The API reference: TypeDoc over the runtime's public entry points, written as Markdown
// pages into docs/reference/api/ (never committed) with a sidebar for the site's config.
//
// The entry points: the runtime package's `exports` (packages/runtime/package.json), each
// subpath's source module, named in the reference by the subpath (typedoc-subpaths.mjs).
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DOCS, ROOT, runIn } from "./tools.mjs";

/**
 * The runtime package's entry points: for each subpath of `exports`, the TypeScript source
 * its `types` (or `import`/`default`) condition is built from (dist/x.d.ts -> src/x.ts).
 */
export function runtimeEntryPoints(root = ROOT) {
  const pkgDir = join(root, "packages", "runtime");
  const manifest = join(pkgDir, "package.json");
  if (!existsSync(manifest)) throw new Error(`api-reference: no runtime package at ${pkgDir}`);
  const pkg = JSON.parse(readFileSync(manifest, "utf8"));
  const entries = [];
  const subpaths = [];
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    if (subpath.includes("*") || subpath === "./package.json") continue;
    const built =
      typeof target === "string" ? target : (target.types ?? target.import ?? target.default);
    if (typeof built !== "string") continue;
    const source = built.replace(/^\.\/dist\//, "./src/").replace(/\.d\.ts$|\.js$/, ".ts");
    const path = resolve(pkgDir, source);
    if (!existsSync(path))
      throw new Error(`api-reference: ${subpath} -> ${built}: no source at ${path}`);
    entries.push(path);
    subpaths.push(subpath.replace(/^\.\//, ""));
  }
  if (entries.length === 0) throw new Error(`api-reference: ${manifest} exports no entry point`);
  const tsconfig = [join(pkgDir, "tsconfig.json"), join(root, "tsconfig.json")].find(existsSync);
  return { tsconfig, entries, subpaths, name: pkg.name };
}

/**
 * TypeDoc's name of each entry's module (its path from the entries' common folder, without
 * `/index.ts` or `.ts`) mapped to the subpath it is imported from.
 */
function moduleNames(entries, subpaths) {
  const parts = entries.map((e) => e.split("/"));
  let common = 0;
  while (parts.every((p) => p[common] === parts[0][common]) && common < parts[0].length - 1)
    common++;
  return Object.fromEntries(
    entries.map((entry, i) => [
      entry
        .split("/")
        .slice(common)
        .join("/")
        .replace(/\/index\.ts$|\.ts$/, ""),
      subpaths[i],
    ]),
  );
}

export function buildApiReference() {
  const { tsconfig, entries, subpaths, name } = runtimeEntryPoints();
  const typedoc = join(DOCS, "node_modules", "typedoc", "bin", "typedoc");
  const env = {
    ...process.env,
    MCP_GEN_TYPEDOC_MODULE_NAMES: JSON.stringify(moduleNames(entries, subpaths)),
  };
  runIn(
    DOCS,
    process.execPath,
    [
      typedoc,
      "--plugin",
      "typedoc-plugin-markdown",
      "--plugin",
      "typedoc-vitepress-theme",
      "--plugin",
      join(ROOT, "tooling", "docs", "typedoc-subpaths.mjs"),
      "--tsconfig",
      tsconfig,
      "--out",
      join(DOCS, "reference", "api"),
      "--docsRoot",
      DOCS,
      "--entryPointStrategy",
      "resolve",
      "--name",
      name ?? "mcp-gen runtime",
      "--readme",
      "none",
      "--hidePageHeader",
      "--excludePrivate",
      "--excludeInternal",
      "--disableSources",
      "--validation.notExported",
      "false",
      "--logLevel",
      "Warn",
      ...entries.flatMap((e) => ["--entryPoints", e]),
    ],
    env,
  );
  return entries.length;
}
