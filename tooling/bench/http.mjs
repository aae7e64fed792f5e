// tools/call requests/s through Streamable HTTP, in one run: this checkout's generated dual-era
// server on the node:http host (serveHttp), the same server generated and served by mcp-gen at
// an earlier commit (BENCH_HTTP_BASELINE, default aba262f: the node:http handler before the
// web-standard core), the v2 TypeScript SDK 2.4.0, and a bare node:http server that parses the
// body and answers a canned result (the limit of any server on this Node). tooling/bench/http-servers.mjs
// says how each is wired. Every server runs in its own child process; this process is the
// load: N requests in flight (N = each of BENCH_HTTP_CONNECTIONS, default 1,16,64) over
// keep-alive node:http connections for SAMPLE_MS per sample, rounds interleaved (a warm-up
// round first, not recorded), medians with min/max.
//   modern: stateless POSTs carrying the 2026-07-28 per-request _meta and routing headers,
//           validated in full by mcp-gen (envelope, params, result);
//   legacy: each in-flight lane opens a 2025-11-25 session (initialize, notifications/initialized,
//           untimed), then POSTs tools/call with Mcp-Session-Id (when the server minted one) and
//           MCP-Protocol-Version; DELETE after the sample (16 lanes; the bare server has none).
// Every reply is checked (status, id, the echoed text; JSON or SSE accepted): one wrong reply
// fails the benchmark. Server CPU time per request (from the child's process.cpuUsage) is
// printed too: on a shared machine it is steadier than requests/s, and it excludes the load
// generator. BENCH_ROUNDS (default 3), BENCH_HTTP_MS (sample length, default 5000),
// BENCH_HTTP_PROFILE=<dir> (--cpu-prof every server into dir).
import { spawnSync } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { cpus } from "node:os";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
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
  lanes: CONNECTIONS,
  profile: PROFILE,
} = samplingOptions("BENCH_HTTP", {
  sampleMs: 5000,
  lanesVariable: "BENCH_HTTP_CONNECTIONS",
  lanes: [1, 16, 64],
});
const LEGACY_LANES = 16;
const BASELINE_REF = process.env.BENCH_HTTP_BASELINE ?? "aba262f";
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

const SERVERS = {
  "mcp-gen": "mcp-gen node bridge (this tree)",
  baseline: `mcp-gen at ${BASELINE_REF}`,
  sdk: "SDK createMcpHandler (default)",
  "sdk-sessions": "SDK sessionful composition",
  bare: "bare node:http (parse, canned)",
};
/** Who serves which era (the bare server has no sessions; the SDK's default mints none). */
const ERA_SERVERS = {
  modern: ["mcp-gen", "baseline", "sdk", "bare"],
  legacy: ["mcp-gen", "baseline", "sdk-sessions"],
};

// ---- the servers ------------------------------------------------------------------------

/**
 * The baseline commit built, once, in bench/.work-baseline-<ref> (git archive, npm ci, build):
 * its own CLI generates the baseline's output and its own runtime package serves it.
 */
