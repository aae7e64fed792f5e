import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { freePort } from "./free-port.js";
import { within } from "./wait.js";

// A real redis-server (the OS package) for a test: started on a free loopback port with
// nothing persisted, stopped by the test. `.ci/run` installs the package when it is missing.
// The one way the tests start Redis: a test that needs it skips, saying why, where the
// binary is missing (`describe.skipIf(redisMissing !== undefined)`).

/** The redis-server on PATH, or undefined when it is not installed. */
export function redisServerPath(): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    const candidate = join(dir, "redis-server");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why Redis tests cannot run here, or undefined when they can. */
export const redisMissing = redisServerPath()
  ? undefined
  : "redis-server is not installed (apt-get install redis-server; .ci/run installs it)";

export interface RunningRedis {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  stop(): Promise<void>;
  /**
   * Fault injection: stops redis-server (SIGTERM, or SIGKILL with `hard`), waits `gapMs` of
   * downtime (real time: the clients under test reconnect by the clock), then starts it again
   * on the same port, empty (nothing is persisted). Resolves once it accepts connections.
   */
  restart(options?: { gapMs?: number; hard?: boolean }): Promise<void>;
  /** Fault injection: SIGSTOP, so that connections stay open and nothing answers. */
  pause(): void;
  /** Undoes pause() (SIGCONT). */
  resume(): void;
}

interface RedisProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  readonly output: () => string;
}

/** Spawns redis-server on `port` in `dir`; resolves with it once ready, or undefined. */
async function spawnRedis(binary: string, port: number, dir: string) {
  const child = spawn(binary, [
    ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    ...["--dir", dir],
  ]);
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<boolean>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  const process: RedisProcess = { child, exited, output: () => output };
  return { ready: await within(ready, "redis-server ready", 20_000), process };
}

/** Starts redis-server; resolves once it accepts connections. */
export async function startRedis(binary = redisServerPath()): Promise<RunningRedis> {
  if (!binary) throw new Error("redis-server is not installed (apt-get install redis-server)");
  let lastOutput = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    // Free when asked: redis-server is retried if another process took the port meanwhile.
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-redis-"));
    const started = await spawnRedis(binary, port, dir);
    if (started.ready) {
      let current = started.process;
      const halt = async (signal: NodeJS.Signals) => {
        if (current.child.exitCode === null) {
          current.child.kill("SIGCONT");
          current.child.kill(signal);
        }
        await within(current.exited, "redis-server stopped", 20_000);
      };
      return {
        url: `redis://127.0.0.1:${port}`,
        async stop() {
          await halt("SIGTERM");
          rmSync(dir, { recursive: true, force: true });
        },
        async restart({ gapMs = 0, hard = false } = {}) {
          await halt(hard ? "SIGKILL" : "SIGTERM");
          if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
          const again = await spawnRedis(binary, port, dir);
          if (!again.ready)
            throw new Error(`redis-server did not restart:\n${again.process.output()}`);
          current = again.process;
        },
        pause: () => void current.child.kill("SIGSTOP"),
        resume: () => void current.child.kill("SIGCONT"),
      };
    }
    rmSync(dir, { recursive: true, force: true });
    lastOutput = started.process.output();
  }
  throw new Error(`redis-server did not start:\n${lastOutput}`);
}
