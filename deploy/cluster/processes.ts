// The deployment test's processes: the replicas (node, deploy/cluster/replica.mjs beside generated
// code) and HAProxy (the OS package, in the foreground with -db). The test kills them.
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { within } from "../../packages/cli/test/support/wait.js";
export { freePort } from "../../packages/cli/test/support/free-port.js";

export interface Replica {
  readonly name: string;
  /** host:port it listens on. */
  readonly address: string;
  readonly process: ChildProcess;
  /** Resolves when it prints that a never-answering call arrived. */
  readonly callStarted: Promise<void>;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once its output contains `text`, or matches it (fails the test after `ms`). */
  printed(text: string | RegExp, ms?: number): Promise<void>;
}

/**
 * SIGKILLs `replica` and resolves once it is reaped, so its port refuses connections (HAProxy
 * then redispatches). Until then the kernel may still accept a connection on its socket and
 * reset it, which a client sees as "fetch failed" rather than a replica's answer.
 */
export async function killReplica(replica: Pick<Replica, "process">): Promise<void> {
  if (replica.process.exitCode !== null || replica.process.signalCode !== null) return;
  const gone = new Promise((resolve) => replica.process.once("exit", resolve));
  replica.process.kill("SIGKILL");
  await gone;
}

/** The haproxy binary on PATH or in /usr/sbin (Debian's), or undefined. */
export function haproxyPath(): string | undefined {
  const dirs = [...(process.env["PATH"] ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin"];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, "haproxy"), constants.X_OK);
      return join(dir, "haproxy");
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Starts `replica.mjs` in `dir`; resolves once it listens (on a port of its choosing).
 * `nodeArgs` go before the script (the fault suite's `--expose-gc`).
 */
export function startReplica(
  dir: string,
  name: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<Replica> {
  const child = spawn(process.execPath, [...nodeArgs, join(dir, "replica.mjs")], {
    env: { ...process.env, ...env, INSTANCE: name },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let callStarted!: () => void;
  const started = new Promise<void>((resolve) => (callStarted = resolve));
  // Waiters for a text in the output, checked on each chunk.
  const waiters = new Set<{ text: string | RegExp; found: () => void }>();
  const has = (text: string | RegExp) =>
    typeof text === "string" ? out.includes(text) : text.test(out);
  const printed = (text: string | RegExp, ms = 20_000) => {
    if (has(text)) return Promise.resolve();
    const seen = new Promise<void>((found) => waiters.add({ text, found }));
    return within(seen, `replica ${name} printing ${String(text)}`, ms);
  };
  const heard = () => {
    for (const waiter of waiters) {
      if (!has(waiter.text)) continue;
      waiters.delete(waiter);
      waiter.found();
    }
  };
  const output = () => out;
  const listening = new Promise<Replica>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      heard();
      const m = /LISTENING http:\/\/([^/\s]+)/.exec(out);
      if (m)
        resolve({ name, address: m[1]!, process: child, callStarted: started, output, printed });
      if (out.includes(`CALL STARTED ${name}`)) callStarted();
    });
    child.stderr.on("data", (chunk: Buffer) => ((out += chunk), heard()));
    child.once("exit", (code) => reject(new Error(`replica ${name} exited ${code}: ${out}`)));
  });
  return within(listening, `replica ${name} listening`, 30_000);
}

/** Starts HAProxy on `config` with `env`; resolves once both frontends accept connections. */
export async function startHaproxy(
  config: string,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const binary = haproxyPath();
  if (!binary) throw new Error("haproxy is not installed (apt-get install haproxy)");
  const child = spawn(binary, ["-f", config, "-db"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`haproxy exited ${code}:\n${output}`))),
  );
  exited.catch(() => {});
  const ports = [env["MCP_RR_PORT"], env["MCP_STICKY_PORT"]].map(Number);
  // HAProxy prints nothing when it is ready: a connection that is no longer refused is the
  // only sign. Each attempt waits for its own refusal; `within` bounds the whole wait.
  const accepts = async (port: number) => {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/`, { method: "HEAD" }).then(
        () => true,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await within(
    Promise.race([Promise.all(ports.map(accepts)), exited]),
    "haproxy listening",
    20_000,
  );
  return child;
}
