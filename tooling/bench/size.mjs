// BENCH=size: what an `mcp-gen init` project's generated folder (src/mcp) holds, with the
// runtime imported from its package (the default) and copied into the output
// (`--runtime vendor`). Both are generated here with init's revisions (the latest plus every
// initialize-based one), from the built CLI. Then the minified bundles of a deployed server
// beside the v2 SDK's (tooling/bench/bundle.mjs).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { benchBundles } from "./bundle.mjs";
import { ROOT, SPEC, workDir } from "./common.mjs";

function measure(dir, under = "") {
  const totals = { files: 0, lines: 0, bytes: 0 };
  for (const entry of readdirSync(join(dir, under), { withFileTypes: true })) {
    const path = join(under, entry.name);
    if (entry.isDirectory()) {
      const inner = measure(dir, path);
      for (const key of Object.keys(totals)) totals[key] += inner[key];
    } else if (entry.name.endsWith(".ts")) {
      totals.files += 1;
      totals.lines += readFileSync(join(dir, path), "utf8").split("\n").length - 1;
      totals.bytes += statSync(join(dir, path)).size;
    }
  }
  return totals;
}

export async function benchSize() {
  const revisions = "latest,2025-11-25,2025-06-18,2025-03-26";
  console.log(`\ngenerated size of an init project's src/mcp (revisions ${revisions})`);
  console.log("mode     files   lines      KiB   of which runtime/");
  for (const mode of ["package", "vendor"]) {
    const out = join(workDir(`mcp-gen-size-${mode}-`), "mcp");
    const args = ["generate", "--spec", SPEC, "--revisions", revisions, "--out", out];
    const r = spawnSync(
      process.execPath,
      [join(ROOT, "packages", "cli", "dist", "cli", "main.js"), ...args, "--runtime", mode],
      {
        encoding: "utf8",
      },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    const all = measure(out);
    const runtime = mode === "vendor" ? measure(out, "runtime") : { lines: 0 };
    console.log(
      `${mode.padEnd(8)} ${String(all.files).padStart(5)} ${String(all.lines).padStart(7)} ${(all.bytes / 1024).toFixed(0).padStart(8)}   ${runtime.lines} lines`,
    );
  }
  await benchBundles(workDir("mcp-gen-bundle-"));
}
