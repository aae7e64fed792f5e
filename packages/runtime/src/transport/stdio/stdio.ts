import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { StdioCalls } from "./stdio-calls.js";
import { shutDown, watchServerProcess, writeLine } from "./stdio-process.js";
import { TransportError } from "../../core/transport-error.js";
import type { Transport, TransportRequestOptions } from "../../core/transport.js";

export { TransportError, type TransportErrorKind } from "../../core/transport-error.js";

// MCP over stdio (Node.js): newline-delimited JSON, one message per line. A client
// transport that spawns the server process, and a loop that serves a dispatcher. Lines are
// bounded (default 16 MiB): a longer one is dropped, never buffered without end. A server that
// cannot start or exits fails the calls in flight with a TransportError. The client's steps
// are in sibling files: stdio-calls.ts (the calls in flight and where each line the server
// writes goes) and stdio-process.ts (writing to the process, its exit, its shutdown).

const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

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

/** Spawns `command` and talks MCP to it over its stdin and stdout. */
export function createStdioTransport(
  options: StdioTransportOptions,
): Transport & { readonly process: ChildProcess } {
  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
  });
  let closed: Error | undefined;
  let onFailed: () => void = () => undefined;
  const failed = new Promise<void>((resolve) => (onFailed = resolve));
  const write = (message: unknown) => writeLine(child.stdin!, message, () => closed, failed);
  const calls = new StdioCalls(options, write);
  const fail = (error: Error) => {
    closed ??= error;
    calls.failAll(closed);
    onFailed();
  };
  const stdoutEnded = readLines(
    child.stdout!,
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    (line) => calls.receive(line),
    () => undefined,
  );
  watchServerProcess(child, options.command, stdoutEnded, () => calls.noise, fail);

  return {
    process: child,
    // The process is the session: nothing to carry on messages, nothing to end but the process.
    legacy: {
      reset: () => calls.answering.abandonAll(new Error("a new session began")),
      begin: () => undefined,
      listen: async () => undefined,
      end: async () => calls.answering.abandonAll(new Error("the session ended")),
      onServerRequest: (handler) => void (calls.handler = handler),
      onNotification: (listener) => void (calls.sessionListener = listener),
    },
    request(message, requestOptions: TransportRequestOptions = {}) {
      return calls.call(message, requestOptions);
    },
    notify: (message) => write(message),
    async close() {
      fail(new TransportError("closed", "the transport was closed"));
      await shutDown(child);
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
