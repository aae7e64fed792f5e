// BENCH=generate, last table: one output of mcp-gen beside the tool a user would otherwise
// reach for, on the same schema.ts: the json-schema generator beside typescript-json-schema
// (the spec's own flags), and the zod generator beside ts-to-zod. Each row says whether the
// tool succeeded: a failure is printed with the tool's own reason, never hidden (ts-to-zod
// 5.1.0 generates 2026-07-28 but fails its own check that the schemas match the types). A
// generator this build lacks (zod, built separately) or a peer not installed is a row that says so.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MCP_GEN, ROOT, median } from "./common.mjs";

const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
const TJS = join(ROOT, "node_modules", "typescript-json-schema", "bin", "typescript-json-schema");
const TJS_FLAGS = ["--defaultNumberType", "integer", "--required", "--skipLibCheck"];
const TS_TO_ZOD = join(ROOT, "node_modules", "ts-to-zod", "bin", "run");

/** The generators of the built CLI (dist), or none when it cannot be loaded. */
async function builtGenerators() {
  const index = join(ROOT, "packages", "cli", "dist", "generators", "emit", "index.js");
  try {
    return (await import(pathToFileURL(index).href)).GENERATOR_NAMES;
  } catch {
    return [];
  }
}

/** One run of `node script args` in `cwd`, never throwing: its times, peak RSS and how it ended. */
function attempt(script, args, cwd, probe) {
  const rssFile = join(cwd, "rss.txt");
  rmSync(rssFile, { force: true });
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", probe, script, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1", FORCE_COLOR: "0" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const [rssKb, cpuUs] = existsSync(rssFile)
    ? readFileSync(rssFile, "utf8").split(" ").map(Number)
    : [NaN, NaN];
  return {
    ms,
    cpuMs: cpuUs / 1000,
    rssMb: rssKb / 1024,
    status: r.status,
    out: r.stdout + r.stderr,
  };
}

/** Why ts-to-zod failed, in its words: the failed step, and how many schemas its check refused. */
function tsToZodReason(out) {
  const failed = out.split("\n").find((l) => /✖|FAILED/.test(l));
  const refused = (out.match(/is not compatible with/g) ?? []).length;
  const step = failed ? failed.replace(/^[\s✖×]+/, "").trim() : "no failed step printed";
  return refused > 0
    ? `${step.split(" [")[0]}: ${refused} schemas not compatible with their types`
    : step;
}

/** Whether an mcp-gen run wrote files (`file` among them, when named), as its manifest lists them. */
function wrote(out, file) {
  const manifest = join(out, ".mcp-gen-manifest.json");
  if (!existsSync(manifest)) return false;
  const { files } = JSON.parse(readFileSync(manifest, "utf8"));
  return files.length > 0 && (file === undefined || files.includes(file));
}

/**
 * The peers: each a label and what to run, or why it cannot run. `work` is an empty folder
 * holding a copy of schema.ts (ts-to-zod reads only paths relative to its folder) and a link
 * to this checkout's node_modules (its check compiles the output, which imports zod).
 */
function peers(spec, revision, work, generators) {
  const schemaTs = join(spec, "schema", revision, "schema.ts");
  copyFileSync(schemaTs, join(work, "schema.ts"));
  if (!existsSync(join(work, "node_modules")))
    symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
  const mcpGen = (generator, file) =>
    generators.includes(generator)
      ? {
          run: (i) => [
            "generate",
            "--spec",
            spec,
            "--revision",
            revision,
            "--out",
            join(work, `out-${generator}-${i}`),
            "--generators",
            generator,
          ],
          produced: (i) => wrote(join(work, `out-${generator}-${i}`), file),
        }
      : { missing: `not present: this build has no '${generator}' generator` };
  return [
    {
      output: "JSON Schema",
      tool: "mcp-gen --generators json-schema",
      script: MCP_GEN,
      ...mcpGen("json-schema", "schema.json"),
    },
    {
      output: "JSON Schema",
      tool: "typescript-json-schema",
      script: TJS,
      run: (i) => [...TJS_FLAGS, schemaTs, "*", "-o", join(work, `tjs-${i}.json`)],
      produced: (i) => existsSync(join(work, `tjs-${i}.json`)),
    },
    {
      output: "zod",
      tool: "mcp-gen --generators zod",
      script: MCP_GEN,
      ...mcpGen("zod"),
    },
    existsSync(TS_TO_ZOD)
      ? {
          output: "zod",
          tool: `ts-to-zod ${JSON.parse(readFileSync(join(ROOT, "node_modules", "ts-to-zod", "package.json"), "utf8")).version}`,
          script: TS_TO_ZOD,
          run: (i) => ["schema.ts", `zod-${i}.ts`],
          produced: (i) => existsSync(join(work, `zod-${i}.ts`)),
          reason: tsToZodReason,
        }
      : { output: "zod", tool: "ts-to-zod", missing: "not installed (devDependency ts-to-zod)" },
  ];
}

/** Prints the table: a warm-up round, then ROUNDS interleaved rounds of every peer that can run. */
export async function benchPeers(work, probe, spec, revision) {
  const dir = join(work, "peers");
  mkdirSync(dir, { recursive: true });
  const rows = peers(spec, revision, dir, await builtGenerators());
  const runs = rows.map(() => []);
  for (let i = -1; i < ROUNDS; i++) {
    rows.forEach((row, k) => {
      if (row.missing) return;
      const r = attempt(row.script, row.run(i), dir, probe);
      r.ok = r.status === 0 && row.produced(i);
      if (i >= 0) runs[k].push(r);
    });
  }
  console.log(
    `\n  outputs beside their peers (${revision}; a warm-up round, then the median of ${ROUNDS} interleaved rounds):`,
  );
  console.log("  | output | tool | wall ms | CPU ms | peak RSS MB | result |");
  console.log("  | --- | --- | ---: | ---: | ---: | --- |");
  rows.forEach((row, k) => {
    if (row.missing) {
      console.log(`  | ${row.output} | ${row.tool} | - | - | - | ${row.missing} |`);
      return;
    }
    const med = (key) => median(runs[k].map((r) => r[key])).toFixed(0);
    const failed = runs[k].find((r) => !r.ok);
    const result = failed
      ? `failed (exit ${failed.status}): ${(row.reason ?? ((out) => out.trim().split("\n").pop()))(failed.out)}`
      : "ok";
    console.log(
      `  | ${row.output} | ${row.tool} | ${med("ms")} | ${med("cpuMs")} | ${med("rssMb")} | ${result} |`,
    );
  });
}
