// The API reference: TypeDoc over the runtime's public entry points, written as Markdown
// pages into docs/reference/api/ (never committed) with a sidebar for the site's config.
//
// The entry points: the runtime package's `exports` (packages/runtime/package.json) once it
// is a package, each subpath's source module; until then the runtime modules generated code
// reaches (runtime/, copied into every output), named below.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DOCS, ROOT, runIn } from "./tools.mjs";

/** The runtime modules that make up its public face before it is a package. */
const FLAT_RUNTIME = [
  "router.ts",
  "context.ts",
  "tools.ts",
  "request-state.ts",
  "errors.ts",
  "validation.ts",
  "client.ts",
  "http-server.ts",
  "http-client.ts",
  "stdio.ts",
  "resource-server.ts",
  "auth-client.ts",
  "tasks.ts",
];

/**
 * The runtime package's entry points: for each subpath of `exports`, the TypeScript source
 * its `types` (or `import`/`default`) condition is built from (dist/x.d.ts -> src/x.ts).
 */
export function runtimeEntryPoints(root = ROOT) {
  const pkgDir = join(root, "packages", "runtime");
  const manifest = join(pkgDir, "package.json");
  if (!existsSync(manifest)) {
    return {
      tsconfig: join(root, "runtime", "tsconfig.json"),
      entries: FLAT_RUNTIME.map((f) => join(root, "runtime", f)),
    };
  }
  const pkg = JSON.parse(readFileSync(manifest, "utf8"));
  const entries = [];
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
  }
  if (entries.length === 0) throw new Error(`api-reference: ${manifest} exports no entry point`);
  const tsconfig = [join(pkgDir, "tsconfig.json"), join(root, "tsconfig.json")].find(existsSync);
  return { tsconfig, entries };
}

export function buildApiReference() {
  const { tsconfig, entries } = runtimeEntryPoints();
  const typedoc = join(DOCS, "node_modules", "typedoc", "bin", "typedoc");
  runIn(DOCS, process.execPath, [
    typedoc,
    "--plugin",
    "typedoc-plugin-markdown",
    "--plugin",
    "typedoc-vitepress-theme",
    "--tsconfig",
    tsconfig,
    "--out",
    join(DOCS, "reference", "api"),
    "--docsRoot",
    DOCS,
    "--entryPointStrategy",
    "resolve",
    "--name",
    "mcp-gen runtime",
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
  ]);
  return entries.length;
}
