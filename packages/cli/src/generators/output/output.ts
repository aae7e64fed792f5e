import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { McpGenError } from "../../schema/diagnostics.js";
import { GENERATED_HEADER, type OutputFile } from "../emit/index.js";
import { firstLineOf } from "../emit/headers.js";
import { reviewKeptFiles, type KeptFileFindings } from "./kept-files.js";
import { makeDirs } from "./make-dirs.js";
import {
  MANIFEST,
  manifestText,
  parseManifest,
  type GeneratedWith,
  type Manifest,
} from "./manifest.js";

/**
 * The list of files one generation wrote into its output folder. Only files it lists are
 * ever removed as stale, so another generation's files (in `out/legacy/`, say, with its
 * own manifest) are never touched.
 */
export { MANIFEST } from "./manifest.js";

export interface OutputPlan {
  /** Files to create or replace (content differs or file missing). */
  write: OutputFile[];
  /** Generated files already up to date. */
  unchanged: string[];
  /** Files this generation wrote earlier that the current run no longer produces. */
  stale: string[];
  /** Scaffold files that exist already: the user's now, left alone. */
  kept: string[];
  /** The manifest's new text when it must be written; undefined when it is up to date. */
  manifest: string | undefined;
  /** The manifest the folder had (what the last generation wrote and how), if any. */
  previous: Manifest | undefined;
  /** What the user's files miss of this run (methods a kept skeleton never names, imports of removed files): advice only. */
  keptFindings: KeptFileFindings;
}

/** lstat, or undefined when nothing is there (a dangling symlink is something). */
function entry(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === "ENOENT" ||
      (error as NodeJS.ErrnoException).code === "ENOTDIR"
    )
      return undefined;
    throw outputFailure(path, error, "could not read");
  }
}

function isGenerated(path: string): boolean {
  return GENERATED_HEADER.test(firstLineOf(path));
}

/**
 * A staging folder of ours inside an existing output folder (`.mcp-gen-staging-<pid>-<ms>`).
 * One a killed run left behind is neither the user's nor a generated output: planning never
 * looks into it, so its files are never reported, replaced or removed.
 */
export const STAGING = /^\.mcp-gen-staging-\d+-\d+$/;

const NOT_WRITABLE: Record<string, string> = {
  EROFS: "is read-only",
  EACCES: "is not writable",
  EPERM: "is not writable",
};

/** The nearest folder at or above `path` that exists: the one that refused a write below it. */
function nearestExisting(path: string): string {
  let dir = path;
  while (dir !== dirname(dir) && !entry(dir)) dir = dirname(dir);
  return dir;
}

/**
 * Why `dir` refused a write, when it is read-only or not writable, or undefined. Asked of the
 * folder too, since some calls report something else: a recursive mkdir under a read-only
 * folder says ENOENT, a rename onto a read-only mount EXDEV.
 */
function refusal(dir: string, error: NodeJS.ErrnoException): string | undefined {
  const { code, syscall } = error;
  if (code && NOT_WRITABLE[code]) return `${dir} ${NOT_WRITABLE[code]} (${code})`;
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const probed = (error as NodeJS.ErrnoException).code;
    if (probed && NOT_WRITABLE[probed]) return `${dir} ${NOT_WRITABLE[probed]} (${probed})`;
  }
  // Making a folder or a file said "no such file" though the folder above exists and is
  // writable: the file system takes no new entries there (/proc, some FUSE mounts).
  if (code === "ENOENT" && (syscall === "mkdir" || syscall === "open"))
    return `${dir} takes no new files or folders (ENOENT)`;
  return undefined;
}

/**
 * An fs error as one line: what failed, where, and that nothing was changed. `into` is the
 * folder the failed step wrote into; a read-only or unwritable one is named as such.
 */
