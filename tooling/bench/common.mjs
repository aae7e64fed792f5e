import { fork, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
export { transpileDir } from "../transpile-generated.mjs";

export const ROOT = resolve(fileURLToPath(import.meta.url), "../../..");
export const SPEC = resolve(ROOT, "..", "shared", "spec");
/** The built CLI of this checkout. */
export const MCP_GEN = join(ROOT, "packages", "cli", "dist", "cli", "main.js");

/** The median; of an even count, the mean of the two middle values. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function workDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * `mcp-gen init` into `work`/`name` from the spec checkout, its packages those of this checkout
 * (node_modules linked, not installed). Returns the project's folder.
 */
export function initProject(work, name, extraArgs = []) {
  const dir = join(work, name);
  const r = spawnSync(process.execPath, [MCP_GEN, "init", dir, "--spec", SPEC, ...extraArgs], {
    cwd: work,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`mcp-gen init ${extraArgs.join(" ")} failed:\n${r.stderr}`);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** The load average (1, 5, 15 min), as printed beside timings taken on a shared machine. */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** Stops the run with one line naming the setting, as every bench does with a bad value. */
function refuse(name, raw, what) {
  console.error(`bench: ${name} must be ${what}, not ${JSON.stringify(raw)}`);
  process.exit(2);
}

/** The environment variable `name` as a whole number >= 1, or `fallback` when it is unset. */
export function envCount(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) refuse(name, raw, "a whole number >= 1");
  return n;
}

/** The environment variable `name` as a comma-separated list of whole numbers >= 1. */
export function envCounts(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const list = raw.split(",").map(Number);
  if (!list.every((n) => Number.isSafeInteger(n) && n >= 1))
    refuse(name, raw, "whole numbers >= 1, separated by commas");
  return list;
}

/**
 * What a benchmark that samples lanes of calls in rounds reads from the environment
 * (tooling/bench/client.mjs: prefix BENCH_CLIENT, lanes BENCH_CLIENT_LANES; tooling/bench/http.mjs:
 * BENCH_HTTP, BENCH_HTTP_CONNECTIONS): rounds from BENCH_ROUNDS (default 3), the sample
 * length in ms from <prefix>_MS, the in-flight counts from `lanesVariable`, and the folder
 * every peer process writes its --cpu-prof into from <prefix>_PROFILE (unset: no profiles).
 */
export function samplingOptions(prefix, { sampleMs, lanesVariable, lanes }) {
  return {
    rounds: envCount("BENCH_ROUNDS", 3),
    sampleMs: envCount(`${prefix}_MS`, sampleMs),
    lanes: envCounts(lanesVariable, lanes),
    profile: process.env[`${prefix}_PROFILE`] || undefined,
  };
}

/** The dual-era revisions the HTTP benchmarks generate: 2026-07-28 and the initialize-based ones. */
const DUAL_ERA_REVISIONS = "2026-07-28,2025-11-25,2025-06-18,2025-03-26";

/** Generates the dual-era output with the mcp-gen of `checkout` and type-strips it into `out`. */
export function generateWith(checkout, out, transpile) {
  const ts = `${out}-ts`;
  // The CLI moved into packages/cli after the default baseline (aba262f) was cut.
  const split = join(checkout, "packages/cli/dist/cli/main.js");
  const r = spawnSync(
    process.execPath,
    [
      existsSync(split) ? split : join(checkout, "dist/cli/main.js"),
      "generate",
      "--spec",
      SPEC,
      "--revisions",
      DUAL_ERA_REVISIONS,
      "--out",
      ts,
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return transpile(ts, out);
}

/**
 * One server of tooling/bench/http-servers.mjs in a child process (`execArgv`: its node flags):
 * its url, its stats (RSS, CPU time) on request, and stop().
 */
export async function startServer(kind, dir, execArgv = []) {
  const child = fork(join(ROOT, "tooling/bench/http-servers.mjs"), [kind, dir ?? ""], { execArgv });
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

/**
 * One legacy (2025-11-25) session over Streamable HTTP, as the v1 SDK opens one: initialize,
 * notifications/initialized, one tools/call of the `echo` tool (its reply checked), DELETE.
 */
export async function legacyEchoSession(url, clientName, text) {
  const json = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const post = (body, headers = {}) =>
    fetch(url, { method: "POST", headers: { ...json, ...headers }, body: JSON.stringify(body) });
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: clientName, version: "1" },
    },
  });
  const id = init.headers.get("mcp-session-id");
  await init.arrayBuffer();
  if (!id) throw new Error(`no session id (HTTP ${init.status})`);
  const session = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
  await (
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)
  ).arrayBuffer();
  const call = await post(
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text } } },
    session,
  );
  if ((await call.json()).result?.content?.[0]?.text !== text)
    throw new Error("legacy tools/call failed");
  await (await fetch(url, { method: "DELETE", headers: session })).arrayBuffer();
}
