import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { channelClient, serveChannel, type TextHandler } from "../channel.js";
import { shutDown, watchServerProcess, writeLine } from "./stdio-process.js";
import { TransportError } from "../../core/transport-error.js";
import type { Transport } from "../../core/transport.js";

export { TransportError, type TransportErrorKind } from "../../core/transport-error.js";
export type { TextHandler } from "../channel.js";

// MCP over stdio (Node.js): newline-delimited JSON, one message per line. A client
// transport that spawns the server process, and a loop that serves a dispatcher. Lines are
// bounded (default 16 MiB): a longer one is dropped, never buffered without end. A server that
// cannot start or exits fails the calls in flight with a TransportError. A channel transport
// (../channel.ts): the calls in flight, the session and the serve loop are the channel's;
// stdio-process.ts has writing to the process, its exit, its shutdown.

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
  const client = channelClient({ send: write, close: () => shutDown(child) }, options);
  const fail = (error: Error) => {
    closed ??= error;
    client.fail(closed);
    onFailed();
  };
  const stdoutEnded = readLines(
    child.stdout!,
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    (line) => client.receive(line),
    () => undefined,
  );
  watchServerProcess(child, options.command, stdoutEnded, () => client.noise, fail);
  const { transport } = client;
  return {
    ...transport,
    process: child,
    async close() {
      fail(new TransportError("closed", "the transport was closed"));
      await transport.close!();
    },
  };
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
  const server = serveChannel(dispatcher, { send: write, gone: outputGone.signal });
  const onOversize = () =>
    process.stderr.write(`mcp: dropped an input line longer than ${limit} bytes\n`);
  // The client can answer nothing more once its input ends (the channel's end).
  const done = readLines(input, limit, (line) => server.receive(line), onOversize).then(() =>
    server.end(),
  );
  return { close: () => input.destroy(), done };
}
