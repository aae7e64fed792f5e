import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { serverRequests } from "./server-requests.js";
import { describeCause, TransportError } from "./transport-error.js";
import type { ServerRequestHandler, Transport, TransportRequestOptions } from "./transport.js";

export { TransportError, type TransportErrorKind } from "./transport-error.js";

// MCP over stdio (Node.js): newline-delimited JSON, one message per line. A client
// transport that spawns the server process, and a loop that serves a dispatcher. Lines are
// bounded (default 16 MiB): a longer one is dropped, never buffered without end. A server that
// cannot start or exits fails the calls in flight with a TransportError.

const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Notifications about a call in flight (stdio has no per-request stream to tell them apart). */
const LOG_MESSAGE = "notifications/message";
const CALL_NOTIFICATIONS = new Set(["notifications/progress", LOG_MESSAGE]);
/** How much of a piped stderr is kept for the error of an exit, and how long its end is awaited. */
const STDERR_TAIL_BYTES = 2048;
const STDERR_WAIT_MS = 200;
/**
 * How long a write the server refused (EPIPE) waits for the process's exit: a server that
 * stopped reading has usually exited (a start-up failure), and its exit code and stderr say
 * what went wrong where EPIPE says nothing.
 */
const EXIT_WAIT_MS = 1000;
/** How long close() waits for the server to exit after closing its input, then after SIGTERM. */
const SHUTDOWN_WAIT_MS = 2000;
/** How much of the last line on stdout that was not JSON an exit's error quotes. */
const NOISE_CHARS = 200;

/** Settles when `promise` does or `ms` have passed, whichever comes first; never rejects. */
async function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([promise.catch(() => undefined), waited]);
  clearTimeout(timer);
}

/** Calls `onLine` for each line of `input`, dropping (and reporting) lines over `limit` bytes. */
export function readLines(
  input: Readable,
  limit: number,
  onLine: (line: string) => void,
  onOversize: () => void,
): Promise<void> {
  return new Promise((resolve) => {
    let parts: Buffer[] = [];
    let size = 0;
    let skipping = false;
    input.on("data", (chunk: Buffer | string) => {
      let buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      for (let end = buffer.indexOf(10); ; end = buffer.indexOf(10)) {
        const piece = end === -1 ? buffer : buffer.subarray(0, end);
        if (!skipping) {
          size += piece.length;
          if (size > limit) {
            skipping = true;
            parts = [];
            onOversize();
          } else parts.push(piece);
        }
        if (end === -1) break;
        if (!skipping) onLine(Buffer.concat(parts).toString("utf8").replace(/\r$/, ""));
        parts = [];
        size = 0;
        skipping = false;
        buffer = buffer.subarray(end + 1);
      }
    });
    input.on("end", () => {
      if (!skipping && size > 0) onLine(Buffer.concat(parts).toString("utf8"));
      resolve();
    });
    input.on("close", () => resolve());
    input.on("error", () => resolve());
  });
}

export interface StdioTransportOptions {
  command: string;
  args?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * What to do with the server's stderr (default "inherit"). With "pipe", the transport keeps
   * its last 2 KB for the error of an exit (`TransportError.stderr`); read the rest from
   * `process.stderr` with "data" listeners.
   */
  stderr?: "inherit" | "ignore" | "pipe";
  /** Notifications not tied to a request in flight. */
  onNotification?: (notification: Record<string, unknown>) => void;
  /** Longest line read from the server, in bytes (default 16 MiB). */
  maxLineBytes?: number;
}

interface Pending {
  resolve: (response: object) => void;
  reject: (error: unknown) => void;
  onNotification: ((notification: Record<string, unknown>) => void) | undefined;
}