async function baselineCheckout() {
  const dir = join(ROOT, "tooling", "bench", `.work-baseline-${BASELINE_REF}`);
  if (existsSync(join(dir, "dist/cli/main.js"))) return dir;
  mkdirSync(dir, { recursive: true });
  const run = (command, args, options = {}) => {
    const r = spawnSync(command, args, { cwd: dir, stdio: "inherit", ...options });
    if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${dir}`);
  };
  run("bash", ["-c", `git -C "${ROOT}" archive ${BASELINE_REF} | tar -x`]);
  run("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"]);
  run("npm", ["run", "build"]);
  return dir;
}

function start(kind, dir) {
  const execArgv = PROFILE
    ? ["--cpu-prof", "--cpu-prof-dir", PROFILE, "--cpu-prof-name", `${kind}.cpuprofile`]
    : [];
  return startServer(kind, dir, execArgv);
}

// ---- the load ---------------------------------------------------------------------------

// A fresh keep-alive agent per sample: a connection left idle while the other servers are
// measured would meet the server's keep-alive timeout (5 s) and reset mid-request.
let agent;

function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: body === undefined ? "DELETE" : "POST",
        headers,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            type: res.headers["content-type"] ?? "",
            session: res.headers["mcp-session-id"],
            text,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The JSON-RPC message answering `id`, from a JSON body or an SSE stream. */
function replyTo(id, { type, text }) {
  if (type.startsWith("application/json")) return JSON.parse(text);
  if (!type.startsWith("text/event-stream")) return undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const message = JSON.parse(line.slice(5));
    if (message.id === id) return message;
  }
  return undefined;
}

const ACCEPT = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const MODERN_HEADERS = {
  ...ACCEPT,
  "mcp-method": "tools/call",
  "mcp-name": "echo",
  "mcp-protocol-version": MODERN,
};
const MODERN_META = `"_meta":{"io.modelcontextprotocol/protocolVersion":"${MODERN}","io.modelcontextprotocol/clientCapabilities":{}}`;
const callBody = (id, era) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}${era === "modern" ? `,${MODERN_META}` : ""}}}`;

/** One in-flight lane's headers for an era; legacy opens its session first (untimed). */
async function openLane(url, era) {
  if (era === "modern") return { headers: MODERN_HEADERS };
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: "bench", version: "1" },
    },
  };
  const opened = await post(url, ACCEPT, JSON.stringify(init));
  if (replyTo(0, opened)?.result?.protocolVersion !== LEGACY)
    throw new Error(`initialize failed: HTTP ${opened.status} ${opened.text}`);
  const headers = {
    ...ACCEPT,
    "mcp-protocol-version": LEGACY,
    ...(opened.session ? { "mcp-session-id": opened.session } : {}),
  };
  const ack = await post(url, headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  if (ack.status !== 202)
    throw new Error(`notifications/initialized: HTTP ${ack.status} ${ack.text}`);
  return { headers, session: opened.session };
}

let nextId = 1;

