import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { bundleSpec } from "../../../../tooling/release/bundle-spec.mjs";

// Running an init project's commands and servers from the tests: npm, a free port, and
// waiting for a started process to say it is ready.

/** Runs npm in `cwd` (up to 5 minutes): its exit status and everything it printed. */
export function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", timeout: 300_000, env });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

export { freePort } from "./free-port.js";

/** Resolves to what `child` printed (stdout and stderr) once its stdout contains `until`; rejects if it exits first. */
export function printedUntil(child: ChildProcess, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b: Buffer) => ((out += b), out.includes(until) && resolve(out)));
    child.stderr!.on("data", (b: Buffer) => (out += b));
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

/**
 * mcp-gen packed as `npm pack` packs it (with the spec's released schemas its prepack bundles),
 * without running prepack in the checkout: `npm test` has just built dist/, and a bundled-spec/
 * in the checkout would change every command's default spec while other test files run. The
 * package is packed, unpacked, given its bundled-spec/ and packed again. Returns the tarball.
 */
export function packWithBundledSpec(): string {
  const root = resolve(import.meta.dirname, "..", "..");
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-pack-"));
  const first = npm(["pack", "--ignore-scripts", "--pack-destination", work, root], work);
  if (first.status !== 0) throw new Error(`npm pack failed: ${first.output}`);
  const packed = readdirSync(work).find((f) => f.endsWith(".tgz"))!;
  const untar = spawnSync("tar", ["-xzf", packed], { cwd: work, encoding: "utf8" });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  bundleSpec({
    spec: join(root, "..", "..", "..", "shared", "spec"),
    into: join(work, "package", "bundled-spec"),
  });
  const out = join(work, "dist");
  mkdirSync(out);
  const again = npm(
    ["pack", "--ignore-scripts", "--pack-destination", out, join(work, "package")],
    work,
  );
  if (again.status !== 0) throw new Error(`npm pack failed: ${again.output}`);
  return join(out, packed);
}
