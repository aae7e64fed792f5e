// Legacy (2025-11-25) tools/call requests/s and p99 latency, in one run, of:
//   memory     one replica, sessions in its memory (the default store);
//   redis      one replica, sessions in a redis-server (RedisSessionStore);
//   haproxy-1  HAProxy (examples/deployment/haproxy.cfg, round robin) in front of that one
//              Redis replica;
//   haproxy-3  HAProxy in front of three Redis replicas (every request to the next one).
// redis-server and haproxy are the OS packages (.ci/run installs them). Each replica is a
// child process; this process is the load: LANES sessions (each opened untimed), each lane
// posting tools/call back to back for SAMPLE_MS; rounds interleaved (a warm-up round first),
// medians of BENCH_ROUNDS (default 3) with min/max. Every reply is checked.
// Beside requests/s, each peer's cost per request: the CPU time its replicas spent during the
// sample (process.cpuUsage, asked over IPC) and redis-server's (from /proc), in microseconds
// per request: the Redis session store's cost next to the memory store's, in the same run.
import { fork, spawn } from "node:child_process";
import { createServer } from "node:net";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cpus } from "node:os";
import { generateWith, loadAverage, median, ROOT, transpileDir, workDir } from "./common.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SAMPLE_MS = Number(process.env.BENCH_SCALE_MS ?? 4000);
const LANES = Number(process.env.BENCH_SCALE_LANES ?? 16);
const HAPROXY = process.env.HAPROXY ?? "/usr/sbin/haproxy";
const REDIS = process.env.REDIS_SERVER ?? "redis-server";

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** Resolves once `child` prints `text` (stdout or stderr), rejects if it exits first. */
const printed = (child, text) =>
  new Promise((resolve, reject) => {
    let out = "";
    const seen = (chunk) => {
      out += chunk;
      if (out.includes(text)) resolve();
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });

async function startRedis(dir) {
  const port = await freePort();
  const child = spawn(REDIS, [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
  ]);
  await printed(child, "Ready to accept connections");
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => child.kill(),
    cpu: () => cpuOfPid(child.pid),
  };
}

/** A process's CPU time (user + system) in microseconds, from /proc (0 where there is none). */
function cpuOfPid(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms (USER_HZ 100).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

async function startReplica(dir, store, redisUrl) {
  const child = fork(join(ROOT, "tooling/bench/scale-server.mjs"), [dir, store, redisUrl ?? ""]);
  const { url } = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`replica exited (${code})`)));
  });
  return {
    url: new URL(url),
    stop: () => new Promise((r) => (child.once("exit", r), child.send("exit"))),
    /** Its CPU time so far (user + system), in microseconds. */
    cpu: () =>
      new Promise((resolve) => {
        const heard = (message) => {
          if (!message?.cpu) return;
          child.off("message", heard);
          resolve(message.cpu.user + message.cpu.system);
        };
        child.on("message", heard);
        child.send("cpu");
      }),
  };
}

/** HAProxy on the deployment config, its replicas a, b, c (one replica: all three the same). */
async function startHaproxy(replicas) {
  const [rr, sticky] = [await freePort(), await freePort()];
  const address = (i) => replicas[i % replicas.length].url.host;
  const child = spawn(HAPROXY, ["-f", join(ROOT, "examples/deployment/haproxy.cfg"), "-db"], {
    env: {
      ...process.env,
      MCP_RR_PORT: String(rr),
      MCP_STICKY_PORT: String(sticky),
      MCP_A: address(0),
      MCP_B: address(1),
      MCP_C: address(2),
    },
  });
  const url = new URL(`http://127.0.0.1:${rr}/mcp`);
  // HAProxy prints nothing when ready: wait until a connection is no longer refused.
  for (;;) {
    if (child.exitCode !== null) throw new Error("haproxy exited");
    if (
      await fetch(url, { method: "HEAD" }).then(
        () => true,
        () => false,
      )
    )
      break;
  }
  return { url, stop: () => child.kill() };
}

const ACCEPT = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** The JSON-RPC reply in a JSON or SSE body. */
function replyIn(text) {
  if (text.startsWith("{")) return JSON.parse(text);
  const line = text.split("\n").find((l) => l.startsWith("data:"));
  return line ? JSON.parse(line.slice(5)) : undefined;
}

