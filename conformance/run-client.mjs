// `npm run conformance:client`: the official suite's 2026-07-28 client scenarios against a
// driver built on mcp-gen's generated client. Prints one line per scenario and the totals.
//   --all         also the scored scenarios the driver does not implement (OAuth), to report them
//   --scenario X  just one (repeatable)
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { generatedJs, HERE, installSuite, NODE22, parseChecks, REVISION, SUITE } from "./setup.mjs";

/** Scored 2026-07-28 client scenarios the driver implements. */
const IMPLEMENTED = [
  "tools_call",
  "request-metadata",
  "sep-2322-client-request-state",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-ref-no-deref",
];

const args = process.argv.slice(2);
const chosen = args.flatMap((a, i) => (args[i - 1] === "--scenario" ? [a] : []));

installSuite();
const generated = await generatedJs();
let scenarios = chosen.length > 0 ? chosen : IMPLEMENTED;
if (args.includes("--all")) {
  const list = spawnSync(NODE22, [SUITE, "list", "--client", "--requirements", REVISION], { encoding: "utf8" });
  const scored = [...list.stdout.matchAll(/^\s+(?:-\s+)?([\w/.-]+)/gm)].map((m) => m[1]).filter((n) => n.startsWith("auth/"));
  scenarios = [...new Set([...IMPLEMENTED, ...scored])];
}

const driver = `${NODE22} ${join(HERE, "client-driver.mjs")} ${generated}`;
let passed = 0;
let failed = 0;
for (const scenario of scenarios) {
  const r = spawnSync(NODE22, [SUITE, "client", "--command", driver, "--scenario", scenario, "--spec-version", REVISION, "--timeout", "30000"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  const output = `${r.stdout}\n${r.stderr}`;
  const checks = parseChecks(output);
  const ok = r.status === 0 && checks !== undefined && checks.failed === 0;
  if (ok) passed++;
  else failed++;
  const summary = checks ? `${checks.passed}/${checks.total} checks, ${checks.failed} failed, ${checks.warnings} warnings` : "no result";
  console.log(`${ok ? "PASS" : "FAIL"} ${scenario}: ${summary}`);
  if (!ok && process.env.CONFORMANCE_VERBOSE) console.log(output);
}
console.log(`conformance client (${REVISION}): ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
