// `npm run conformance:client`: the official suite's client scenarios against ONE driver built
// on mcp-gen's generated client (with its OAuth client), which finds out each server's era by
// itself. Sets, each counted apart:
//   - scored: every client scenario `--requirements 2026-07-28` and `--requirements 2025-11-25`
//     require (auth/* included), each run at its own wire version;
//   - back-compat: the auth/2025-03-26-* scenarios, at 2025-03-26;
//   - extensions: the suite's extension client scenarios (run and reported, never failing the run).
// Prints one line per scenario and the totals of each set; exits 1 when a scored or back-compat
// scenario fails. Scenarios run a few at a time (CONFORMANCE_JOBS, default 3).
//   --scenario X      just one (repeatable; run in every set that has it)
//   --set S           just one set: 2026-07-28, 2025-11-25, back-compat, extensions (repeatable)
//   MCP_GEN_TARGET=js+dts  the driver on the js+dts target's JavaScript (setup.mjs)
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { generatedJs, HERE, installSuite, NODE22, parseChecks, SUITE } from "./setup.mjs";

const SCORED = ["2026-07-28", "2025-11-25"];
const BACK_COMPAT = { name: "back-compat", version: "2025-03-26" };
const EXTENSIONS = { name: "extensions", version: "2026-07-28" };
const TIMEOUT_MS = 15_000;

const args = process.argv.slice(2);
const valuesOf = (flag) => args.flatMap((a, i) => (args[i - 1] === flag ? [a] : []));
const chosen = valuesOf("--scenario");
const chosenSets = valuesOf("--set");
const jobs = Number(process.env.CONFORMANCE_JOBS ?? 3);

installSuite();
const generated = await generatedJs({ auth: true });
const driver = `${NODE22} ${join(HERE, "client-driver.mjs")} ${generated}`;

function list(...flags) {
  return spawnSync(NODE22, [SUITE, "list", "--client", ...flags], { encoding: "utf8" }).stdout;
}

/** The scenarios a requirement set scores, and the client extensions it runs unscored. */
function requirements(revision) {
  const text = list("--requirements", revision);
  const scored = text.split(/Client scenarios[^\n]*\n/)[1]?.split(/\n\s*\n/)[0] ?? "";
  const extension =
    text.split(/extension \(\d+\):\n/)[1]?.split(/\n\s*\S+ \(\d+\):|\n\s*\n/)[0] ?? "";
  const names = (block, tail = "") =>
    [...block.matchAll(new RegExp(`^\\s+-\\s+([\\w/.-]+)${tail}`, "gm"))].map((m) => m[1]);
  return { scored: names(scored), extensions: names(extension, " \\[client\\]") };
}

const sets = [];
for (const revision of SCORED)
  sets.push({
    name: revision,
    version: revision,
    scenarios: requirements(revision).scored,
    scored: true,
  });
const backCompat = [...list().matchAll(/^\s+-\s+(auth\/2025-03-26-[\w.-]+)/gm)].map((m) => m[1]);
sets.push({ ...BACK_COMPAT, scenarios: backCompat, scored: true });
sets.push({
  ...EXTENSIONS,
  scenarios: requirements("2026-07-28").extensions,
  scored: false,
  force: true,
});

const runs = sets
  .filter((set) => chosenSets.length === 0 || chosenSets.includes(set.name))
  .flatMap((set) =>
    set.scenarios
      .filter((s) => chosen.length === 0 || chosen.includes(s))
      .map((scenario) => ({ set, scenario })),
  );

/** Runs one scenario in the suite; resolves to its verdict and check counts. */
function runOne({ set, scenario }) {
  const flags = [
    "client",
    "--command",
    driver,
    "--scenario",
    scenario,
    "--spec-version",
    set.version,
    "--timeout",
    String(TIMEOUT_MS),
  ];
  if (set.force) flags.push("--force");
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITE, ...flags], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS * 4);
    child.on("close", (status) => {
      clearTimeout(timer);
      const checks = parseChecks(output);
      resolve({
        set,
        scenario,
        ok: status === 0 && checks !== undefined && checks.failed === 0,
        checks,
        output,
      });
    });
  });
}

const results = [];
let next = 0;
await Promise.all(
  Array.from({ length: Math.max(1, jobs) }, async () => {
    while (next < runs.length) {
      const result = await runOne(runs[next++]);
      results.push(result);
      const { set, scenario, ok, checks } = result;
      const summary = checks
        ? `${checks.passed}/${checks.total} checks, ${checks.failed} failed, ${checks.warnings} warnings`
        : "no result";
      console.log(`${ok ? "PASS" : "FAIL"} [${set.name}] ${scenario}: ${summary}`);
      if (!ok && process.env.CONFORMANCE_VERBOSE) console.log(result.output);
    }
  }),
);

let failedScored = 0;
for (const set of sets) {
  const mine = results.filter((r) => r.set === set);
  if (mine.length === 0) continue;
  const passed = mine.filter((r) => r.ok);
  const failed = mine.filter((r) => !r.ok).map((r) => r.scenario);
  if (set.scored) failedScored += failed.length;
  const label = set.scored ? set.name : `${set.name}, not scored`;
  const detail = set.scored
    ? ""
    : `; passing: ${passed.map((r) => r.scenario).join(", ") || "none"}`;
  console.log(
    `conformance client (${label}): ${passed.length}/${mine.length} passed${failed.length ? `; failing: ${failed.join(", ")}` : ""}${detail}`,
  );
}
process.exitCode = failedScored > 0 ? 1 : 0;