/** Requests/s of one server in one era, and the server CPU microseconds per request. */
async function sample(server, era, connections) {
  agent = new Agent({ keepAlive: true, maxSockets: connections });
  const lanes = await Promise.all(
    Array.from({ length: connections }, () => openLane(server.url, era)),
  );
  const before = await server.stats();
  let requests = 0;
  let failed = 0;
  let firstFailure;
  const started = performance.now();
  const deadline = started + SAMPLE_MS;
  await Promise.all(
    lanes.map(async ({ headers }) => {
      while (performance.now() < deadline) {
        const id = nextId++;
        const reply = await post(server.url, headers, callBody(id, era)).catch((error) => ({
          status: error.code ?? "error",
          text: String(error),
        }));
        const message = reply.status === 200 ? replyTo(id, reply) : undefined;
        if (message?.result?.content?.[0]?.text !== "hi") {
          failed++;
          firstFailure ??= `HTTP ${reply.status} ${reply.text.slice(0, 300)}`;
        }
        requests++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await server.stats();
  await Promise.all(
    lanes.filter((l) => l.session).map((l) => post(server.url, l.headers, undefined)),
  );
  agent.destroy();
  if (failed > 0)
    throw new Error(
      `${SERVERS[server.kind]}, ${era}: ${failed} of ${requests} replies wrong; first: ${firstFailure}`,
    );
  return {
    rps: requests / seconds,
    cpuPerRequest: (after.cpuMicros - before.cpuMicros) / requests,
    rss: after.rss,
  };
}

// ---- the run ----------------------------------------------------------------------------

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const spread = (xs) => `[${fmt(Math.min(...xs))} .. ${fmt(Math.max(...xs))}]`;
const load = loadAverage;

/** Every (era, connections) measured: modern at each level, legacy at LEGACY_LANES. */
const SETTINGS = [
  ...CONNECTIONS.map((connections) => ({ era: "modern", connections })),
  { era: "legacy", connections: LEGACY_LANES },
];
const key = (setting, kind) => `${setting.era} ${setting.connections} ${kind}`;

async function measure(servers) {
  const results = new Map();
  for (let round = -1; round < ROUNDS; round++) {
    for (const setting of SETTINGS) {
      const serving = servers.filter((s) => ERA_SERVERS[setting.era].includes(s.kind));
      // Rotate who goes first, so no server always follows the same neighbour.
      const order = serving.map((_, i) => serving[(i + Math.max(round, 0)) % serving.length]);
      for (const server of order) {
        const measured = await sample(server, setting.era, setting.connections);
        if (round < 0) continue;
        const k = key(setting, server.kind);
        results.set(k, [...(results.get(k) ?? []), measured]);
      }
    }
  }
  return results;
}

function report(servers, results, loadBefore, finalStats) {
  console.log(
    `\nhttp (tools/call through Streamable HTTP, each server in its own process, the load from one process`,
  );
  console.log(
    `over keep-alive connections; ${SAMPLE_MS} ms samples, median [min .. max] of ${ROUNDS} interleaved rounds)`,
  );
  console.log(
    `machine: ${cpus().length} cores; load average (1/5/15 min) ${loadBefore} before, ${load()} after`,
  );
  const med = (setting, kind, field) =>
    median(results.get(key(setting, kind)).map((r) => r[field]));
  for (const setting of SETTINGS) {
    const era =
      setting.era === "modern"
        ? `modern (${MODERN}: stateless POSTs, per-request _meta)`
        : `legacy (${LEGACY}: a session per connection)`;
    console.log(`  ${era}, ${setting.connections} connection(s)`);
    console.log(
      `    ${"server".padEnd(36)} ${"requests/s".padStart(10)} ${"min .. max".padStart(19)}  server CPU/request`,
    );
    for (const server of servers.filter((s) => ERA_SERVERS[setting.era].includes(s.kind))) {
      const runs = results.get(key(setting, server.kind));
      console.log(
        `    ${SERVERS[server.kind].padEnd(36)} ${fmt(med(setting, server.kind, "rps")).padStart(10)} ${spread(runs.map((r) => r.rps)).padStart(19)} ${`${med(setting, server.kind, "cpuPerRequest").toFixed(0)} µs`.padStart(19)}`,
      );
    }
    const ratio = (other) => {
      const rps = med(setting, "mcp-gen", "rps") / med(setting, other, "rps");
      const cpu = med(setting, other, "cpuPerRequest") / med(setting, "mcp-gen", "cpuPerRequest");
      return `${rps.toFixed(2)}x (CPU ${cpu.toFixed(2)}x)`;
    };
    const others = ERA_SERVERS[setting.era].filter((k) => k !== "mcp-gen");
    console.log(`    mcp-gen / ${others.map((k) => `${k} ${ratio(k)}`).join(", ")}`);
  }
  console.log(
    `  RSS after the run: ${servers.map((s, i) => `${s.kind} ${mb(finalStats[i].rss)}`).join(", ")}`,
  );
  console.log(
    `  ratios: requests/s of mcp-gen over the other (CPU: the other's CPU per request over mcp-gen's). Goals: modern server CPU per request <= 1.25x bare at 16 and 64; legacy >= 1.0x ${BASELINE_REF} in requests/s and CPU; >= 5x the SDK`,
  );
}

export async function benchHttp() {
  const work = workDir("mcp-gen-bench-http-");
  const servers = [];
  try {
    const here = generateWith(ROOT, join(work, "js"), transpileDir);
    const checkout = await baselineCheckout();
    // scripts/ became tooling/ after the default baseline (aba262f).
    const transpiler = ["tooling", "scripts"]
      .map((folder) => join(checkout, folder, "transpile-generated.mjs"))
      .find((file) => existsSync(file));
    const { transpileDir: transpileThere } = await import(transpiler);
    const there = generateWith(checkout, join(work, "baseline-js"), transpileThere);
    const dirs = { "mcp-gen": here, baseline: there };
    for (const kind of Object.keys(SERVERS)) servers.push(await start(kind, dirs[kind]));
    const loadBefore = load();
    const results = await measure(servers);
    const finalStats = await Promise.all(servers.map((s) => s.stats()));
    report(servers, results, loadBefore, finalStats);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    agent?.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHttp();
