// Validation throughput, in one process: mcp-gen's generated is*/validate* (and
// validate*(v, { firstError: true })), ajv in the spec's configuration (allErrors: true)
// and with allErrors: false, zod (the v2 TypeScript SDK's schemas) where comparable, and
// typia (9.7.2's `typia generate`).
//
// Method: every workload is a set of distinct inputs (a fresh object each, so the JIT
// cannot hoist work out of a loop over one value); validators are resolved before timing
// (no lookup inside the timed call); one untimed warm-up round, then ROUNDS rounds in which
// the contestants take turns (the order rotating each round); the median of the rounds is
// printed with the min and max, and the ratio to the peer (ajv unless named): the median of
// the per-round ratios. Each contestant calls its validator from call sites of its own (`fresh`):
// one per single-type workload, one shared by all types in the corpus workloads.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import ts from "typescript";
import { ROOT, SPEC, median, transpileDir, workDir } from "./common.mjs";
import {
  REVISION,
  callTools,
  clientRequests,
  corpus,
  invalidCallTools,
  invalidCorpus,
  messages,
  toolList,
  toolListInvalidLast,
} from "./validator-inputs.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TIME_PER_SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 150);

export async function loadGenerated(work) {
  const out = join(work, "mcp-gen");
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, "packages/cli/dist/cli/main.js"),
      "generate",
      "--spec",
      SPEC,
      "--revision",
      REVISION,
      "--out",
      out,
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return import(join(transpileDir(out, join(work, "mcp-gen-js")), "validators.js"));
}

export function loadAjv(allErrors) {
  const json = JSON.parse(readFileSync(join(SPEC, "schema", REVISION, "schema.json"), "utf8"));
  const ajv = new Ajv2020({ strict: false, allErrors });
  addFormats(ajv);
  ajv.addSchema({ ...json, $id: "mcp" });
  return (type) => ajv.getSchema(`mcp#/$defs/${type}`);
}

