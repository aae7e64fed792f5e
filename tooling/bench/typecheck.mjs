// BENCH=typecheck: what a user's `tsc --noEmit` costs. An `mcp-gen init` project (its
// revisions, generated as JavaScript with declarations: "target": "js+dts") beside the
// bookshop of examples/side-by-side written with the v2 SDK (with-sdk.ts and shop.ts, under
// the same compiler options as the init project's tsconfig). Both are small servers, so what
// differs is what tsc reads besides the user's own code: the generated declarations, or the
// SDK's. Each is checked by a fresh tsc process, interleaved, BENCH_ROUNDS rounds (default 3)
// after one warm-up round of each (disk cache); medians of wall time, peak RSS (a probe
// loaded into the child reads process.resourceUsage()) and `--extendedDiagnostics`' lines of
// TypeScript (the code tsc checks as source) and instantiations. Then the editor's view: a
// fresh tsserver opens the handlers file (src/handlers.ts; with-sdk.ts) and is asked for
// completions at its end, timed from the open to the answer (the project's load and check of
// what completion needs), interleaved the same way. The load average is printed before and
// after: on a shared machine read the ratio.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { envCount, initProject, loadAverage, median, ROOT, workDir } from "./common.mjs";

const TSC = join(ROOT, "node_modules", "typescript", "lib", "tsc.js");
const TSSERVER = join(ROOT, "node_modules", "typescript", "lib", "tsserver.js");
/** How long one tsserver may take to answer before the bench gives up on it. */
const TSSERVER_DEADLINE_MS = 300_000;

function writeProbe(dir) {
  const probe = join(dir, "rss-probe.mjs");
  writeFileSync(
    probe,
    'import { writeFileSync } from "node:fs";\n' +
      'process.on("exit", () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n',
  );
  return pathToFileURL(probe).href;
}

/** The side-by-side bookshop on the SDK, with the init project's compiler options. */
function sdkProject(work, initDir) {
  const dir = join(work, "sdk");
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const file of ["with-sdk.ts", "shop.ts"])
    copyFileSync(join(ROOT, "examples", "side-by-side", file), join(dir, "src", file));
  writeFileSync(join(dir, "package.json"), '{ "private": true, "type": "module" }\n');
  const tsconfig = JSON.parse(readFileSync(join(initDir, "tsconfig.json"), "utf8"));
  delete tsconfig.exclude;
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** One `tsc --noEmit --extendedDiagnostics` in `dir`: wall ms, peak RSS MB, and tsc's own figures. */
function check(dir, probe) {
  const rssFile = join(dir, "rss.txt");
  const start = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ["--import", probe, TSC, "-p", "tsconfig.json", "--noEmit", "--extendedDiagnostics"],
    { cwd: dir, encoding: "utf8", env: { ...process.env, BENCH_RSS_FILE: rssFile } },
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`tsc in ${dir} failed:\n${r.stdout}${r.stderr}`);
  const figure = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(r.stdout)?.[1]);
  return {
    ms,
    rssMb: Number(readFileSync(rssFile, "utf8")) / 1024,
    lines: figure("Lines of TypeScript"),
    files: figure("Files"),
    instantiations: figure("Instantiations"),
  };
}

/**
 * Milliseconds from opening `file` in a fresh tsserver to its answer to a completion request at
 * the file's end (a top-level position: every name in scope). tsserver speaks JSON lines in,
 * Content-Length framed JSON out.
 */
function firstCompletion(dir, file) {
  const path = join(dir, file);
  const lines = readFileSync(path, "utf8").split("\n");
  const server = spawn(process.execPath, [TSSERVER, "--disableAutomaticTypingAcquisition"], {
    cwd: dir,
  });
  const start = process.hrtime.bigint();
  const send = (seq, command, args) =>
    server.stdin.write(`${JSON.stringify({ seq, type: "request", command, arguments: args })}\n`);
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    const deadline = setTimeout(() => {
      server.kill();
      reject(
        new Error(`tsserver gave no completion for ${file} within ${TSSERVER_DEADLINE_MS} ms`),
      );
    }, TSSERVER_DEADLINE_MS);
    server.on("error", reject);
    server.stdout.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const text = pending.toString("latin1");
        const header = /Content-Length: (\d+)\r\n\r\n/.exec(text);
        if (!header) return;
        const from = header.index + header[0].length;
        const length = Number(header[1]);
        if (pending.length < from + length) return;
        const message = JSON.parse(pending.subarray(from, from + length).toString("utf8"));
        pending = pending.subarray(from + length);
        if (message.type === "response" && message.command === "completionInfo") {
          const ms = Number(process.hrtime.bigint() - start) / 1e6;
          clearTimeout(deadline);
          server.kill();
          if (!message.success) reject(new Error(`tsserver: ${message.message}`));
          else resolve(ms);
          return;
        }
      }
    });
    send(1, "open", { file: path });
    send(2, "completionInfo", { file: path, line: lines.length, offset: lines.at(-1).length + 1 });
  });
}

export async function benchTypecheck() {
  const rounds = envCount("BENCH_ROUNDS", 3);
  const work = workDir("mcp-gen-typecheck-");
  const probe = writeProbe(work);
  const init = initProject(work, "init");
  const peers = { "mcp-gen init": init, "v2 SDK": sdkProject(work, init) };
  const handlersFile = { "mcp-gen init": "src/handlers.ts", "v2 SDK": "src/with-sdk.ts" };
  console.log(`\ntsc --noEmit of a user's project (${rounds} rounds, interleaved, medians)`);
  console.log(`load average before: ${loadAverage()}`);
  const samples = Object.fromEntries(Object.keys(peers).map((name) => [name, []]));
  for (const dir of Object.values(peers)) check(dir, probe);
  for (let round = 0; round < rounds; round++) {
    // Alternate who goes first, so neither always runs on the cache the other warmed.
    const order = Object.keys(peers);
    if (round % 2 === 1) order.reverse();
    for (const name of order) samples[name].push(check(peers[name], probe));
  }
  console.log("project          wall s   peak MB   files   TS lines   instantiations");
  const med = {};
  for (const [name, runs] of Object.entries(samples)) {
    med[name] = {
      ms: median(runs.map((s) => s.ms)),
      rssMb: median(runs.map((s) => s.rssMb)),
    };
    const [first] = runs;
    console.log(
      `${name.padEnd(14)} ${(med[name].ms / 1000).toFixed(2).padStart(8)} ${med[name].rssMb.toFixed(0).padStart(9)} ${String(first.files).padStart(7)} ${String(first.lines).padStart(10)} ${String(first.instantiations).padStart(16)}`,
    );
  }
  const [ours, sdk] = Object.values(med);
  console.log(
    `mcp-gen / SDK: wall ${(ours.ms / sdk.ms).toFixed(2)}x, peak memory ${(ours.rssMb / sdk.rssMb).toFixed(2)}x`,
  );
  const completions = Object.fromEntries(Object.keys(peers).map((name) => [name, []]));
  for (const name of Object.keys(peers)) await firstCompletion(peers[name], handlersFile[name]);
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(peers);
    if (round % 2 === 1) order.reverse();
    for (const name of order)
      completions[name].push(await firstCompletion(peers[name], handlersFile[name]));
  }
  const [oursMs, sdkMs] = Object.values(completions).map(median);
  console.log(
    `tsserver, open to first completion: mcp-gen init ${(oursMs / 1000).toFixed(2)} s, v2 SDK ${(sdkMs / 1000).toFixed(2)} s (${(oursMs / sdkMs).toFixed(2)}x)`,
  );
  console.log(`load average after: ${loadAverage()}`);
}
