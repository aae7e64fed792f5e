// Clients over Streamable HTTP, in one run: the generated dual-era client of this checkout
// (default options, and with Node's built-in fetch as its `fetch`) beside the v2 SDK client 2.4.0 (default negotiation, and versionNegotiation "auto") and the
// v1 SDK client 1.32.2, each calling tools/call (`echo`) on the same servers: mcp-gen's
// generated dual-era server and the v2 SDK's createMcpHandler (tooling/bench/http-servers.mjs). Each
// server and each client runs in its own process (tooling/bench/client-peers.mjs), so a client's CPU
// time per call (process.cpuUsage deltas in the client's process) is its own; the server's is
// printed beside it. One client instance per process with N calls in flight (N = each of
// BENCH_CLIENT_LANES, default 1,16), each call checked (its own text echoed), for
// BENCH_CLIENT_MS (default 3000) per sample; rounds interleaved (a warm-up round first, not
// recorded), BENCH_ROUNDS (default 3) of them, medians with min/max.
// Cold start: a fresh `node` process per try, from spawn to its first call's checked result
// (imports, connecting, the era probe or initialize, the call), BENCH_CLIENT_COLD tries
// (default 5) per client and server, interleaved, median.
// BENCH_CLIENT_PROFILE=<dir>: every client process runs under --cpu-prof into dir.
import { fork, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import {
  envCount,
  generateWith,
  loadAverage,
  median,
  ROOT,
  samplingOptions,
  startServer,
  transpileDir,
  workDir,
} from "./common.mjs";

const {
  rounds: ROUNDS,
  sampleMs: SAMPLE_MS,
  lanes: LANES,
  profile: PROFILE,
} = samplingOptions("BENCH_CLIENT", {
  sampleMs: 3000,
  lanesVariable: "BENCH_CLIENT_LANES",
  lanes: [1, 16],
});
const COLD_TRIES = envCount("BENCH_CLIENT_COLD", 5);
const PEERS = join(ROOT, "tooling/bench/client-peers.mjs");

const CLIENTS = {
  "mcp-gen": "mcp-gen generated client (this tree)",
  "mcp-gen-fetch": "the same, fetch: globalThis.fetch",
  v2: "v2 SDK client (default)",
  "v2-auto": 'v2 SDK client (negotiation "auto")',
  v1: "v1 SDK client",
};
const SERVERS = {
  "mcp-gen": "the mcp-gen dual-era server",
  sdk: "the v2 SDK server (createMcpHandler)",
};

/** One client process connected to `server`, answering runs. */
async function startClient(kind, server, dir) {
  const execArgv = PROFILE
    ? [
        "--cpu-prof",
        "--cpu-prof-dir",
        PROFILE,
        "--cpu-prof-name",
        `${kind}-${server.kind}.cpuprofile`,
      ]
    : [];
  const child = fork(PEERS, [kind, server.url.href, dir], { execArgv });
  await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`${kind} client exited (${code})`)));
  });
  const run = (lanes) =>
    new Promise((resolve, reject) => {
      child.once("message", (m) => (m.error ? reject(new Error(m.error)) : resolve(m.result)));
      child.send({ run: { lanes, ms: SAMPLE_MS } });
    });
  const stop = () => new Promise((resolve) => (child.once("exit", resolve), child.send("exit")));
  return { kind, server, run, stop };
}

/** Calls/s and CPU µs per call of one client, and the server's CPU µs per call meanwhile. */
async function sample(client, lanes) {
  const before = await client.server.stats();
  const { calls, seconds, cpuMicros } = await client.run(lanes);
  const after = await client.server.stats();
  return {
    rate: calls / seconds,
    cpuPerCall: cpuMicros / calls,
    serverCpuPerCall: (after.cpuMicros - before.cpuMicros) / calls,
  };
}

const key = (server, lanes, client) => `${server} ${lanes} ${client}`;

async function measure(servers, clients) {
  const results = new Map();
  for (let round = -1; round < ROUNDS; round++) {
    for (const lanes of LANES) {
      for (const server of servers) {
        const own = clients.filter((c) => c.server === server);
        // Rotate who goes first, so no client always follows the same neighbour.
        const order = own.map((_, i) => own[(i + Math.max(round, 0)) % own.length]);
        for (const client of order) {
          const measured = await sample(client, lanes);
          if (round < 0) continue;
          const k = key(server.kind, lanes, client.kind);
          results.set(k, [...(results.get(k) ?? []), measured]);
        }
      }
    }
  }
  return results;
}

