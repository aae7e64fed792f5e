// Where the error path's time goes: invalid CallToolRequests one breaker at a time (each
// breaker's 64 requests alone, so the code sees one shape family, unlike the mixed workload
// of tooling/bench/validators.mjs), ns per call of mcp-gen's validate* (all errors, and firstError),
// its fast check isCallToolRequest (which fails first on this input), and ajv with
// allErrors true and false. Each call's errors are read (their count), as a caller would.
// Method: a warm-up round, then ROUNDS rounds in which the contestants take turns; medians.
import { rmSync } from "node:fs";
import { median, workDir } from "./common.mjs";
import { CALL_TOOL_BREAKERS, invalidCallTools } from "./validator-inputs.mjs";
import { loadAjv, loadGenerated } from "./validators.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SAMPLE_NS = 150_000_000n;

/** ns per call of f over the inputs, repeated for about a sample's time. */
function nsPerCall(f, inputs) {
  let calls = 0;
  const start = process.hrtime.bigint();
  let now = start;
  while (now - start < SAMPLE_NS) {
    for (let i = 0; i < inputs.length; i++) f(inputs[i]);
    calls += inputs.length;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / calls;
}

export async function benchValidatorBreakers() {
  const work = workDir("mcp-gen-bench-breakers-");
  try {
    const v = await loadGenerated(work);
    const ajvAll = loadAjv(true)("CallToolRequest");
    const ajvFirst = loadAjv(false)("CallToolRequest");
    let read = 0;
    const contestants = {
      "validate*": (x) => (read += v.validateCallToolRequest(x).errors.length),
      "validate* firstError": (x) =>
        (read += v.validateCallToolRequest(x, { firstError: true }).errors.length),
      "is* (fast check)": (x) => (read += v.isCallToolRequest(x) ? 1 : 0),
      "ajv allErrors": (x) => (read += ajvAll(x) ? 1 : ajvAll.errors.length),
      "ajv first": (x) => (read += ajvFirst(x) ? 1 : ajvFirst.errors.length),
    };
    console.log(
      `\ninvalid CallToolRequest by breaker (64 requests each, ns per call, median of ${ROUNDS} rounds)`,
    );
    console.log(
      [
        "breaker".padEnd(24),
        ...Object.keys(contestants).map((k) => k.padStart(21)),
        "  all/ajv  first/ajv",
      ].join(""),
    );
    for (const [name, breaker] of Object.entries(CALL_TOOL_BREAKERS)) {
      const inputs = invalidCallTools(64, [breaker]);
      const names = Object.keys(contestants);
      const times = Object.fromEntries(names.map((k) => [k, []]));
      for (let round = 0; round <= ROUNDS; round++) {
        for (let j = 0; j < names.length; j++) {
          const k = names[(j + round) % names.length];
          const t = nsPerCall(contestants[k], inputs);
          if (round > 0) times[k].push(t);
        }
      }
      const m = Object.fromEntries(names.map((k) => [k, median(times[k])]));
      const ratio = (a, b) => `${(b / a).toFixed(2)}x`.padStart(9);
      console.log(
        [
          name.padEnd(24),
          ...names.map((k) => m[k].toFixed(0).padStart(21)),
          ratio(m["validate*"], m["ajv allErrors"]),
          ratio(m["validate* firstError"], m["ajv first"]),
        ].join(""),
      );
    }
    if (read < 0) console.log(read);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