/** Spawns `command` and talks MCP to it over its stdin and stdout. */
export function createStdioTransport(
  options: StdioTransportOptions,
): Transport & { readonly process: ChildProcess } {
  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
  });
  const pending = new Map<string, Pending>();
  let closed: Error | undefined;
  let noise: string | undefined;
  let onFailed: () => void = () => undefined;
  const failed = new Promise<void>((resolve) => (onFailed = resolve));
  // Legacy sessions: the server's own requests (elicitation, sampling, roots, ping), and the
  // ones being answered, which the server may cancel.
  let answerServer: ServerRequestHandler | undefined;
  const answering = serverRequests();
  let sessionListener: ((notification: Record<string, unknown>) => void) | undefined;

  const fail = (error: Error) => {
    closed ??= error;
    for (const p of pending.values()) p.reject(closed);
    pending.clear();
    answering.abandonAll(closed);
    onFailed();
  };
  // The tail of a piped stderr: what a crashing server said last.
  let stderrTail = Buffer.alloc(0);
  const stderrEnded = new Promise<void>((resolve) => {
    if (!child.stderr) return resolve();
    child.stderr.on("data", (chunk: Buffer) => {
      const joined = Buffer.concat([stderrTail, chunk]);
      stderrTail = joined.subarray(Math.max(0, joined.length - STDERR_TAIL_BYTES));
    });
    child.stderr.on("close", resolve).on("error", () => resolve());
  });
  child.on("error", (error) => {
    const message = `could not start the server ${options.command}: ${describeCause(error)}`;
    fail(new TransportError("unreachable", message, { cause: error }));
  });
  child.on("exit", async (code, signal) => {
    // The last of stderr and stdout may still be in the pipes: wait for their ends, briefly.
    await atMost(Promise.all([stderrEnded, stdoutEnded]), STDERR_WAIT_MS);
    // What it printed that was not a message: a usage text or a banner, when the command
    // started something other than an MCP server.
    const printed = noise ? `; its last line on stdout that was not JSON: ${noise}` : "";
    const message = `the server process exited (${signal ?? `code ${code}`})${printed}`;
    let stderr = stderrTail.toString("utf8").trimEnd();
    // A tail cut at the bound starts mid-line: it starts at the next whole line.
    if (stderrTail.length === STDERR_TAIL_BYTES && stderr.includes("\n"))
      stderr = stderr.slice(stderr.indexOf("\n") + 1);
    fail(new TransportError("exited", message, stderr ? { stderr } : {}));
  });
  // A write to a server that stopped reading (EPIPE) fails in its callback; the exit follows
  // (write waits for it).
  child.stdin!.on("error", () => undefined);

  const onLine = (line: string) => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // Not a message: servers may print other lines; nothing to answer. The last is kept for
      // the error of an exit.
      noise = JSON.stringify(line.length > NOISE_CHARS ? `${line.slice(0, NOISE_CHARS)}...` : line);
      return;
    }
    if (typeof parsed !== "object" || parsed === null) return;
    const message = parsed as Record<string, unknown> & { method?: unknown; id?: unknown };
    if (("result" in message || "error" in message) && message.id !== undefined) {
      const key = JSON.stringify(message.id);
      const p = pending.get(key);
      pending.delete(key);
      p?.resolve(message);
    } else if (typeof message.method === "string" && message.id !== undefined) {
      answering.answer(message, answerServer, write);
    } else if (typeof message.method === "string" && message.id === undefined) {
      // A cancellation of a request being answered stops it; the notification still goes on.
      answering.cancel(message);
      // stdio has no per-request stream: a notification goes to every request in flight
      // (the client matches progress by token) and to the transport's listener; but a log
      // message, which names no request, goes to the calls only when one runs: with several,
      // each would show the others' messages as its own.
      const claimed =
        CALL_NOTIFICATIONS.has(message.method) &&
        (message.method === LOG_MESSAGE ? pending.size === 1 : pending.size > 0);
      if (claimed || !CALL_NOTIFICATIONS.has(message.method))
        for (const p of pending.values()) p.onNotification?.(message);
      options.onNotification?.(message);
      // What no call claims (all but progress and log messages while calls run) is the session's.
      if (!claimed) sessionListener?.(message);
    }
  };
  const stdoutEnded = readLines(
    child.stdout!,
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    onLine,
    () => undefined,
  );

  const write = (message: unknown) =>
    new Promise<void>((resolve, reject) => {
      if (closed) return reject(closed);
      child.stdin!.write(`${JSON.stringify(message)}\n`, (error) => {
        if (!error) return resolve();
        void atMost(failed, EXIT_WAIT_MS).then(() => {
          const message = `the server stopped reading: ${describeCause(error)}`;
          reject(closed ?? new TransportError("dropped", message, { cause: error }));
        });
      });
    });

  return {
    process: child,
    // The process is the session: nothing to carry on messages, nothing to end but the process.
    legacy: {
      reset: () => answering.abandonAll(new Error("a new session began")),
      begin: () => undefined,
      listen: async () => undefined,
      end: async () => answering.abandonAll(new Error("the session ended")),
      onServerRequest: (handler) => void (answerServer = handler),
      onNotification: (listener) => void (sessionListener = listener),
    },
    request(message, requestOptions: TransportRequestOptions = {}) {
      return new Promise<object>((resolve, reject) => {
        const key = JSON.stringify((message as { id: unknown }).id);
        const signal = requestOptions.signal;
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          pending.delete(key);
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        const settle = () => signal?.removeEventListener("abort", onAbort);
        pending.set(key, {
          resolve: (r) => (settle(), resolve(r)),
          reject: (e) => (settle(), reject(e)),
          onNotification: requestOptions.onNotification,
        });
        write(message).catch((error) => {
          pending.delete(key);
          reject(error);
        });
      });
    },
    notify: (message) => write(message),
    async close() {
      fail(new TransportError("closed", "the transport was closed"));
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
    },
  };
}