/** Milliseconds from spawning a fresh node to its first checked call result. */
function coldStart(kind, server, dir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [PEERS, kind, server.url.href, dir, "--once"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    let elapsed;
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (elapsed === undefined && out.includes("first-call"))
        elapsed = performance.now() - started;
    });
    child.on("exit", (code) =>
      code === 0 && elapsed !== undefined
        ? resolve(elapsed)
        : reject(new Error(`${kind} cold start against ${server.kind} failed (${code}): ${out}`)),
    );
  });
}

async function measureColdStarts(servers, dir) {
  const results = new Map();
  for (let round = 0; round < COLD_TRIES; round++) {
    for (const server of servers) {
      for (const kind of Object.keys(CLIENTS)) {
        const k = `${server.kind} ${kind}`;
        results.set(k, [...(results.get(k) ?? []), await coldStart(kind, server, dir)]);
      }
    }
  }
  return results;
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const spread = (xs) => `[${fmt(Math.min(...xs))} .. ${fmt(Math.max(...xs))}]`;

function report(servers, results, colds, loadBefore) {
  console.log(
    `\nclient (tools/call through Streamable HTTP; every server and every client in its own process;`,
  );
  console.log(
    `${SAMPLE_MS} ms samples, median [min .. max] of ${ROUNDS} interleaved rounds; CPU: the process's user+system time per call)`,
  );
  console.log(
    `machine: ${cpus().length} cores; load average (1/5/15 min) ${loadBefore} before, ${loadAverage()} after`,
  );
  const med = (server, lanes, client, field) =>
    median(results.get(key(server, lanes, client)).map((r) => r[field]));
  for (const server of servers) {
    for (const lanes of LANES) {
      console.log(`  against ${SERVERS[server.kind]}, ${lanes} call(s) in flight`);
      console.log(
        `    ${"client".padEnd(36)} ${"calls/s".padStart(8)} ${"min .. max".padStart(17)} ${"client CPU/call".padStart(16)} ${"server CPU/call".padStart(16)}`,
      );
      for (const kind of Object.keys(CLIENTS)) {
        const runs = results.get(key(server.kind, lanes, kind));
        const us = (field) => `${med(server.kind, lanes, kind, field).toFixed(0)} µs`;
        console.log(
          `    ${CLIENTS[kind].padEnd(36)} ${fmt(med(server.kind, lanes, kind, "rate")).padStart(8)} ${spread(runs.map((r) => r.rate)).padStart(17)} ${us("cpuPerCall").padStart(16)} ${us("serverCpuPerCall").padStart(16)}`,
        );
      }
      const ratio = (other) => {
        const rate =
          med(server.kind, lanes, "mcp-gen", "rate") / med(server.kind, lanes, other, "rate");
        const cpu =
          med(server.kind, lanes, "mcp-gen", "cpuPerCall") /
          med(server.kind, lanes, other, "cpuPerCall");
        return `${other} ${rate.toFixed(2)}x calls/s, ${cpu.toFixed(2)}x CPU/call`;
      };
      const others = Object.keys(CLIENTS).filter((k) => k !== "mcp-gen");
      console.log(`    mcp-gen vs ${others.map(ratio).join("; ")}`);
    }
  }
  console.log(
    `  cold start to the first call's result (a fresh node process, median of ${COLD_TRIES})`,
  );
  for (const server of servers) {
    const cold = (kind) => median(colds.get(`${server.kind} ${kind}`));
    const line = Object.keys(CLIENTS)
      .map((kind) => `${kind} ${fmt(cold(kind))} ms`)
      .join(", ");
    console.log(`    against ${SERVERS[server.kind]}: ${line}`);
  }
  console.log(
    `  ratios: mcp-gen's calls/s over the other's, and mcp-gen's client CPU per call over the other's. Goals against the mcp-gen server: >= 1.5x the v2 client's calls/s, <= 0.5x its CPU per call`,
  );
}

export async function benchClient() {
  const work = workDir("mcp-gen-bench-client-");
  const servers = [];
  const clients = [];
  try {
    const dir = generateWith(ROOT, join(work, "js"), transpileDir);
    for (const kind of Object.keys(SERVERS)) servers.push(await startServer(kind, dir));
    for (const server of servers)
      for (const kind of Object.keys(CLIENTS)) clients.push(await startClient(kind, server, dir));
    const loadBefore = loadAverage();
    const results = await measure(servers, clients);
    const colds = await measureColdStarts(servers, dir);
    report(servers, results, colds, loadBefore);
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchClient();
