import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { describeCause, TransportError } from "../../core/transport-error.js";

// The server process of the stdio client transport (stdio.ts): writing a message to its
// stdin, what it said before it exited (the tail of a piped stderr) and the error its exit
// is, and the shutdown close() asks of it.

/** How much of a piped stderr is kept for the error of an exit, and how long its end is awaited. */
export const STDERR_TAIL_BYTES = 2048;
const STDERR_WAIT_MS = 200;
/**
 * How long a write the server refused (EPIPE) waits for the process's exit: a server that
 * stopped reading has usually exited (a start-up failure), and its exit code and stderr say
 * what went wrong where EPIPE says nothing.
 */
const EXIT_WAIT_MS = 1000;
/** How long close() waits for the server to exit after closing its input, then after SIGTERM. */
export const SHUTDOWN_WAIT_MS = 2000;

/** Settles when `promise` does or `ms` have passed, whichever comes first; never rejects. */
export async function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([promise.catch(() => undefined), waited]);
  clearTimeout(timer);
}

/** The tail of a piped stderr: what a crashing server said last. */
export interface StderrTail {
  /** Settles when the stream closed (at once without one). */
  readonly ended: Promise<void>;
  /** The last STDERR_TAIL_BYTES at most, from the start of a line when cut; "" when none. */
  text(): string;
}

/** Keeps the tail of `stderr` (null: not piped) as it is written. */
export function captureStderrTail(stderr: Readable | null): StderrTail {
  let tail = Buffer.alloc(0);
  const ended = new Promise<void>((resolve) => {
    if (!stderr) return resolve();
    stderr.on("data", (chunk: Buffer) => {
      const joined = Buffer.concat([tail, chunk]);
      tail = joined.subarray(Math.max(0, joined.length - STDERR_TAIL_BYTES));
    });
    stderr.on("close", resolve).on("error", () => resolve());
  });
  const text = () => {
    const said = tail.toString("utf8").trimEnd();
    // A tail cut at the bound starts mid-line: it starts at the next whole line.
    if (tail.length === STDERR_TAIL_BYTES && said.includes("\n"))
      return said.slice(said.indexOf("\n") + 1);
    return said;
  };
  return { ended, text };
}

/**
 * The error of the server's exit: its code or signal, the last line it printed on stdout that
 * was not JSON (`noise`, quoted) and the tail of its stderr.
 */
export function exitError(
  code: number | null,
  signal: NodeJS.Signals | null,
  noise: string | undefined,
  stderr: string,
): TransportError {
  // What it printed that was not a message: a usage text or a banner, when the command
  // started something other than an MCP server.
  const printed = noise ? `; its last line on stdout that was not JSON: ${noise}` : "";
  const message = `the server process exited (${signal ?? `code ${code}`})${printed}`;
  return new TransportError("exited", message, stderr ? { stderr } : {});
}

/**
 * Fails the transport (`fail`) when the server cannot start or exits. The exit's error waits,
 * briefly, for the end of stdout (`stdoutEnded`) and stderr, whose last lines say why.
 */
export function watchServerProcess(
  child: ChildProcess,
  command: string,
  stdoutEnded: Promise<void>,
  noise: () => string | undefined,
  fail: (error: Error) => void,
): void {
  const stderrTail = captureStderrTail(child.stderr);
  child.on("error", (error) => {
    const message = `could not start the server ${command}: ${describeCause(error)}`;
    fail(new TransportError("unreachable", message, { cause: error }));
  });
  child.on("exit", async (code, signal) => {
    // The last of stderr and stdout may still be in the pipes: wait for their ends, briefly.
    await atMost(Promise.all([stderrTail.ended, stdoutEnded]), STDERR_WAIT_MS);
    fail(exitError(code, signal, noise(), stderrTail.text()));
  });
  // A write to a server that stopped reading (EPIPE) fails in its callback; the exit follows
  // (write waits for it).
  child.stdin!.on("error", () => undefined);
}

/**
 * Writes `message` as one line to the server's `stdin`. Refused with `closed()` once the
 * transport failed; a write the server refused waits for `failed` (its exit), whose error says
 * more than EPIPE, before failing as dropped.
 */
export function writeLine(
  stdin: Writable,
  message: unknown,
  closed: () => Error | undefined,
  failed: Promise<void>,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const refused = closed();
    if (refused) return reject(refused);
    stdin.write(`${JSON.stringify(message)}\n`, (error) => {
      if (!error) return resolve();
      void atMost(failed, EXIT_WAIT_MS).then(() => {
        const message = `the server stopped reading: ${describeCause(error)}`;
        reject(closed() ?? new TransportError("dropped", message, { cause: error }));
      });
    });
  });
}

/** Ends the server process: closes its input, and waits for its exit. */
export async function shutDown(child: ChildProcess): Promise<void> {
  child.stdin!.end();
  if (child.exitCode === null && child.signalCode === null) {
    // Closing its input asks the server to exit; one that does not is terminated, and one
    // that ignores SIGTERM killed (2026-07-28 basic/transports/stdio, "Shutdown"), or
    // close() would wait for it forever.
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const term = setTimeout(() => child.kill("SIGTERM"), SHUTDOWN_WAIT_MS);
    const kill = setTimeout(() => child.kill("SIGKILL"), 2 * SHUTDOWN_WAIT_MS);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
  }
}
