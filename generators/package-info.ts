import { existsSync, readFileSync } from "node:fs";
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
/** The runtime's TypeScript sources, copied into every output under the generated header. */
export const RUNTIME_DIR = join(PACKAGE_ROOT, "runtime");
/**
 * The released revisions' schema.ts files, copied from the spec checkout when the package is
 * packed (scripts/release/bundle-spec.mjs): the spec of an installed mcp-gen when no --spec
 * or config names one. Absent in a development checkout.
 */
export const BUNDLED_SPEC_DIR = join(PACKAGE_ROOT, "bundled-spec");
export const hasBundledSpec = (): boolean => existsSync(join(BUNDLED_SPEC_DIR, "schema"));
