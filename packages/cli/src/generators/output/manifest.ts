import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import type { OutputFile } from "../emit/plugin.js";
import type { RuntimeMode } from "../emit/runtime.js";
import { TARGETS, type Target } from "./target.js";

// The manifest an output folder keeps of its generation: which files mcp-gen wrote (the only
// ones it ever removes), a hash of each as written (so `--check` can tell a file edited by
// hand from one generated otherwise), and the options that decided them.

export const MANIFEST = ".mcp-gen-manifest.json";

/** What decided an output besides the schema: recorded so `--check` can name the difference. */
export interface GeneratedWith {
  /** The revisions served, newest first. */
  revisions: string[];
  /** The generators run (after their dependencies were added), in mcp-gen's order. */
  generators: string[];
  auth: boolean;
  /** How the output reaches the runtime; absent in manifests from before the runtime package ("vendor"). */
  runtime?: RuntimeMode;
  /** Package mode: the versions of @mcp-gen/runtime the output works with (`^1.0.0`). */
  runtimeVersions?: string;
  /** The form of the code (see target.ts); absent for the default, `ts`. */
  target?: Target;
  /** The names of the plugins run (`--plugin`, config `plugins`); absent when none ran. */
  plugins?: string[];
}

export interface Manifest {
  paths: string[];
  /** sha256 (hex, first 16 digits) of each file as written; absent in older manifests. */
  hashes: ReadonlyMap<string, string>;
  generatedWith: GeneratedWith | undefined;
  text: string;
}

/** The first 16 hex digits of a text's sha256: enough to tell an edit, short in the manifest. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export function manifestText(files: OutputFile[], generatedWith?: GeneratedWith): string {
  const generated = files
    .filter((f) => f.kind === "generated")
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const doc = {
    "//": "Files mcp-gen generated here; it removes only these when they are no longer generated. DO NOT EDIT.",
    ...(generatedWith ? { generatedWith } : {}),
    files: generated.map((f) => f.path),
    sha256: Object.fromEntries(generated.map((f) => [f.path, contentHash(f.content)])),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A relative path that stays inside the folder it is relative to. */
export function isInside(path: string): boolean {
  return (
    path !== "" &&
    !posix.isAbsolute(path) &&
    posix.normalize(path) === path &&
    !path.startsWith("../") &&
    path !== ".."
  );
}

const isStrings = (x: unknown): x is string[] =>
  Array.isArray(x) && x.every((s) => typeof s === "string");

/**
 * A manifest's contents, or undefined when `text` is not one (the caller says so). Older
 * manifests have only `files`; the hashes and options are read when well formed and
 * otherwise ignored, since they only refine what `--check` says.
 */
export function parseManifest(text: string): Manifest | undefined {
  let doc: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    doc = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const paths = doc["files"];
  if (!isStrings(paths) || !paths.every(isInside)) return undefined;
  const hashes = new Map<string, string>();
  const sha = doc["sha256"];
  if (typeof sha === "object" && sha !== null && !Array.isArray(sha)) {
    for (const [path, hash] of Object.entries(sha))
      if (typeof hash === "string" && /^[0-9a-f]{16}$/.test(hash)) hashes.set(path, hash);
  }
  const w = doc["generatedWith"] as Partial<GeneratedWith> | undefined;
  const generatedWith =
    w && isStrings(w.revisions) && isStrings(w.generators) && typeof w.auth === "boolean"
      ? {
          revisions: w.revisions,
          generators: w.generators,
          auth: w.auth,
          runtime: w.runtime === "package" ? ("package" as const) : ("vendor" as const),
          ...(typeof w.runtimeVersions === "string" ? { runtimeVersions: w.runtimeVersions } : {}),
          ...(TARGETS.includes(w.target as Target) && w.target !== "ts"
            ? { target: w.target as Target }
            : {}),
          ...(isStrings(w.plugins) && w.plugins.length > 0 ? { plugins: w.plugins } : {}),
        }
      : undefined;
  return { paths, hashes, generatedWith, text };
}

/** A file's text for hashing, or undefined when it cannot be read. */
export function readForHash(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** How `now` differs from `was`, as the options that would give `was` (`--revisions a,b`), or undefined. */
export function optionsDifference(was: GeneratedWith, now: GeneratedWith): string | undefined {
  const parts: string[] = [];
  if (was.revisions.join(",") !== now.revisions.join(","))
    parts.push(`--revisions ${was.revisions.join(",")}`);
  if (was.generators.join(",") !== now.generators.join(","))
    parts.push(`--generators ${was.generators.join(",")}`);
  if (was.auth !== now.auth) parts.push(was.auth ? "--auth" : "no --auth");
  if ((was.runtime ?? "vendor") !== (now.runtime ?? "vendor"))
    parts.push(`--runtime ${was.runtime ?? "vendor"}`);
  if ((was.target ?? "ts") !== (now.target ?? "ts")) parts.push(`--target ${was.target ?? "ts"}`);
  if ((was.plugins ?? []).join(",") !== (now.plugins ?? []).join(","))
    parts.push(was.plugins?.length ? `the plugins ${was.plugins.join(", ")}` : "no plugins");
  return parts.length > 0 ? parts.join(", ") : undefined;
}
