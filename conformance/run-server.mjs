// `npm run conformance:server`: starts the fixture server (mcp-gen's generated dispatcher
// and HTTP server, on 127.0.0.1) and runs the official suite's 2026-07-28 server
// requirements against it. Prints one line per scenario and the totals.
//   --scenario X  just one (repeatable)
import { spawn } from "node:child_process";
import { startFixtureServer } from "./fixture-server.mjs";
import { generatedJs, installSuite, NODE22, parseChecks, REVISION, SUITE } from "./setup.mjs";

const args = process.argv.slice(2);
const chosen = args.flatMap((a, i) => (args[i - 1] === "--scenario" ? [a] : []));

installSuite();
const generated = await generatedJs();
const server = await startFixtureServer(generated);

/** Runs the suite (Node 22) without blocking this process, which serves the requests. */
function suite(extra) {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITE, "server", "--url", server.url, ...extra], { stdio: ["ignore", "pipe", "pipe"] });
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

let passed = 0;
let failed = 0;
try {
  if (chosen.length > 0) {
    for (const scenario of chosen) {
      const { status, output } = await suite(["--scenario", scenario, "--spec-version", REVISION]);
      const checks = parseChecks(output);
      const ok = status === 0 && checks?.failed === 0;
      ok ? passed++ : failed++;
      console.log(`${ok ? "PASS" : "FAIL"} ${scenario}: ${checks ? `${checks.passed}/${checks.total} checks, ${checks.failed} failed` : "no result"}`);
      if (!ok || process.env.CONFORMANCE_VERBOSE) console.log(output);
    }
  } else {
    const { output } = await suite(["--requirements", REVISION]);
    // The summary lists every scenario ("✓ name: N passed, M failed"); those named again
    // under "Not scored" do not count.
    const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
    const [scoredPart, unscoredPart = ""] = summary.split(/\nNot scored/);
    const unscored = new Set([...unscoredPart.matchAll(/^\s*[✓✗]\s+([\w/.-]+)/gmu)].map((m) => m[1]));
    const notScored = [];
    for (const m of scoredPart.matchAll(/^\s*([✓✗])\s+([\w/.-]+):\s*(\d+) passed,\s*(\d+) failed/gmu)) {
      const ok = m[1] === "✓" && m[4] === "0";
      if (unscored.has(m[2])) {
        notScored.push(`${m[2]} ${ok ? "passes" : "fails"}`);
        continue;
      }
      ok ? passed++ : failed++;
      console.log(`${ok ? "PASS" : "FAIL"} ${m[2]}: ${m[3]} passed, ${m[4]} failed`);
    }
    if (notScored.length > 0) console.log(`not scored for ${REVISION} (extensions and pending): ${notScored.join(", ")}`);
    if (passed + failed === 0 || process.env.CONFORMANCE_VERBOSE) console.log(output);
  }
} finally {
  await server.close();
}
console.log(`conformance server (${REVISION}): ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