/** What serveStdio needs of a dispatcher. */
export interface TextHandler {
  handleText(
    text: string,
    context: {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any dispatcher's notification type
      notify: (notification: any) => void;
      channel?: object;
      signal?: AbortSignal;
    },
  ): Promise<unknown>;
  /** Ends the legacy session on `channel`, if the dispatcher keeps sessions (EraDispatcher). */
  endSession?(channel: object): void;
}

/**
 * Serves a dispatcher on stdio: each line is handled as it arrives (so cancellation can
 * overtake a slow request), replies and related notifications are written as lines. A line
 * over `maxLineBytes` is answered with a parse error-free silence: it is dropped and logged
 * to stderr, since its id cannot be known without reading it. When the output fails (the
 * client exited, so a write meets EPIPE), nothing can reach the client any more: the
 * requests in flight are aborted (their handlers' `signal`), later writes are dropped, and
 * the failure is one line on stderr rather than an uncaught 'error' event ending the process.
 */
export function serveStdio(
  dispatcher: TextHandler,
  streams: { input?: Readable; output?: Writable; maxLineBytes?: number } = {},
): { close(): void; done: Promise<void> } {
  const input = streams.input ?? process.stdin;
  const output = streams.output ?? process.stdout;
  const limit = streams.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const outputGone = new AbortController();
  output.on("error", (error: NodeJS.ErrnoException) => {
    if (outputGone.signal.aborted) return;
    outputGone.abort(error);
    process.stderr.write(
      `mcp: output closed (${error.code ?? error.message}): the client is gone; requests in flight are cancelled\n`,
    );
  });
  const write = (message: unknown) => {
    if (!outputGone.signal.aborted) output.write(`${JSON.stringify(message)}\n`);
  };
  // The process is one channel: the client's notifications/cancelled reach its requests.
  const channel = {};
  const inFlight = new Set<Promise<void>>();
  const onLine = (line: string) => {
    if (line.trim() === "") return;
    const task: Promise<void> = dispatcher
      .handleText(line, { notify: write, channel, signal: outputGone.signal })
      .then((reply) => {
        if (reply !== undefined) write(reply);
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };
  const onOversize = () =>
    process.stderr.write(`mcp: dropped an input line longer than ${limit} bytes\n`);
  const ended = readLines(input, limit, onLine, onOversize).then(() => {
    // The client can answer nothing more: what the server still awaits from it fails at once
    // (and is cancelled), instead of holding its request, and the process, until it times out.
    dispatcher.endSession?.(channel);
  });
  const done = ended.then(() => Promise.allSettled([...inFlight])).then(() => undefined);
  return { close: () => input.destroy(), done };
}
