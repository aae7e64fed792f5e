// tools/call requests/s through Streamable HTTP, both eras, in one run: mcp-gen's generated
// dual-era serveHttp beside the v2 TypeScript SDK 2.4.0 serving both eras (bench/http-servers.mjs
// says how each is wired). Every server runs in its own child process; this process is the
// load: CONCURRENCY requests in flight over keep-alive node:http connections for SAMPLE_MS per
// sample, rounds interleaved (a warm-up round first, not recorded), medians with min/max.
//   modern: stateless POSTs carrying the 2026-07-28 per-request _meta and routing headers;
//   legacy: each in-flight lane opens a 2025-11-25 session (initialize, notifications/initialized,
//           untimed), then POSTs tools/call with Mcp-Session-Id (when the server minted one) and
//           MCP-Protocol-Version; DELETE after the sample.
// Every reply is checked (status, id, the echoed text; JSON or SSE accepted): one wrong reply
// fails the benchmark. Server CPU time per request (from the child's process.cpuUsage) is
// printed too: on a shared machine it is steadier than requests/s, and it excludes the load
// generator. BENCH_ROUNDS (default 5), BENCH_HTTP_MS (sample length, default 2000),
// BENCH_HTTP_CONCURRENCY (default 32), BENCH_HTTP_PROFILE=<dir> (--cpu-prof every server into dir).
import { fork, spawnSync } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { cpus, loadavg } from "node:os";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SPEC, median, transpileDir, workDir } from "./common.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SAMPLE_MS = Number(process.env.BENCH_HTTP_MS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 32);
const PROFILE = process.env.BENCH_HTTP_PROFILE;
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

const SERVERS = {
  "mcp-gen": "mcp-gen serveHttp (dual-era)",
  sdk: "SDK createMcpHandler (default)",
  "sdk-sessions": "SDK sessionful composition",
};
const BASELINE = "sdk";

// ---- the servers ------------------------------------------------------------------------

function generate(work) {
  const out = join(work, "ts");
  const revisions = `${MODERN},${LEGACY},2025-06-18,2025-03-26`;
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, "dist/cli/main.js"),
      "generate",
      "--spec",
      SPEC,
      "--revisions",
      revisions,
      "--out",
      out,
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return transpileDir(out, join(work, "js"));
}

async function start(kind, dir) {
  const execArgv = PROFILE
    ? ["--cpu-prof", "--cpu-prof-dir", PROFILE, "--cpu-prof-name", `${kind}.cpuprofile`]
    : [];
  const child = fork(join(ROOT, "bench/http-servers.mjs"), [kind, dir], { execArgv });
  const { url } = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) =>
      reject(new Error(`${kind} server exited (${code}) before listening`)),
    );
  });
  const ask = () => new Promise((resolve) => (child.once("message", resolve), child.send("stats")));
  const stop = () => new Promise((resolve) => (child.once("exit", resolve), child.send("exit")));
  return { kind, url: new URL(url), stats: ask, stop };
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
async function sample(server, era) {
  agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const lanes = await Promise.all(
    Array.from({ length: CONCURRENCY }, () => openLane(server.url, era)),
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

export async function benchHttp() {
  const work = workDir("mcp-gen-bench-http-");
  const servers = [];
  try {
    const dir = generate(work);
    for (const kind of Object.keys(SERVERS)) servers.push(await start(kind, dir));
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(1))
        .join(" ");
    const loadBefore = load();
    const eras = ["modern", "legacy"];
    const results = new Map(eras.flatMap((era) => servers.map((s) => [`${era} ${s.kind}`, []])));
    for (let round = -1; round < ROUNDS; round++) {
      for (const era of eras) {
        // Rotate who goes first, so no server always follows the same neighbour.
        const order = servers.map((_, i) => servers[(i + Math.max(round, 0)) % servers.length]);
        for (const server of order) {
          const measured = await sample(server, era);
          if (round >= 0) results.get(`${era} ${server.kind}`).push(measured);
        }
      }
    }
    const finalStats = await Promise.all(servers.map((s) => s.stats()));

    console.log(
      `\nhttp (tools/call through Streamable HTTP, each server in its own process; ${CONCURRENCY} requests in flight`,
    );
    console.log(
      `over keep-alive connections from one load process; ${SAMPLE_MS} ms samples, median [min .. max] of ${ROUNDS} interleaved rounds)`,
    );
    console.log(
      `machine: ${cpus().length} cores; load average (1/5/15 min) ${loadBefore} before, ${load()} after`,
    );
    for (const era of eras) {
      const title =
        era === "modern"
          ? `modern (${MODERN}: stateless POSTs, per-request _meta)`
          : `legacy (${LEGACY}: one session per lane, tools/call with Mcp-Session-Id where minted)`;
      console.log(`  ${title}`);
      console.log(
        `    ${"server".padEnd(32)} ${"requests/s".padStart(10)} ${"min .. max".padStart(19)}  ratio  server CPU/request  ratio`,
      );
      const base = results.get(`${era} ${BASELINE}`);
      const baseRps = median(base.map((r) => r.rps));
      const baseCpu = median(base.map((r) => r.cpuPerRequest));
      for (const server of servers) {
        const runs = results.get(`${era} ${server.kind}`);
        const rps = median(runs.map((r) => r.rps));
        const cpu = median(runs.map((r) => r.cpuPerRequest));
        console.log(
          `    ${SERVERS[server.kind].padEnd(32)} ${fmt(rps).padStart(10)} ${spread(runs.map((r) => r.rps)).padStart(19)} ${(rps / baseRps).toFixed(2).padStart(5)}x ${`${cpu.toFixed(0)} µs`.padStart(19)} ${(baseCpu / cpu).toFixed(2).padStart(5)}x`,
        );
      }
    }
    const med = (era, kind, field) => median(results.get(`${era} ${kind}`).map((r) => r[field]));
    for (const sdk of servers.filter((s) => s.kind !== "mcp-gen")) {
      const ratios = eras.map((era) => {
        const rps = med(era, "mcp-gen", "rps") / med(era, sdk.kind, "rps");
        const cpu = med(era, sdk.kind, "cpuPerRequest") / med(era, "mcp-gen", "cpuPerRequest");
        return `${era} ${rps.toFixed(2)}x (CPU ${cpu.toFixed(2)}x)`;
      });
      console.log(`  mcp-gen / ${SERVERS[sdk.kind]}: ${ratios.join(", ")}`);
    }
    console.log(
      `  RSS after the run: ${servers.map((s, i) => `${SERVERS[s.kind]} ${mb(finalStats[i].rss)}`).join(", ")}`,
    );
    console.log(
      `  table ratios are to "${SERVERS[BASELINE]}"; CPU ratio: the SDK's CPU per request / mcp-gen's. Goal: mcp-gen >= 2x on both eras`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    agent?.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHttp();