/** typia generate over the spec's own types; undefined (with the reason) if it cannot run. */
async function loadTypia(types) {
  // Inside the project, so the sources resolve typia and its runtime from node_modules.
  const work = join(ROOT, "tooling", "bench", `.work-typia-${process.pid}`);
  const src = join(work, "src");
  const gen = join(work, "gen");
  mkdirSync(src, { recursive: true });
  const schemaImport = join(SPEC, "schema", REVISION, "schema.js");
  const lines = [
    `import typia from "typia";`,
    `import type * as S from ${JSON.stringify(schemaImport)};`,
  ];
  for (const t of types) {
    lines.push(
      `export const is${t} = typia.createIs<S.${t}>();`,
      `export const validate${t} = typia.createValidate<S.${t}>();`,
    );
  }
  writeFileSync(join(src, "validators.ts"), lines.join("\n") + "\n");
  writeFileSync(
    join(work, "tsconfig.typia.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        skipLibCheck: true,
      },
      include: [src],
    }),
  );
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, "node_modules/typia/lib/executable/typia.js"),
      "generate",
      "--input",
      src,
      "--output",
      gen,
      "--project",
      join(work, "tsconfig.typia.json"),
    ],
    { encoding: "utf8", cwd: ROOT },
  );
  if (r.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    return { reason: (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ") };
  }
  const js = ts.transpileModule(readFileSync(join(gen, "validators.ts"), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(work, "validators.mjs");
  writeFileSync(file, js);
  try {
    return { module: await import(file) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function loadZod() {
  const core = await import("@modelcontextprotocol/core");
  return (name) => core[`${name}Schema`];
}

// ---- measuring -------------------------------------------------------------------------

/**
 * Operations per second of calls[i](inputs[i]) over all inputs, repeated for about a
 * sample's time. `calls` is resolved before timing: one function per input.
 */
function sample(calls, inputs) {
  let ops = 0;
  let sink = 0;
  const start = performance.now();
  let now = start;
  while (now - start < TIME_PER_SAMPLE_MS) {
    for (let i = 0; i < inputs.length; i++) if (calls[i](inputs[i])) sink++;
    ops += inputs.length;
    now = performance.now();
  }
  if (sink < 0) console.log(sink);
  return (ops * 1000) / (now - start);
}

/**
 * A copy of `make` (a function returning a wrapper around one validator) with call sites of
 * its own. V8 shares type feedback between the closures of one function literal, so one
 * wrapper literal used by every contestant and workload would make each wrapper's inner call
 * megamorphic (no inlining), which no real call site of one validator is. Every contestant,
 * peers alike, gets its own copy; `make` must not capture variables.
 */
let sites = 0;
function fresh(make) {
  return new Function(`return (${make.toString()}) /* call site ${++sites} */`)();
}

/**
 * The median of the per-round ratios: both sides of a pair ran in the same round, close in
 * time, so a slow stretch of the machine moves both, where a ratio of two medians can pair
 * one side's good round with the other's bad one.
 */
function pairedRatio(xs, peers) {
  return median(xs.map((x, round) => x / peers[round]));
}

const fmt = (x) => Math.round(x).toLocaleString("en-US");

// Both list sizes validate 10,000 tools per pass (ten lists of 1,000, one of 10,000): the
// per-tool cost then compares the validators' work per item, not a 2.5x larger working set
// falling out of the CPU cache (which slowed every contestant, ajv included).
const LISTS_OF = (count) => 10000 / count;

// One process's JIT state moves every contestant's speed (the same generated code measured
// up to 1.6x apart in instructions per call between two runs of one process), so the rounds
// run in BENCH_PROCESSES fresh processes (default 3), one after the other; the ratio printed
// is the median of the processes' paired ratios, with their range.
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 3);
const CHILD = process.env.BENCH_VALIDATORS_CHILD === "1";
const RESULT_MARK = "BENCH-VALIDATORS-RESULT ";

export async function benchValidators() {
  if (CHILD) {
    console.log(RESULT_MARK + JSON.stringify(await measure()));
    return;
  }
  const runs = [];
  for (let i = 0; i < PROCESSES; i++) {
    const r = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url)], {
      encoding: "utf8",
      env: { ...process.env, BENCH_VALIDATORS_CHILD: "1" },
      maxBuffer: 64 * 1024 * 1024,
    });
    const line = r.stdout.split("\n").find((l) => l.startsWith(RESULT_MARK));
    if (r.status !== 0 || !line)
      throw new Error(
        `validator bench process ${i + 1} failed: ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ")}`,
      );
    runs.push(JSON.parse(line.slice(RESULT_MARK.length)));
  }
  report(runs);
}

/** Every workload's contestants measured in this process: ops/s per round, verdict disagreements. */
async function measure() {
  const work = workDir("mcp-gen-bench-validators-");
  const ours = await loadGenerated(work);
  const ajvFor = loadAjv(true);
  const ajvFirstFor = loadAjv(false);
  const zodFor = await loadZod();
  const examples = corpus();
  // Broken examples both sides reject (a documented deviation would make one side accept).
  const broken = invalidCorpus(
    examples,
    (type, value) => ajvFor(type)(value) || ours[`is${type}`](value),
  );
  const typeNames = [
    ...new Set([
      ...examples.map((e) => e.type),
      "ListToolsResultResponse",
      "CallToolRequest",
      "ClientRequest",
      "JSONRPCMessage",
    ]),
  ];
  const typia = await loadTypia(typeNames);

  const zodParse = (schema) =>
    schema ? fresh((s) => (v) => s.safeParse(v).success)(schema) : undefined;
  const zodErrors = (schema) =>
    schema
      ? fresh((s) => (v) => (s.safeParse(v).error?.issues.length ?? 0) > 0)(schema)
      : undefined;
  const AJV_REJECTS = (f) => (v) => (f(v), f.errors.length > 0);
  const OURS_REJECT = (f, o) => (v) => (f(v, o).errors?.length ?? 0) > 0;
  const OURS_OK = (f) => (v) => f(v).ok;
  const ajvRejects = (f) => fresh(AJV_REJECTS)(f);
  const oursRejects = (validate, options) => fresh(OURS_REJECT)(validate, options);
  const oursOk = (validate) => fresh(OURS_OK)(validate);
  // A per-type contestant: `make(type)` is resolved once per input, before timing.
  const perType = (make) => ({ perType: make });
  // The corpus workloads call whichever type's validator an input needs, as a generic caller
  // (a table of validators by type) does: one call site for all of a contestant's types.
  const perTypeVia = (wrapper, pick, ...rest) => {
    const make = fresh(wrapper);
    return perType((t) => make(pick(t), ...rest));
  };
  const FIRST = { firstError: true };
  const workloads = [
    {
      name: `examples corpus (${examples.length})`,
      inputs: examples.map((e) => structuredClone(e.value)),
      types: examples.map((e) => e.type),
      contestants: {
        "mcp-gen is*": perType((t) => ours[`is${t}`]),
        "mcp-gen validate*": perTypeVia(OURS_OK, (t) => ours[`validate${t}`]),
        ajv: perType((t) => ajvFor(t)),
        ...(typia.module ? { "typia is": perType((t) => typia.module[`is${t}`]) } : {}),
      },
    },
    {
      name: `invalid corpus (${broken.length} broken examples)`,
      inputs: broken.map((e) => e.value),
      types: broken.map((e) => e.type),
      contestants: {
        "mcp-gen validate* (all errors)": perTypeVia(
          OURS_REJECT,
          (t) => ours[`validate${t}`],
          undefined,
        ),
        "ajv (allErrors: true)": perTypeVia(AJV_REJECTS, (t) => ajvFor(t)),
        "mcp-gen validate* firstError": perTypeVia(OURS_REJECT, (t) => ours[`validate${t}`], FIRST),
        "ajv (allErrors: false)": perTypeVia(AJV_REJECTS, (t) => ajvFirstFor(t)),
      },
      ratios: {
        "mcp-gen validate* (all errors)": "ajv (allErrors: true)",
        "mcp-gen validate* firstError": "ajv (allErrors: false)",
      },
    },
    ...[1000, 10000].map((count) => ({
      name: `ListToolsResultResponse, ${count.toLocaleString("en-US")} tools (x${LISTS_OF(count)} lists)`,
      inputs: Array.from({ length: LISTS_OF(count) }, (_, i) => toolList(count, i)),
      perItem: count,
      contestants: {
        "mcp-gen is*": ours.isListToolsResultResponse,
        "mcp-gen validate*": oursOk(ours.validateListToolsResultResponse),
        ajv: ajvFor("ListToolsResultResponse"),
        ...(typia.module ? { "typia is": typia.module.isListToolsResultResponse } : {}),
        "zod (SDK ListToolsResultSchema)": fresh((s) => (v) => s.safeParse(v.result).success)(
          zodFor("ListToolsResult"),
        ),
      },
    })),
    ...[1000, 10000].map((count) => ({
      name: `ListToolsResultResponse, ${count.toLocaleString("en-US")} tools, the last invalid (x${LISTS_OF(count)} lists)`,
      inputs: Array.from({ length: LISTS_OF(count) }, (_, i) => toolListInvalidLast(count, i)),
      perItem: count,
      contestants: {
        "mcp-gen validate* (all errors)": oursRejects(ours.validateListToolsResultResponse),
        "ajv (allErrors: true)": ajvRejects(ajvFor("ListToolsResultResponse")),
        "mcp-gen validate* firstError": oursRejects(ours.validateListToolsResultResponse, FIRST),
        "ajv (allErrors: false)": ajvRejects(ajvFirstFor("ListToolsResultResponse")),
      },
      ratios: {
        "mcp-gen validate* (all errors)": "ajv (allErrors: true)",
        "mcp-gen validate* firstError": "ajv (allErrors: false)",
      },
    })),
    {
      name: "CallToolRequest (64 varied)",
      inputs: callTools(64),
      contestants: {
        "mcp-gen is*": ours.isCallToolRequest,
        "mcp-gen validate*": oursOk(ours.validateCallToolRequest),
        ajv: ajvFor("CallToolRequest"),
        ...(typia.module ? { "typia is": typia.module.isCallToolRequest } : {}),
        "zod (SDK)": zodParse(zodFor("CallToolRequest")),
      },
    },
    {
      name: "ClientRequest union (10 methods, 60 varied)",
      inputs: clientRequests(60),
      contestants: {
        "mcp-gen is*": ours.isClientRequest,
        "mcp-gen validate*": oursOk(ours.validateClientRequest),
        ajv: ajvFor("ClientRequest"),
        ...(typia.module ? { "typia is": typia.module.isClientRequest } : {}),
        "zod (SDK)": zodParse(zodFor("ClientRequest")),
      },
    },
    {
      name: "JSONRPCMessage (mixed, 60 varied)",
      inputs: messages(60),
      contestants: {
        "mcp-gen is*": ours.isJSONRPCMessage,
        "mcp-gen validate*": oursOk(ours.validateJSONRPCMessage),
        ajv: ajvFor("JSONRPCMessage"),
        ...(typia.module ? { "typia is": typia.module.isJSONRPCMessage } : {}),
        "zod (SDK)": zodParse(zodFor("JSONRPCMessage")),
      },
    },
    {
      name: "invalid CallToolRequest (64 varied, error path)",
      inputs: invalidCallTools(64),
      contestants: {
        "mcp-gen validate* (all errors)": oursRejects(ours.validateCallToolRequest),
        "ajv (allErrors: true)": ajvRejects(ajvFor("CallToolRequest")),
        "mcp-gen validate* firstError": oursRejects(ours.validateCallToolRequest, FIRST),
        "ajv (allErrors: false)": ajvRejects(ajvFirstFor("CallToolRequest")),
        "mcp-gen validateRequestMessage firstError": fresh(
          (f, o) => (v) => !f(v, "client->server", o).ok,
        )(ours.validateRequestMessage, FIRST),
        ...(typia.module
          ? {
              "typia validate": fresh((f) => (v) => (f(v).errors?.length ?? 0) > 0)(
                typia.module.validateCallToolRequest,
              ),
            }
          : {}),
        "zod (SDK)": zodErrors(zodFor("CallToolRequest")),
      },
      ratios: {
        "mcp-gen validate* (all errors)": "ajv (allErrors: true)",
        "mcp-gen validate* firstError": "ajv (allErrors: false)",
        "mcp-gen validateRequestMessage firstError": "ajv (allErrors: false)",
      },
    },
  ];

  // Resolve every contestant to one function per input, and check its verdicts before timing.
  for (const w of workloads) {
    for (const [name, c] of Object.entries(w.contestants)) {
      if (!c) throw new Error(`${w.name}: ${name} missing`);
      const calls = c.perType ? w.types.map((t) => c.perType(t)) : w.inputs.map(() => c);
      if (calls.some((f) => typeof f !== "function"))
        throw new Error(`${w.name}: ${name} has no validator for some input`);
      const disagrees = w.inputs.filter((input, i) => !calls[i](input)).length;
      w.contestants[name] = { calls, disagrees };
    }
  }

  const results = new Map();
  const entries = workloads.flatMap((w) =>
    Object.entries(w.contestants).map(([name, c]) => ({ w, name, c })),
  );
  for (const { w, c } of entries) sample(c.calls, w.inputs); // warm-up, untimed
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so no contestant always runs right after the same neighbour.
    for (let k = 0; k < entries.length; k++) {
      const { w, name, c } = entries[(k + round * 7) % entries.length];
      const key = `${w.name}\u0000${name}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push(sample(c.calls, w.inputs));
    }
  }

  rmSync(work, { recursive: true, force: true });
  return {
    typiaReason: typia.module ? undefined : typia.reason,
    workloads: workloads.map((w) => ({
      name: w.name,
      perItem: w.perItem,
      inputs: w.inputs.length,
      contestants: Object.entries(w.contestants).map(([name, c]) => ({
        name,
        disagrees: c.disagrees,
        peer: w.ratios?.[name] ?? (w.contestants.ajv && name !== "ajv" ? "ajv" : undefined),
        rounds: results.get(`${w.name}\u0000${name}`),
      })),
    })),
  };
}

/** Prints the processes' results: ops/s over every round of every process, ratios per process. */
function report(runs) {
  const n = runs.length;
  console.log(
    `\nvalidation (${REVISION}), ops/s: median [min - max] of ${ROUNDS} interleaved rounds after a warm-up in each of ${n} processes; ratio: the median of the processes' ratios (each the median of its per-round ratios) [their min - max]:`,
  );
  if (runs[0].typiaReason) console.log(`  (typia could not run here: ${runs[0].typiaReason})`);
  for (const [wi, w] of runs[0].workloads.entries()) {
    console.log(`  ${w.name}`);
    for (const [ci, c] of w.contestants.entries()) {
      const xs = runs.flatMap((r) => r.workloads[wi].contestants[ci].rounds);
      const ops = median(xs);
      let ratio = "";
      if (c.peer) {
        const ratios = runs.map((r) => {
          const cs = r.workloads[wi].contestants;
          return pairedRatio(cs[ci].rounds, cs.find((x) => x.name === c.peer).rounds);
        });
        const range =
          n > 1 ? ` [${Math.min(...ratios).toFixed(2)} - ${Math.max(...ratios).toFixed(2)}]` : "";
        ratio = `${median(ratios).toFixed(2).padStart(6)}x ${c.peer}${range}`;
      }
      const perItem = w.perItem
        ? `  ${(1e9 / ops / w.perItem).toFixed(0).padStart(5)} ns/tool`
        : "";
      const note = c.disagrees
        ? `  (wrong verdict on ${c.disagrees} of ${w.inputs} inputs: not comparable)`
        : "";
      console.log(
        `    ${c.name.padEnd(42)} ${fmt(ops).padStart(12)} [${fmt(Math.min(...xs))} - ${fmt(Math.max(...xs))}]${perItem}  ${ratio}${note}`,
      );
    }
  }
  console.log(
    "  goals: is* >= typia is on every valid workload; corpus >= 5x ajv, ClientRequest >= 25x ajv, big list >= 1.5x ajv; invalid input >= 1x ajv in both modes (all errors, first error); per-tool cost flat from 1,000 to 10,000 tools",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchValidators();
