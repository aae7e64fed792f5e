import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

// How an `mcp-gen init` project depends on a package of mcp-gen's (the CLI; the runtime once
// it is a package): the way that package was installed where init runs, so the project's
// first `npm install` resolves it (a range on the registry 404s while the version is only a
// tarball on disk).

/** Where a package sits and what it is: its folder (real path) and version. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** The package's folder as the file system has it (symlinks resolved). */
  root: string;
}

/**
 * The dependency spec for `pkg` in a project at `target`:
 * - a development checkout or workspace folder (no node_modules in its path): `file:` the
 *   folder, relative to the project (the project moves with the checkout);
 * - installed from a tarball (the install's lockfile records `resolved: "file:...tgz"`):
 *   `file:` that tarball, relative to the project;
 * - installed from a git or plain URL the lockfile records: that source as it is;
 * - otherwise (a registry, or no record, as in a global install): `^version`.
 */
export function dependencySpec(pkg: InstalledPackage, target: string): string {
  const parts = pkg.root.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return fileSpec(pkg.root, target);
  const installRoot = parts.slice(0, at).join(sep) || sep;
  const key = parts.slice(at).join("/");
  const resolved = recordedSource(installRoot, key);
  if (resolved === undefined) return `^${pkg.version}`;
  if (resolved.startsWith("file:")) {
    const path = resolve(installRoot, resolved.slice("file:".length));
    return path.endsWith(".tgz") || path.endsWith(".tar.gz")
      ? fileSpec(path, target)
      : `^${pkg.version}`;
  }
  // A registry's tarball URL (`.../<name>/-/<file>.tgz`) means "from the registry": a range,
  // which the user's registry setting resolves; any other URL or git source is kept.
  if (/^https?:\/\/.*\/-\/[^/]+\.tgz$/.test(resolved)) return `^${pkg.version}`;
  return resolved;
}

function fileSpec(path: string, target: string): string {
  const rel = relative(target, path).split(sep).join("/");
  return `file:${rel.startsWith(".") ? rel : `./${rel}`}`;
}

/**
 * The `resolved` source npm recorded for `key` (`node_modules/@mcp-gen/cli`) in the install
 * at `installRoot`: its hidden lockfile (node_modules/.package-lock.json), else its
 * package-lock.json. Undefined when neither records it (a global install keeps none).
 */
function recordedSource(installRoot: string, key: string): string | undefined {
  for (const file of [
    join(installRoot, "node_modules", ".package-lock.json"),
    join(installRoot, "package-lock.json"),
  ]) {
    if (!existsSync(file)) continue;
    try {
      const lock = JSON.parse(readFileSync(file, "utf8")) as {
        packages?: Record<string, { resolved?: unknown }>;
      };
      const resolved = lock.packages?.[key]?.resolved;
      if (typeof resolved === "string") return resolved;
    } catch {
      // An unreadable lockfile tells nothing: the next one, else the registry range.
    }
  }
  return undefined;
}
