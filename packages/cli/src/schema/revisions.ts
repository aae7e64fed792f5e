import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { McpGenError } from "./diagnostics.js";

export interface Revision {
  /** The folder name: a date such as `2026-07-28`, or `draft`. */
  name: string;
  dir: string;
  schemaTs: string;
  schemaJson: string;
  examplesDir: string;
}

const DATED = /^\d{4}-\d{2}-\d{2}$/;

/** Where a spec checkout comes from, for the messages that ask for one. */
export const SPEC_CLONE_HINT =
  "git clone https://github.com/modelcontextprotocol/modelcontextprotocol";

const isDir = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

function schemaRoot(specDir: string): string {
  const root = join(specDir, "schema");
  if (!isDir(root)) {
    // `--spec checkout/schema` or `--spec checkout/schema/2026-07-28`: name the checkout.
    const here = resolve(specDir);
    const checkout = [dirname(here), dirname(dirname(here))].find(
      (c) => isDir(join(c, "schema")) && (here + sep).startsWith(join(c, "schema") + sep),
    );
    if (checkout !== undefined) {
      throw new McpGenError(
        "spec-not-found",
        `spec folder not found: ${here} is inside the checkout's schema/ folder; pass --spec ${checkout}`,
      );
    }
    throw new McpGenError(
      "spec-not-found",
      `spec folder not found: ${here} has no schema/ folder (expected a checkout of the MCP specification repository: ${SPEC_CLONE_HINT})`,
    );
  }
  return root;
}

function revisionAt(root: string, name: string): Revision | undefined {
  const dir = join(root, name);
  const schemaTs = join(dir, "schema.ts");
  if (!existsSync(schemaTs)) return undefined;
  return {
    name,
    dir,
    schemaTs,
    schemaJson: join(dir, "schema.json"),
    examplesDir: join(dir, "examples"),
  };
}

/** The dated revisions of a spec checkout, oldest first. `draft` is only used when named. */
export function listRevisions(specDir: string): Revision[] {
  const root = schemaRoot(specDir);
  return readdirSync(root)
    .filter((name) => DATED.test(name))
    .sort()
    .map((name) => revisionAt(root, name))
    .filter((r): r is Revision => r !== undefined);
}

/** Whether the checkout has a draft revision (schema/draft/schema.ts). */
export function hasDraft(specDir: string): boolean {
  return revisionAt(schemaRoot(specDir), "draft") !== undefined;
}

/** Resolves `latest`, `draft` or a dated name to a revision folder, or explains what exists. */
export function findRevision(specDir: string, name = "latest"): Revision {
  const root = schemaRoot(specDir);
  const dated = listRevisions(specDir);
  const found = name === "latest" ? dated[dated.length - 1] : revisionAt(root, name);
  if (found) return found;
  const available = dated.map((r) => r.name);
  if (revisionAt(root, "draft")) available.push("draft");
  const list = available.length > 0 ? available.join(", ") : "none";
  // A named folder that exists but is empty (a checkout cut short): say so, not "unknown".
  const dir = join(root, name);
  if (name !== "latest" && statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new McpGenError(
      "revision-not-found",
      `${dir} has no schema.ts; revisions with one: ${list}, latest`,
    );
  }
  throw new McpGenError(
    "revision-not-found",
    name === "latest"
      ? `no revisions in ${root} (expected schema/<YYYY-MM-DD>/schema.ts)`
      : `unknown revision '${name}' in ${resolve(specDir)}; available: ${list}, latest`,
  );
}