export function outputFailure(
  path: string,
  error: unknown,
  what = "could not write",
  into?: string,
): McpGenError {
  const e = error as NodeJS.ErrnoException;
  const refused = into !== undefined ? refusal(nearestExisting(into), e) : undefined;
  // Node's message ends with the syscall and its path (`, mkdir '/out/.mcp-gen-staging-1-2/new'`):
  // the staging folder is ours, not the user's, so the path given is the one they named.
  const bare = String(e.message ?? e).replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, "");
  const reason = refused ?? (e.code ? `${e.code}: ${bare.replace(/^[A-Z]+: /, "")}` : bare);
  return new McpGenError(
    "output-failed",
    `${what} ${path}: ${reason.split("\n")[0]}; the output was left as it was`,
  );
}

function conflict(path: string, why: string): McpGenError {
  return new McpGenError("output-conflict", `${path} ${why}; move it away or choose another --out`);
}

const NOT_OURS =
  'not generated by mcp-gen (the first line is not the "Code generated by mcp-gen" header)';

/** One line for every user file where a generated one goes: the first few named, then a count. */
function userFilesInTheWay(outDir: string, paths: string[]): McpGenError {
  if (paths.length === 1) return conflict(join(outDir, paths[0]!), `exists and was ${NOT_OURS}`);
  const named = paths.length <= 3 ? paths : [...paths.slice(0, 2), `${paths.length - 2} more`];
  const list = `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
  return new McpGenError(
    "output-conflict",
    `in ${outDir}, ${list} exist and were ${NOT_OURS}; move them away or choose another --out`,
  );
}

/** The output folder must be a folder (or not exist yet); a symlink to one is followed. */
function checkOutDir(outDir: string): boolean {
  const found = entry(outDir);
  if (!found) {
    // A file where a parent folder would go is named as such, before anything is staged.
    for (let dir = dirname(outDir); dir !== dirname(dir); dir = dirname(dir)) {
      const above = entry(dir);
      if (!above) continue;
      if (!above.isDirectory() && !statSync(dir, { throwIfNoEntry: false })?.isDirectory())
        throw conflict(dir, "is a file, not a folder");
      break;
    }
    return false;
  }
  if (found.isSymbolicLink()) {
    let target: Stats;
    try {
      target = statSync(outDir);
    } catch {
      throw conflict(outDir, "is a symbolic link to nothing (dangling)");
    }
    if (!target.isDirectory()) throw conflict(outDir, "is a symbolic link to a file, not a folder");
    return true;
  }
  if (!found.isDirectory()) throw conflict(outDir, "is a file, not a folder");
  return true;
}

/** Every folder between the output folder and `path` must be a real folder or missing. */
function checkParents(outDir: string, path: string): void {
  const segments = path.split("/").slice(0, -1);
  for (let i = 1; i <= segments.length; i++) {
    const dir = join(outDir, ...segments.slice(0, i));
    const found = entry(dir);
    if (!found) return;
    if (!found.isDirectory())
      throw conflict(dir, "is in the way of a generated folder (it is not a folder)");
  }
}

/** The output folder's manifest, or undefined when there is none; a file that is not one is a conflict. */
function readManifest(outDir: string): Manifest | undefined {
  const path = join(outDir, MANIFEST);
  const found = entry(path);
  if (!found) return undefined;
  const manifest = found.isFile() ? parseManifest(readFileSync(path, "utf8")) : undefined;
  if (!manifest) throw conflict(path, "is not an mcp-gen manifest");
  return manifest;
}

/**
 * Without a manifest (output of an mcp-gen that wrote none): the folder's own files, and
 * the files of the subfolders this generation writes into, never descending into a folder
 * that holds another generation's manifest.
 */
function ownedWithoutManifest(outDir: string, files: OutputFile[]): string[] {
  const own: string[] = [];
  const walk = (rel: string, deep: boolean) => {
    const dir = rel ? join(outDir, rel) : outDir;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isFile()) own.push(path);
      else if (
        e.isDirectory() &&
        deep &&
        !STAGING.test(e.name) &&
        !entry(join(outDir, path, MANIFEST))
      )
        walk(path, true);
    }
  };
  walk("", false);
  const subfolders = new Set(
    files.filter((f) => f.path.includes("/")).map((f) => f.path.slice(0, f.path.indexOf("/"))),
  );
  for (const sub of [...subfolders].sort()) {
    const found = entry(join(outDir, sub));
    if (found?.isDirectory() && !entry(join(outDir, sub, MANIFEST))) walk(sub, true);
  }
  return own;
}

/**
 * Compares what would be generated with the output folder. A file without mcp-gen's
 * header belongs to the user: if a generated file would replace it, that is an error.
 */
export function planOutput(
  out: string,
  files: OutputFile[],
  generatedWith?: GeneratedWith,
): OutputPlan {
  // Resolved first: "" would otherwise be no folder at all to the checks below, yet the
  // current one to the writes.
  const outDir = resolve(out);
  const plan: OutputPlan = {
    write: [],
    unchanged: [],
    stale: [],
    kept: [],
    manifest: undefined,
    previous: undefined,
    keptFindings: { unhandled: [], removedImports: [] },
  };
  const exists = checkOutDir(outDir);
  const manifest = manifestText(files, generatedWith);
  if (!exists) return { ...plan, write: [...files], manifest };
  // JSON (a declaration map of target js+dts, the json-schema generator's schema.json) can
  // carry no header line: it is mcp-gen's when the manifest lists it, as the one that wrote it did.
  let listed: ReadonlySet<string> | undefined;
  const isOurs = (path: string, target: string) =>
    isGenerated(target) ||
    (/\.(map|json)$/.test(path) && (listed ??= new Set(readManifest(outDir)?.paths)).has(path));
  // The user's files at generated paths: all named in one error, not one a run.
  const theirs: string[] = [];
  for (const file of files) {
    checkParents(outDir, file.path);
    const target = join(outDir, file.path);
    const found = entry(target);
    if (!found) plan.write.push(file);
    else if (file.kind === "scaffold") plan.kept.push(file.path);
    else if (found.isSymbolicLink())
      throw conflict(target, "is a symbolic link, not a file mcp-gen generated");
    else if (!found.isFile() || !isOurs(file.path, target)) theirs.push(file.path);
    else if (readFileSync(target, "utf8") === file.content) plan.unchanged.push(file.path);
    else plan.write.push(file);
  }
  if (theirs.length > 0) throw userFilesInTheWay(outDir, theirs);
  const previous = readManifest(outDir);
  plan.previous = previous;
  const produced = new Set(files.map((f) => f.path));
  for (const path of previous?.paths ??
    ownedWithoutManifest(outDir, files).filter((p) => p.endsWith(".ts"))) {
    if (produced.has(path)) continue;
    const target = join(outDir, path);
    // A listed file the user has since replaced with their own is theirs.
    if (entry(target)?.isFile() && isOurs(path, target)) plan.stale.push(path);
  }
  plan.stale.sort();
  if (previous?.text !== manifest) plan.manifest = manifest;
  if (plan.kept.length > 0 || plan.stale.length > 0)
    plan.keptFindings = reviewKeptFiles(outDir, files, plan.kept, plan.stale);
  return plan;
}

/**
 * Test-only fault injection, so tests can show what a full disk or a read-only file
 * system does: MCP_GEN_TEST_FAULT=<ERRNO> fails the first write into the staging folder,
 * MCP_GEN_TEST_FAULT=<ERRNO>@move fails the last move into the output folder (after the
 * others succeeded, so they must be restored). Unset outside tests.
 */
function injectFault(step: "stage" | "move"): void {
  const spec = process.env["MCP_GEN_TEST_FAULT"];
  if (!spec) return;
  const [code, at = "stage"] = spec.split("@");
  if (at === step)
    throw Object.assign(new Error(`${code}: simulated fault (MCP_GEN_TEST_FAULT)`), { code });
}

/**
 * Applies a plan so that the output is complete or untouched: everything is written to a
 * staging folder first; then files are moved into place, old versions kept aside until all
 * moves succeeded, and restored if any failed. An existing output folder holds its own
 * staging folder, so every rename stays on its file system (it may be a mount point: a
 * Docker volume, a tmpfs); a new one is staged beside it and appears in one rename.
 */
export function applyOutput(outDir: string, plan: OutputPlan): void {
  if (plan.write.length === 0 && plan.stale.length === 0 && plan.manifest === undefined) return;
  const absOut = resolve(outDir);
  const exists = checkOutDir(absOut);
  const home = exists ? absOut : dirname(absOut);
  const staging = join(
    home,
    exists
      ? `.mcp-gen-staging-${process.pid}-${Date.now()}`
      : `.${basename(absOut)}.mcp-gen-${process.pid}-${Date.now()}`,
  );
  const incoming = plan.write.map((f) => ({ path: f.path, content: f.content }));
  if (plan.manifest !== undefined) incoming.push({ path: MANIFEST, content: plan.manifest });
  // The folder the current step writes into: the one to name if it refuses.
  const step = { into: home };
  try {
    for (const file of incoming) {
      const path = join(staging, "new", file.path);
      makeDirs(dirname(path));
      injectFault("stage");
      writeText(path, file.content);
    }
    if (!exists) {
      makeDirs(home);
      step.into = dirname(absOut);
      renameSync(join(staging, "new"), absOut);
      return;
    }
    swapIn(
      absOut,
      staging,
      incoming.map((f) => f.path),
      plan.stale,
      step,
    );
  } catch (error) {
    throw error instanceof McpGenError ? error : outputFailure(outDir, error, undefined, step.into);
  } finally {
    try {
      rmSync(staging, { recursive: true, force: true });
    } catch {
      // A staging folder left behind is a dot-folder named as ours, which planning ignores.
    }
  }
}

/** Characters per write: a slice's UTF-8 copy is all of it that exists outside the heap at once. */
const WRITE_CHUNK = 1 << 20;

/**
 * Writes `text` as UTF-8 a slice at a time. writeFileSync would first copy a whole file
 * into one buffer (7.8 MB for validators.ts of a schema 20x the 2026-07-28 one) while
 * every other file is still held, at the generation's memory peak.
 */
export function writeText(path: string, text: string): void {
  const fd = openSync(path, "w");
  try {
    for (let start = 0; start < text.length;) {
      let end = Math.min(start + WRITE_CHUNK, text.length);
      // Never between the two halves of a surrogate pair: each would be written as U+FFFD.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      writeSync(fd, text.slice(start, end));
      start = end;
    }
  } finally {
    closeSync(fd);
  }
}

function swapIn(
  outDir: string,
  staging: string,
  incoming: string[],
  stale: string[],
  step: { into: string },
): void {
  const done: { target: string; backup: string | undefined }[] = [];
  const createdFolders: string[] = [];
  let n = 0;
  const moveAside = (target: string): string | undefined => {
    if (!entry(target)) return undefined;
    const backup = join(staging, "old", String(n++));
    makeDirs(dirname(backup));
    renameSync(target, backup);
    return backup;
  };
  try {
    incoming.forEach((path, i) => {
      const target = join(outDir, path);
      step.into = dirname(target);
      const created = makeDirs(dirname(target));
      if (created) createdFolders.push(created);
      const moved = { target, backup: moveAside(target) };
      done.push(moved);
      if (i === incoming.length - 1) injectFault("move");
      renameSync(join(staging, "new", path), target);
    });
    for (const path of stale) {
      step.into = dirname(join(outDir, path));
      done.push({ target: join(outDir, path), backup: moveAside(join(outDir, path)) });
    }
  } catch (error) {
    for (const { target, backup } of done.reverse()) {
      rmSync(target, { force: true });
      if (backup) {
        makeDirs(dirname(target));
        renameSync(backup, target);
      }
    }
    for (const folder of createdFolders.reverse()) rmSync(folder, { recursive: true, force: true });
    throw outputFailure(outDir, error, undefined, step.into);
  }
  removeEmptiedFolders(outDir, stale);
}

/** Folders that only held stale files go with them; the output folder itself stays. */
function removeEmptiedFolders(outDir: string, stale: string[]): void {
  for (const path of stale) {
    let dir = dirname(join(outDir, path));
    while (dir !== outDir && dir.startsWith(outDir)) {
      try {
        rmdirSync(dir);
      } catch {
        break; // not empty (or not ours to remove)
      }
      dir = dirname(dir);
    }
  }
}
