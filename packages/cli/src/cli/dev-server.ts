import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Io } from "./io.js";

// The server `mcp-gen dev` runs: one child process at a time, replaced after each good build.

/** How long a server may take to drain on SIGTERM before it is killed (the init server drains for up to 10 s). */
const STOP_GRACE_MS = 5_000;
/** How long a new server has to say where it listens before dev stops waiting for it (it keeps running). */
const READY_WAIT_MS = 30_000;

/** What a started server said: the URL of its "listening on" line. */
const LISTENING = /listening on (https?:\/\/\S+)/;

export interface DevServerOptions {
  /** The built entry point (dist/http.js). */
  entry: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Told each URL the server listens on, after each start. */
  listening?: (url: string) => void;
}

/** Sends each line of `stream` to `say`. */
function forward(stream: NodeJS.ReadableStream, say: (line: string) => void): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on("line", say);
}

/** Servers dev is stopping: their exit is expected, not news. */
const stopping = new WeakSet<ChildProcess>();

/** Resolves once `child` has exited; SIGKILL after `graceMs` if SIGTERM did not end it. */
function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  stopping.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Restarts are serialized and coalesced: a restart asked for while one is waiting to run is
 * the same restart. The old server runs until the new one starts (a port has one owner, so
 * the old one stops first; a build that fails never gets here).
 */
export class DevServer {
  private child: ChildProcess | undefined;
  private queue: Promise<void> = Promise.resolve();
  private waiting = false;
  private starts = 0;
  private stopped = false;
  private readonly killOnExit = () => this.child?.kill("SIGKILL");

  constructor(
    private readonly options: DevServerOptions,
    private readonly io: Io,
  ) {
    // dev itself ended some other way (an uncaught error): leave no server behind.
    process.on("exit", this.killOnExit);
  }

  /** Stops the running server, if any, and starts a new one; resolves once it listens (or exited, or took too long). */
  restart(): Promise<void> {
    if (this.waiting) return this.queue;
    this.waiting = true;
    this.queue = this.queue.then(async () => {
      this.waiting = false;
      if (this.stopped) return;
      if (this.child) await stopChild(this.child, STOP_GRACE_MS);
      if (!this.stopped) await this.start();
    });
    return this.queue;
  }

  /** Stops the server for good (after a restart under way). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.queue;
    if (this.child) await stopChild(this.child, STOP_GRACE_MS);
    process.off("exit", this.killOnExit);
  }

  private start(): Promise<void> {
    const { entry, cwd, env } = this.options;
    const verb = this.starts++ === 0 ? "started" : "restarted";
    const child = spawn(process.execPath, ["--enable-source-maps", entry], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    return new Promise((resolve) => {
      const ready = setTimeout(resolve, READY_WAIT_MS);
      const settle = () => (clearTimeout(ready), resolve());
      forward(child.stdout!, (line) => {
        this.io.out(line);
        const url = LISTENING.exec(line)?.[1];
        if (url === undefined) return;
        this.io.out(`mcp-gen dev: server ${verb} at ${url}`);
        this.options.listening?.(url);
        settle();
      });
      forward(child.stderr!, (line) => this.io.err(line));
      child.on("error", (error) => {
        this.io.err(`mcp-gen dev: cannot start ${entry}: ${error.message}`);
        settle();
      });
      child.on("exit", (code, signal) => {
        if (this.child === child) this.child = undefined;
        if (stopping.has(child) || this.stopped) return settle();
        this.io.err(
          `mcp-gen dev: the server exited (${signal ?? `code ${code}`}); save a change to start it again`,
        );
        settle();
      });
    });
  }
}
