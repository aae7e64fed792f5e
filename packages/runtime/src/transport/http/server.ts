import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ProtocolDescriptor } from "../../core/protocol.js";
import { createHttpCore } from "./core.js";
import type { CancellationWatch } from "../../core/cancellation.js";
import {
  eventText,
  markText,
  type BodyRead,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import type { HttpCoreOptions, MessageHandler } from "./options.js";

// The node:http host of the Streamable HTTP core (core.ts): a `(req, res)` listener for
// node:http, Express, Fastify (hijacked reply) and anything else built on node:http, and
// `serveHttp`, which starts a server. It reads req and writes res directly, so serving on
// Node costs no Request/Response conversion.

export type { CorsOptions, MessageHandler } from "./options.js";
export type { CancellationWatch } from "../../core/cancellation.js";
export type { MessageBus } from "../../server/message-bus.js";

/** The options of the node:http handler; `authenticate` gets the IncomingMessage. */
export type HttpHandlerOptions = HttpCoreOptions<IncomingMessage>;

/**
 * A node:http request listener. `parsedBody`: the body a framework already parsed (Fastify's
 * `request.body`); Express's `req.body` is found without it. A function there is Express's
 * `next`, and is ignored.
 */
export type NodeHttpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
) => Promise<void>;

/** A node:http request listener serving MCP at `options.path` (default /mcp). */
export function createHttpHandler(
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: HttpHandlerOptions = {},
): NodeHttpHandler {
  const core = createHttpCore(protocol, dispatcher, options);
  return (req, res, parsedBody) =>
    core(
      nodeExchange(req, res, typeof parsedBody === "function" ? undefined : parsedBody),
      nodeSink(res),
    );
}

/** Express's mount-stripped request: `originalUrl` keeps the full path. */
type FrameworkRequest = IncomingMessage & { originalUrl?: unknown; body?: unknown };

/** A path needing no normalisation (no dots, escapes or backslashes): taken as it is. */
const PLAIN_PATH = /^\/[\w\-/]*$/;

export function pathnameOf(url: string): string {
  const query = url.search(/[?#]/);
  const raw = query === -1 ? url : url.slice(0, query);
  return PLAIN_PATH.test(raw) ? raw : new URL(url, "http://localhost").pathname;
}

function nodeExchange(
  req: FrameworkRequest,
  res: ServerResponse,
  parsedBody: unknown,
): HttpExchange<IncomingMessage> {
  const url = typeof req.originalUrl === "string" ? req.originalUrl : (req.url ?? "/");
  return {
    native: req,
    method: req.method ?? "GET",
    pathname: pathnameOf(url),
    header(name) {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(",") : value;
    },
    body: (limit, cancellation) => nodeBody(req, parsedBody, limit, cancellation),
    onClose(listener) {
      const onClose = () => {
        if (!res.writableEnded) listener();
      };
      res.on("close", onClose);
      return () => res.off("close", onClose);
    },
    authView: () => req,
  };
}

/**
 * The body of a node:http request: read from the stream while nobody has; else what a
 * framework parsed (`parsedBody`, Express's `req.body`); else it is lost ("consumed").
 */
function nodeBody(
  req: FrameworkRequest,
  parsedBody: unknown,
  limit: number,
  cancellation: CancellationWatch,
): Promise<BodyRead> | BodyRead {
  const unread = !req.readableDidRead && !req.readableEnded && !req.destroyed;
  if (unread) return readStream(req, limit, cancellation);
  const parsed = parsedBody !== undefined ? parsedBody : req.body;
  if (parsed === undefined) return { kind: "consumed" };
  if (typeof parsed === "string") return { kind: "text", text: parsed };
  if (parsed instanceof Uint8Array)
    return { kind: "text", text: Buffer.from(parsed).toString("utf8") };
  return { kind: "parsed", value: parsed };
}

function readStream(
  req: IncomingMessage,
  limit: number,
  cancellation: CancellationWatch,
): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return resolve({ kind: "too-large" });
    const chunks: Buffer[] = [];
    let size = 0;
    let stopWatching = (): void => undefined;
    const finish = (read: BodyRead) => {
      req.off("data", onData).off("end", onEnd).off("error", onStop).off("close", onStop);
      stopWatching();
      // Drop what is left: the answer does not wait for it.
      if (read.kind !== "text") req.resume();
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ kind: "too-large" });
      else chunks.push(chunk);
    };
    const onEnd = () =>
      finish({
        kind: "text",
        text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8"),
      });
    const onStop = () => finish({ kind: "aborted" });
    if (cancellation.aborted) return onStop();
    req.on("data", onData).on("end", onEnd).on("error", onStop).on("close", onStop);
    stopWatching = cancellation.onAbort(onStop);
  });
}

function nodeSink(res: ServerResponse): ReplySink {
  return {
    send(status, headers, body) {
      if (res.headersSent) return void res.end();
      res.writeHead(status, headers).end(body);
    },
    openStream(headers) {
      if (!res.headersSent) res.writeHead(200, { ...headers, connection: "keep-alive" });
      return {
        event: (message, id) => res.write(eventText(message, id)),
        mark: (fields) => void res.write(markText(fields)),
        comment: (text) => void res.write(`: ${text}\n\n`),
        end: () => void res.end(),
      };
    },
  };
}

export interface ServeHttpOptions extends HttpHandlerOptions {
  /** Default 0: any free port (see the returned url). */
  port?: number;
  /** Default 127.0.0.1: a local server is not reachable from the network unless asked. */
  host?: string;
}

/** Starts an HTTP server for `dispatcher`; resolves once it listens. */
export async function serveHttp(
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: ServeHttpOptions = {},
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const handler = createHttpHandler(protocol, dispatcher, options);
  // Loaded here, not at the top: the module then loads where node:http is missing (a Worker
  // importing the generated http-server.ts for its fetch handler).
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => void handler(req, res));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    url: `http://${shownHost}:${port}${options.path ?? "/mcp"}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
