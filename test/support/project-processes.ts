import { spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

// Running an init project's commands and servers from the tests: npm, a free port, and
// waiting for a started process to say it is ready.

/** Runs npm in `cwd` (up to 5 minutes): its exit status and everything it printed. */
export function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", timeout: 300_000, env });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

/** A port free on 127.0.0.1 now (for a server that must know its URL before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves to what `child` printed (stdout and stderr) once its stdout contains `until`; rejects if it exits first. */
export function printedUntil(child: ChildProcess, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b: Buffer) => ((out += b), out.includes(until) && resolve(out)));
    child.stderr!.on("data", (b: Buffer) => (out += b));
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}
