// The pack step (prepack) that makes an installed mcp-gen work with no spec checkout: the
// released revisions' schema.ts files (all that generation reads of a revision: see
// packages/cli/src/schema/revisions.ts and packages/cli/src/schema/reader.ts) are copied, unchanged, from the spec checkout into
// bundled-spec/, laid out as a checkout (schema/<revision>/schema.ts), with the spec
// repository's licence. Never committed: the folder is made when the package is packed and
// removed after (postpack).
//
//   node tooling/release/bundle-spec.mjs            copy (spec: $MCP_GEN_SPEC, else the
//                                                   repository config's "spec")
//   node tooling/release/bundle-spec.mjs --clean    remove bundled-spec/
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BUNDLED = join(ROOT, "packages", "cli", "bundled-spec");
/** The spec repository's LICENSE (commit b0f60ba5409d), for checkouts that lack it. */
const LICENSE_FALLBACK = join(dirname(fileURLToPath(import.meta.url)), "spec-LICENSE");
const SPEC_REPOSITORY = "https://github.com/modelcontextprotocol/modelcontextprotocol";

/** Released revisions only: dated folders. A draft is never shipped (`--spec` reaches one). */
const DATED = /^\d{4}-\d{2}-\d{2}$/;

/** The checkout to copy from: $MCP_GEN_SPEC, else the repository config's `spec`. */
export function specCheckout(env = process.env) {
  if (env.MCP_GEN_SPEC) return resolve(env.MCP_GEN_SPEC);
  const config = JSON.parse(readFileSync(join(ROOT, "mcp-gen.config.json"), "utf8"));
  return resolve(ROOT, config.spec);
}

/** The checkout's commit: git's when it is a clone, else the one its README names, if any. */
function commitOf(spec) {
  const git = spawnSync("git", ["-C", spec, "rev-parse", "HEAD"], { encoding: "utf8" });
  if (git.status === 0 && /^[0-9a-f]{40}$/.test(git.stdout.trim())) return git.stdout.trim();
  const readme = join(spec, "README.md");
  const named =
    existsSync(readme) && /\bcommit ([0-9a-f]{7,40})\b/.exec(readFileSync(readme, "utf8"));
  return named ? named[1] : undefined;
}

/**
 * Copies every dated revision's schema.ts from `spec` into `into` (replacing what was there),
 * with LICENSE and NOTICE.md. Returns the revisions copied and where the licence came from.
 */
export function bundleSpec({ spec, into = BUNDLED }) {
  const schemaDir = join(spec, "schema");
  if (!existsSync(schemaDir))
    throw new Error(
      `no spec checkout at ${spec} (no schema/ folder): set MCP_GEN_SPEC or the config's "spec" to a clone of ${SPEC_REPOSITORY}`,
    );
  const revisions = readdirSync(schemaDir)
    .filter((name) => DATED.test(name) && existsSync(join(schemaDir, name, "schema.ts")))
    .sort();
  if (revisions.length === 0) throw new Error(`${schemaDir} has no schema/<YYYY-MM-DD>/schema.ts`);
  rmSync(into, { recursive: true, force: true });
  for (const revision of revisions) {
    mkdirSync(join(into, "schema", revision), { recursive: true });
    copyFileSync(
      join(schemaDir, revision, "schema.ts"),
      join(into, "schema", revision, "schema.ts"),
    );
  }
  const ownLicence = join(spec, "LICENSE");
  const licence = existsSync(ownLicence) ? "checkout" : "fallback";
  copyFileSync(licence === "checkout" ? ownLicence : LICENSE_FALLBACK, join(into, "LICENSE"));
  const commit = commitOf(spec);
  writeFileSync(
    join(into, "NOTICE.md"),
    [
      "# The MCP schema files shipped with mcp-gen",
      "",
      `\`schema/<revision>/schema.ts\` (${revisions.join(", ")}) are copied unchanged from the`,
      `Model Context Protocol specification repository, ${SPEC_REPOSITORY}` +
        (commit ? ` (commit ${commit}).` : "."),
      "They are the default spec of an installed mcp-gen; `--spec DIR` or the config's",
      '`"spec"` points it at a checkout instead (drafts, newer revisions).',
      "",
      "They are licensed under the terms in LICENSE beside this file (the specification",
      "repository's licence: Apache-2.0 for specification contributions, older contributions",
      "MIT)" +
        (licence === "fallback"
          ? ", as that repository publishes it; the checkout packed from had no LICENSE file."
          : ", copied from the checkout."),
      "",
    ].join("\n"),
  );
  return { revisions, licence, commit };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--clean")) {
    rmSync(BUNDLED, { recursive: true, force: true });
  } else {
    try {
      const spec = specCheckout();
      const { revisions, licence } = bundleSpec({ spec });
      console.log(
        `bundle-spec: ${revisions.length} revisions (${revisions.join(", ")}) from ${spec} into bundled-spec/, licence from the ${licence === "checkout" ? "checkout" : "copy in tooling/release (the checkout has none)"}`,
      );
    } catch (error) {
      console.error(`bundle-spec: ${error.message}`);
      process.exit(1);
    }
  }
}
