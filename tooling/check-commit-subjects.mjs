// CONTRIBUTING.md asks for commit subjects of at most 72 characters (what `git log --oneline`
// and most review tools show without cutting). This check, run by .ci/run, fails on a longer
// subject among the commits since the last tag; with no tag yet, since BASE, the commit the
// rule started to be checked at (older history keeps its subjects: rewriting it would change
// every hash).
//
//   node tooling/check-commit-subjects.mjs            check HEAD
//   node tooling/check-commit-subjects.mjs <rev>      check <rev> instead of HEAD
//
// A shallow clone lacks the history to check: the script says so in one line and passes.
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** main when the check was added; commits after it are checked while there is no tag. */
const BASE = "0bb022dd7aa06ddbb13da2e133f58d8c3b37cc72";
const LIMIT = 72;

/** git's output, or undefined when it exits non-zero. */
function git(...args) {
  const r = spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
  if (r.error) throw r.error;
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const head = process.argv[2] ?? "HEAD";
if (git("rev-parse", "--is-shallow-repository") === "true") {
  console.log("commit subjects: not checked (a shallow clone; clone with full history to check)");
  process.exit(0);
}
const tag = git("describe", "--tags", "--abbrev=0", head);
const since = tag ?? BASE;
if (git("cat-file", "-e", `${since}^{commit}`) === undefined) {
  console.error(`commit subjects: ${since} is not in this repository's history`);
  process.exit(1);
}
// %x00 separates hash and subject: a subject may hold any other character.
const log = git("log", "--format=%h%x00%s", `${since}..${head}`);
if (log === undefined) {
  console.error(`commit subjects: git log ${since}..${head} failed`);
  process.exit(1);
}
const commits = log === "" ? [] : log.split("\n").map((line) => line.split("\0"));
// Characters as a reader counts them (code points), not UTF-16 units or bytes.
const long = commits.filter(([, subject]) => [...subject].length > LIMIT);
for (const [hash, subject] of long)
  console.error(
    `${hash}: subject of ${[...subject].length} characters (at most ${LIMIT}): ${subject}`,
  );
const from = tag === undefined ? `${BASE.slice(0, 7)} (no tag yet)` : `tag ${tag}`;
if (long.length > 0) {
  console.error(
    `commit subjects: ${long.length} of ${commits.length} since ${from} over ${LIMIT} characters` +
      " (reword them: git rebase -i, then `reword`)",
  );
  process.exit(1);
}
console.log(`commit subjects: ${commits.length} since ${from}, all at most ${LIMIT} characters`);
