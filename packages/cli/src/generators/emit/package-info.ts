import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The mcp-gen package folder, found upwards from this file (works from source and from dist/). */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "templates"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("mcp-gen: cannot find its own package folder");
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot();
export const TEMPLATE_DIR = join(PACKAGE_ROOT, "templates");
const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
};
export const VERSION: string = manifest.version;
/** The published package's name (the command is `mcp-gen` whatever the package is called). */
export const PACKAGE_NAME: string = manifest.name;
/**
 * The released revisions' schema.ts files, copied from the spec checkout when the package is
 * packed (tooling/release/bundle-spec.mjs): the spec of an installed mcp-gen when no --spec
 * or config names one. Absent in a development checkout.
 */
export const BUNDLED_SPEC_DIR = join(PACKAGE_ROOT, "bundled-spec");
export const hasBundledSpec = (): boolean => existsSync(join(BUNDLED_SPEC_DIR, "schema"));
/**
 * The runtime package generated code imports (packages/runtime in this repository, a
 * dependency of the published CLI): its folder, found as Node resolves it from here.
 */
export const RUNTIME_ROOT = dirname(
  realpathSync(createRequire(import.meta.url).resolve("@mcp-gen/runtime/package.json")),
);
const runtimeManifest = JSON.parse(readFileSync(join(RUNTIME_ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
};
export const RUNTIME_PACKAGE: string = runtimeManifest.name;
/** The version of the runtime installed beside this mcp-gen. */
export const RUNTIME_VERSION: string = runtimeManifest.version;
