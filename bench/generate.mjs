// Cold `mcp-gen generate` (2026-07-28, all outputs) beside typescript-json-schema (the tool
// the spec derives schema.json with) on the same schema.ts, run with the spec's own flags
// (`--defaultNumberType integer --required --skipLibCheck`: without --skipLibCheck it
// type-checks its bundled lib files too and runs about 1.5x slower, byte-identical output).
// Both run as fresh processes from the same empty folder, so neither picks up this
// project's tsconfig; a warm-up round of each first (disk cache), then interleaved rounds.
// Peak RSS comes from a probe loaded into each child (process.resourceUsage().maxRSS).
// Then a scale table: the schema copied 5x and 20x (declarations renamed per copy).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { ROOT, SPEC, workDir } from "./common.mjs";

const REVISION = "2026-07-28";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SCALE_ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
const SCALES = (process.env.BENCH_SCALES ?? "1,5,20").split(",").map(Number);
const MCP_GEN = join(ROOT, "dist", "cli", "main.js");
const TJS = join(ROOT, "node_modules", "typescript-json-schema", "bin", "typescript-json-schema");
const TJS_FLAGS = ["--defaultNumberType", "integer", "--required", "--skipLibCheck"];

/** Runs `node script args` in `cwd`; returns wall milliseconds and the child's peak RSS in MB. */
function run(script, args, cwd, probe) {
  const rssFile = join(cwd, "rss.txt");
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", probe, script, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${script} ${args.join(" ")} failed:\n${r.stderr}`);
  // maxRSS is in kilobytes.
  return { ms, rssMb: Number(readFileSync(rssFile, "utf8")) / 1024 };
}

function writeProbe(dir) {
  const probe = join(dir, "rss-probe.mjs");
  writeFileSync(
    probe,
    'import { writeFileSync } from "node:fs";\n' +
      'process.on("exit", () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n',
  );
  return pathToFileURL(probe).href;
}

/** A spec checkout whose schema.ts holds `copies` copies of the revision's, renamed past the first. */
function scaledSpec(dir, copies) {
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
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) declared.add(d.name.getText());
  }
  const at = [];
  const visit = (node) => {
    if (ts.isIdentifier(node) && declared.has(node.text)) {
      const p = node.parent;
      const isReference =
        (ts.isTypeReferenceNode(p) && p.typeName === node) ||
        (ts.isTypeQueryNode(p) && p.exprName === node) ||
        (ts.isExpressionWithTypeArguments(p) && p.expression === node) ||
        ((ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p) || ts.isVariableDeclaration(p)) && p.name === node);
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
const fmt = (s, unit, digits = 0) => `${s.median.toFixed(digits)} ${unit} (min ${s.min.toFixed(digits)}, max ${s.max.toFixed(digits)})`;

/** Interleaved rounds of both tools on one spec checkout, after one warm-up round of each when asked. */
function compare(work, probe, spec, rounds, warmUp) {
  const schemaTs = join(spec, "schema", REVISION, "schema.ts");
  const ours = [];
  const theirs = [];
  for (let i = warmUp ? -1 : 0; i < rounds; i++) {
    const out = join(work, `out-${i}`);
    const a = run(MCP_GEN, ["generate", "--spec", spec, "--revision", REVISION, "--out", out], work, probe);
    const b = run(TJS, [...TJS_FLAGS, schemaTs, "*", "-o", join(work, `schema-${i}.json`)], work, probe);
    rmSync(out, { recursive: true, force: true });
    if (i >= 0) ours.push(a), theirs.push(b);
  }
  return { ours, theirs };
}

export function benchGenerate() {
  const work = workDir("mcp-gen-bench-");
  try {
    const probe = writeProbe(work);
    console.log(`generate: cold mcp-gen generate (${REVISION}, all outputs) vs typescript-json-schema ${TJS_FLAGS.join(" ")}`);
    console.log(`  (fresh processes from an empty folder; one warm-up round, then ${ROUNDS} interleaved rounds; load average ${loadAverage()})`);
    const { ours, theirs } = compare(work, probe, SPEC, ROUNDS, true);
    const t = [summary(ours, "ms"), summary(theirs, "ms")];
    const m = [summary(ours, "rssMb"), summary(theirs, "rssMb")];
    console.log(`  mcp-gen generate        ${fmt(t[0], "ms")}   peak RSS ${fmt(m[0], "MB")}`);
    console.log(`  typescript-json-schema  ${fmt(t[1], "ms")}   peak RSS ${fmt(m[1], "MB")}`);
    const ratio = t[1].median / t[0].median;
    console.log(`  ratio (medians): mcp-gen is ${ratio >= 1 ? `${ratio.toFixed(2)}x faster` : `${(1 / ratio).toFixed(2)}x slower`} (goal: >= 2x faster)`);

    console.log(`\n  scale: the schema copied n times (declarations renamed per copy), median of ${SCALE_ROUNDS} interleaved rounds (disk cache warm from the rounds above)`);
    console.log("  | copies | schema.ts | mcp-gen ms | mcp-gen MB | tjs ms | tjs MB |");
    console.log("  | ---: | ---: | ---: | ---: | ---: | ---: |");
    const rows = [];
    for (const copies of SCALES) {
      const spec = copies === 1 ? SPEC : scaledSpec(work, copies);
      const size = readFileSync(join(spec, "schema", REVISION, "schema.ts")).length;
      const r = copies === 1 ? { ours, theirs } : compare(work, probe, spec, SCALE_ROUNDS, false);
      const row = { copies, ours: summary(r.ours, "ms").median, oursMb: summary(r.ours, "rssMb").median, tjs: summary(r.theirs, "ms").median, tjsMb: summary(r.theirs, "rssMb").median };
      rows.push(row);
      console.log(`  | ${copies} | ${(size / 1024).toFixed(0)} KB | ${row.ours.toFixed(0)} | ${row.oursMb.toFixed(0)} | ${row.tjs.toFixed(0)} | ${row.tjsMb.toFixed(0)} |`);
    }
    // Cost of each extra copy, from the smallest to the largest scale: the growth the goal bounds.
    const [first, last] = [rows[0], rows[rows.length - 1]];
    if (first && last && last.copies > first.copies) {
      const per = (a, b) => ((last[a] - first[a]) / (last.copies - first.copies)).toFixed(0) + (b ? ` ${b}` : "");
      console.log(`  per extra copy: mcp-gen +${per("ours", "ms")} +${per("oursMb", "MB")}; typescript-json-schema +${per("tjs", "ms")} +${per("tjsMb", "MB")}`);
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

if (import.meta.url === pathToFileURL(process.argv[1]).href) benchGenerate();
