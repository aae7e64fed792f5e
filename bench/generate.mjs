// Cold `mcp-gen generate` for the latest revision beside typescript-json-schema (the tool
// the spec uses to derive schema.json) on the same schema.ts, interleaved, in one run.
// Both run from an empty folder, so neither picks up this project's tsconfig.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const spec = resolve(root, "..", "shared", "spec");
const revision = "2026-07-28";
const schemaTs = join(spec, "schema", revision, "schema.ts");
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

function time(command, args, cwd) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { encoding: "utf8", cwd });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${r.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function benchGenerate() {
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-"));
  const ours = [];
  const tjs = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const out = join(work, `out-${i}`);
      ours.push(time(process.execPath, [join(root, "dist", "cli", "main.js"), "generate", "--spec", spec, "--revision", revision, "--out", out], work));
      tjs.push(
        time(process.execPath, [
          join(root, "node_modules", "typescript-json-schema", "bin", "typescript-json-schema"),
          "--defaultNumberType", "integer", "--required", schemaTs, "*", "-o", join(work, `schema-${i}.json`),
        ], work),
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const a = median(ours);
  const b = median(tjs);
  console.log(`generate (cold, ${revision}, all outputs, formatted), median of ${rounds}:`);
  console.log(`  mcp-gen generate            ${a.toFixed(0).padStart(6)} ms`);
  console.log(`  typescript-json-schema      ${b.toFixed(0).padStart(6)} ms  (schema.json alone)`);
  console.log(`  ratio: mcp-gen is ${(b / a).toFixed(2)}x faster (goal >= 2x)`);
}

if (import.meta.url === `file://${process.argv[1]}`) benchGenerate();
