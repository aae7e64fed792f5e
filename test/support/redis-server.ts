import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { whenSeen } from "./wait.js";

// A real redis-server (the OS package) for the tests that need one: started on a free
// loopback port without persistence, stopped by the test. Tests skip, saying why, where the
// binary is missing.

export const REDIS_SERVER = "/usr/bin/redis-server";

/** Why Redis tests cannot run here, or undefined when they can. */
export const redisMissing = existsSync(REDIS_SERVER)
  ? undefined
  : `${REDIS_SERVER} is not installed (apt-get install redis-server)`;

/** A free TCP port on 127.0.0.1 (free when asked: the server binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ["--save", "", "--appendonly", "no", "--port", String(port), "--bind", "127.0.0.1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${output}`))),
  );
  exited.catch(() => undefined);
  await Promise.race([
    whenSeen(
      [child.stdout!],
      () => output.includes("Ready to accept connections"),
      "redis-server ready",
    ),
    exited,
  ]);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
