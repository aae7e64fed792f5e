// `npm run conformance:client`: the official suite's client scenarios of BOTH requirement
// sets (2026-07-28, and 2025-11-25 reached through initialize) against ONE driver built on
// mcp-gen's generated client, which finds out each server's era by itself. Prints one line
// per scenario and the totals of each set.
//   --all         also the scored scenarios the driver does not implement (OAuth), to report them
//   --scenario X  just one (repeatable; run in every set that scores it)
//   --requirements R  just one set (repeatable)
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { generatedJs, HERE, installSuite, NODE22, parseChecks, SUITE } from "./setup.mjs";

/** Scored client scenarios the driver implements, per requirement set. */
const IMPLEMENTED = {
  "2026-07-28": [
    "tools_call",
    "request-metadata",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
  ],
  "2025-11-25": ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"],
};

const args = process.argv.slice(2);
const valuesOf = (flag) => args.flatMap((a, i) => (args[i - 1] === flag ? [a] : []));
const chosen = valuesOf("--scenario");
const sets = valuesOf("--requirements").length > 0 ? valuesOf("--requirements") : Object.keys(IMPLEMENTED);

installSuite();
const generated = await generatedJs();
const driver = `${NODE22} ${join(HERE, "client-driver.mjs")} ${generated}`;

/** The scenarios to run for one set: auth/* ones (no OAuth client) are reported, not counted. */
function scenariosOf(revision) {
  let scenarios = chosen.length > 0 ? chosen.filter((s) => IMPLEMENTED[revision].includes(s)) : IMPLEMENTED[revision];
  if (args.includes("--all")) {
    const list = spawnSync(NODE22, [SUITE, "list", "--client", "--requirements", revision], { encoding: "utf8" });
    const auth = [...list.stdout.matchAll(/^\s+(?:-\s+)?([\w/.-]+)/gm)].map((m) => m[1]).filter((n) => n.startsWith("auth/"));
    scenarios = [...new Set([...scenarios, ...auth])];
  }
  return scenarios;
}

const totals = [];
for (const revision of sets) {
  let passed = 0;
  let failed = 0;
  let notImplemented = 0;
  for (const scenario of scenariosOf(revision)) {
    const r = spawnSync(NODE22, [SUITE, "client", "--command", driver, "--scenario", scenario, "--spec-version", revision, "--timeout", "30000"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    const output = `${r.stdout}\n${r.stderr}`;
    const checks = parseChecks(output);
    const ok = r.status === 0 && checks !== undefined && checks.failed === 0;
    const auth = scenario.startsWith("auth/");
    if (ok) passed++;
    else if (auth) notImplemented++;
    else failed++;
    const summary = checks ? `${checks.passed}/${checks.total} checks, ${checks.failed} failed, ${checks.warnings} warnings` : "no result";
    console.log(`${ok ? "PASS" : auth ? "NOT IMPLEMENTED" : "FAIL"} [${revision}] ${scenario}: ${summary}`);
    if (!ok && process.env.CONFORMANCE_VERBOSE) console.log(output);
  }
  const line = `conformance client (${revision}): ${passed} passed, ${failed} failed${notImplemented ? `, ${notImplemented} auth/* not implemented (no OAuth client)` : ""}`;
  totals.push({ line, failed });
}
for (const { line } of totals) console.log(line);
process.exitCode = totals.some((t) => t.failed > 0) ? 1 : 0;