async function openSession(url) {
  const init = await fetch(url, {
    method: "POST",
    headers: ACCEPT,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    }),
  });
  await init.text();
  const headers = {
    ...ACCEPT,
    "mcp-session-id": init.headers.get("mcp-session-id"),
    "mcp-protocol-version": "2025-11-25",
  };
  await (
    await fetch(url, {
      method: "POST",
      headers,
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    })
  ).text();
  return headers;
}

/** The CPU time so far of `replicas` and, when given, of redis-server (microseconds each). */
async function cpuOf(replicas, redis) {
  const each = await Promise.all(replicas.map((r) => r.cpu()));
  return { replicas: each.reduce((a, b) => a + b, 0), redis: redis ? redis.cpu() : 0 };
}

async function sample({ url, replicas, redis }) {
  const lanes = await Promise.all(Array.from({ length: LANES }, () => openSession(url)));
  const latencies = [];
  const cpuBefore = await cpuOf(replicas, redis);
  const deadline = performance.now() + SAMPLE_MS;
  const started = performance.now();
  let id = 1;
  await Promise.all(
    lanes.map(async (headers) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const response = await fetch(url, {
          method: "POST",
          headers,
          body: `{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
        });
        const reply = replyIn(await response.text());
        if (reply?.result?.content?.[0]?.text !== "hi")
          throw new Error(`wrong reply: ${JSON.stringify(reply)}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await cpuOf(replicas, redis);
  const n = latencies.length;
  await Promise.all(
    lanes.map((headers) => fetch(url, { method: "DELETE", headers }).then((r) => r.text())),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: n / seconds,
    p99: latencies[Math.floor(n * 0.99)],
    replicaUs: (cpuAfter.replicas - cpuBefore.replicas) / n,
    redisUs: (cpuAfter.redis - cpuBefore.redis) / n,
  };
}

export async function benchScale() {
  const work = workDir("mcp-gen-bench-scale-");
  const dir = generateWith(ROOT, join(work, "js"), transpileDir);
  const redis = await startRedis(work);
  const memory = await startReplica(dir, "memory");
  const redisReplicas = [];
  for (let i = 0; i < 3; i++) redisReplicas.push(await startReplica(dir, "redis", redis.url));
  const one = await startHaproxy(redisReplicas.slice(0, 1));
  const three = await startHaproxy(redisReplicas);
  const peers = {
    memory: { url: memory.url, replicas: [memory] },
    redis: { url: redisReplicas[0].url, replicas: redisReplicas.slice(0, 1), redis },
    "haproxy-1": { url: one.url, replicas: redisReplicas.slice(0, 1), redis },
    "haproxy-3": { url: three.url, replicas: redisReplicas, redis },
  };
  const loadBefore = loadAverage();
  const results = Object.fromEntries(Object.keys(peers).map((k) => [k, []]));
  try {
    for (let round = -1; round < ROUNDS; round++) {
      const names = Object.keys(peers);
      const order = names.map((_, i) => names[(i + Math.max(round, 0)) % names.length]);
      for (const name of order) {
        const measured = await sample(peers[name]);
        if (round >= 0) results[name].push(measured);
      }
    }
  } finally {
    one.stop();
    three.stop();
    await Promise.all([memory, ...redisReplicas].map((r) => r.stop()));
    redis.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const fmt = (n) => Math.round(n).toLocaleString("en-US");
  console.log(
    `\nscale (legacy tools/call, ${LANES} sessions, ${SAMPLE_MS} ms samples, median [min .. max] of ${ROUNDS} interleaved rounds)`,
  );
  console.log(`${cpus().length} cores; load average before ${loadBefore}, after ${loadAverage()}`);
  const base = median(results.memory.map((r) => r.rps));
  const baseUs = median(results.memory.map((r) => r.replicaUs));
  for (const [name, runs] of Object.entries(results)) {
    const rps = runs.map((r) => r.rps);
    const p99 = runs.map((r) => r.p99);
    const replicaUs = median(runs.map((r) => r.replicaUs));
    const redisUs = median(runs.map((r) => r.redisUs));
    console.log(
      `  ${name.padEnd(10)} ${fmt(median(rps)).padStart(7)} req/s [${fmt(Math.min(...rps))} .. ${fmt(Math.max(...rps))}]  p99 ${median(p99).toFixed(1)} ms  ${(median(rps) / base).toFixed(2)}x memory` +
        `  CPU/request: replicas ${fmt(replicaUs)} us (${(replicaUs / baseUs).toFixed(2)}x memory), redis-server ${fmt(redisUs)} us`,
    );
  }
  console.log(
    "  (CPU/request: the replicas' CPU time and redis-server's during the sample, over the requests answered)",
  );
}
