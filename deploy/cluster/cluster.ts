// The deployment the deploy tests run against: HAProxy (examples/deployment/haproxy.cfg) in
// front of three replicas of one generated dual-era server (deploy/cluster/replica.mjs) sharing a
// real redis-server and a request-state secret. Every deploy test file starts one.
import type { ChildProcess } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate } from "../../packages/cli/src/generators/emit/index.js";
import { loadRevision } from "../../packages/cli/src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "../../packages/cli/test/helpers.js";
import {
  redisServerPath,
  startRedis,
  type RunningRedis,
} from "../../packages/cli/test/support/redis.js";
import { freePort, haproxyPath, startHaproxy, startReplica, type Replica } from "./processes.js";

export const REPLICA_NAMES = ["a", "b", "c"] as const;

/** What is not installed for the deployment test (empty when it can run). */
export const missingForDeploy = [
  haproxyPath() ? "" : "haproxy",
  redisServerPath() ? "" : "redis-server",
]
  .filter(Boolean)
  .join(", ");

/** The running deployment. */
export interface Cluster {
  /** By name; a test that restarts a replica puts the new one here, so that `stop` kills it. */
  readonly replicas: Map<string, Replica>;
  /** The folder the replicas run from, and their environment: for restarting one. */
  readonly replicaDir: string;
  readonly replicaEnv: Readonly<Record<string, string>>;
  /** The node options the replicas run with (a restarted one takes the same). */
  readonly nodeArgs: readonly string[];
  /** The redis-server they share (the fault suite restarts and pauses it). */
  readonly redis: RunningRedis;
  /** HAProxy's plain round robin frontend: every request to the next replica. */
  readonly roundRobinUrl: URL;
  /** HAProxy's frontend sticky on Mcp-Session-Id. */
  readonly stickyUrl: URL;
  /** Kills HAProxy and the replicas, and stops Redis. */
  stop(): Promise<void>;
}

/** What a test may change about the replicas (the fault suite: its timeouts, --expose-gc). */
export interface ClusterOptions {
  /** More environment for replica.mjs (REQUEST_TIMEOUT_MS, ...). */
  readonly env?: Readonly<Record<string, string>>;
  readonly nodeArgs?: readonly string[];
}

/** Generates the server, then starts Redis, three replicas and HAProxy in front of them. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const nodeArgs = options.nodeArgs ?? [];
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const dir = writeGenerated(files);
  copyFileSync(join(import.meta.dirname, "replica.mjs"), join(dir, "replica.mjs"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  const redis = await startRedis();
  const replicas = new Map<string, Replica>();
  let haproxy: ChildProcess | undefined;
  const stop = async () => {
    haproxy?.kill("SIGKILL");
    for (const replica of replicas.values()) replica.process.kill("SIGKILL");
    await redis.stop();
  };
  try {
    const env = {
      STATE_SECRET: "a secret every replica shares!!",
      REDIS_URL: redis.url,
      ...options.env,
    };
    // Each kept as soon as it runs, so that a failed start-up still stops the others.
    await Promise.all(
      REPLICA_NAMES.map(async (name) =>
        replicas.set(name, await startReplica(dir, name, env, nodeArgs)),
      ),
    );
    const [rr, sticky] = [await freePort(), await freePort()];
    haproxy = await startHaproxy(
      join(import.meta.dirname, "..", "..", "examples", "deployment", "haproxy.cfg"),
      {
        MCP_RR_PORT: String(rr),
        MCP_STICKY_PORT: String(sticky),
        MCP_A: replicas.get("a")!.address,
        MCP_B: replicas.get("b")!.address,
        MCP_C: replicas.get("c")!.address,
      },
    );
    return {
      replicas,
      replicaDir: dir,
      replicaEnv: env,
      nodeArgs,
      redis,
      roundRobinUrl: new URL(`http://127.0.0.1:${rr}/mcp`),
      stickyUrl: new URL(`http://127.0.0.1:${sticky}/mcp`),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
