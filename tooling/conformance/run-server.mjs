// `npm run conformance:server`: starts ONE fixture server (mcp-gen's generated dual-era
// dispatcher and HTTP server, on 127.0.0.1) and runs the official suite's server
// requirements of both revisions Tier 1 needs against it, concurrently. Prints one line per
// scenario, the scenarios not scored, and a count per requirement set.
//   --scenario X  just one (repeatable), at each revision that has it
//   --requirements R  just one requirement set
//   --host node  serve through the node:http host (serveHttp) instead of the fetch handler
//   MCP_GEN_TARGET=js+dts  the server on the js+dts target's JavaScript (setup.mjs)
import { spawn } from "node:child_process";
import { startFixtureServer } from "./fixture-server.mjs";
import { generatedJs, installSuite, NODE22, parseChecks, SUITE } from "./setup.mjs";

const REQUIREMENTS = ["2026-07-28", "2025-11-25"];
const args = process.argv.slice(2);
const chosen = args.flatMap((a, i) => (args[i - 1] === "--scenario" ? [a] : []));
const sets = args.flatMap((a, i) => (args[i - 1] === "--requirements" ? [a] : []));

installSuite();
const generated = await generatedJs();
const server = await startFixtureServer(generated, {
  host: args.includes("--host") ? args[args.indexOf("--host") + 1] : "fetch",
});

/** Runs the suite (Node 22) without blocking this process, which serves the requests. */
function suite(extra) {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITE, "server", "--url", server.url, ...extra], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (b) => (output += b));
    child.stderr.on("data", (b) => (output += b));
    const timer = setTimeout(() => child.kill(), 600_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** The scored results of one requirement set's summary ("✓ name: N passed, M failed"). */
function summarize(revision, output) {
  const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  const [scoredPart, unscoredPart = ""] = summary.split(/\nNot scored/);
  const unscored = new Set([...unscoredPart.matchAll(/^\s*[✓✗]\s+([\w/.-]+)/gmu)].map((m) => m[1]));
  const lines = [];
  const notScored = [];
  let passed = 0;
  let failed = 0;
  for (const m of scoredPart.matchAll(
    /^\s*([✓✗])\s+([\w/.-]+):\s*(\d+) passed,\s*(\d+) failed/gmu,
  )) {
    const ok = m[1] === "✓" && m[4] === "0";
    if (unscored.has(m[2])) {
      notScored.push(`${m[2]} ${ok ? "passes" : "fails"}`);
      continue;
    }
    if (ok) passed++;
    else failed++;
    lines.push(`${ok ? "PASS" : "FAIL"} [${revision}] ${m[2]}: ${m[3]} passed, ${m[4]} failed`);
  }
  return { lines, notScored, passed, failed };
}

const totals = [];
try {
  const revisions = sets.length > 0 ? sets : REQUIREMENTS;
  if (chosen.length > 0) {
    const runOne = async (scenario, revision) => {
      const { status, output } = await suite([
        "--scenario",
        scenario,
        ...(revision === "extension" ? [] : ["--spec-version", revision]),
      ]);
      // An extension scenario is on no spec timeline: the suite skips it at every revision.
      if (/SKIPPED: scenario '[^']*' is not applicable .*extension scenario/.test(output))
        return "extension";
      const checks = parseChecks(output);
      const ok = status === 0 && checks?.failed === 0;
      console.log(
        `${ok ? "PASS" : "FAIL"} [${revision}] ${scenario}: ${checks ? `${checks.passed}/${checks.total} checks, ${checks.failed} failed` : "no result"}`,
      );
      if (!ok || process.env.CONFORMANCE_VERBOSE) console.log(output);
      totals.push({ revision, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
    };
    for (const scenario of chosen) {
      let extension = false;
      for (const revision of revisions)
        extension = (await runOne(scenario, revision)) === "extension";
      // Run once at the version the suite picks for extensions (2026-07-28).
      if (extension) await runOne(scenario, "extension");
    }
  } else {
    const runs = await Promise.all(
      revisions.map((revision) =>
        suite(["--requirements", revision]).then((r) => ({ revision, ...r })),
      ),
    );
    for (const { revision, output } of runs) {
      const result = summarize(revision, output);
      result.lines.forEach((line) => console.log(line));
      if (result.notScored.length > 0)
        console.log(
          `not scored for ${revision} (extensions and pending): ${result.notScored.join(", ")}`,
        );
      if (
        result.passed + result.failed === 0 ||
        result.failed > 0 ||
        process.env.CONFORMANCE_VERBOSE
      )
        console.log(output);
      totals.push({ revision, passed: result.passed, failed: result.failed });
    }
  }
} finally {
  await server.close();
}
for (const t of totals.filter((t, i) => totals.findIndex((x) => x.revision === t.revision) === i)) {
  const same = totals.filter((x) => x.revision === t.revision);
  const passed = same.reduce((n, x) => n + x.passed, 0);
  const failed = same.reduce((n, x) => n + x.failed, 0);
  console.log(`conformance server (${t.revision}): ${passed} passed, ${failed} failed`);
}
const anyFailed = totals.some((t) => t.failed > 0) || totals.every((t) => t.passed === 0);
process.exitCode = anyFailed ? 1 : 0;
