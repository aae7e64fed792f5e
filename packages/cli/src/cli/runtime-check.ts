import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import satisfies from "semver/functions/satisfies.js";
import { RUNTIME_PACKAGE } from "../generators/emit/package-info.js";

// Generated code that imports the runtime package runs on whatever version the project has
// installed; the manifest records the versions it was generated for (`runtimeVersions`). A
// project can drift from them (a major runtime upgrade without regenerating, a lockfile that
// pins an old one): `generate --check` says so, the way it says a generated file is stale.

/** What is wrong with the runtime the output at `out` would load, or undefined when it fits `range`. */
export function runtimeProblem(out: string, range: string): string | undefined {
  let manifest: string;
  try {
    // Resolved as the output's own imports are: from a file in the output folder.
    manifest = createRequire(join(resolve(out), "index.js")).resolve(
      `${RUNTIME_PACKAGE}/package.json`,
    );
  } catch {
    return `${RUNTIME_PACKAGE} is not installed where the output imports it; install ${RUNTIME_PACKAGE}@${range}`;
  }
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  if (satisfies(version, range, { includePrerelease: true })) return undefined;
  return `${RUNTIME_PACKAGE} ${version} is installed, but the output was generated for ${range}; install ${RUNTIME_PACKAGE}@${range}, or regenerate with the mcp-gen that matches ${version}`;
}
