import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ProtocolDescriptor } from "../../../core/protocol.js";
import { createHttpCore } from "./core.js";
import type { CancellationWatch } from "../../../core/cancellation.js";
import {
  eventText,
  markText,
  type BodyRead,
  type EventStream,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import type { HttpCoreOptions, MessageHandler } from "./options.js";
import { DEFAULT_DRAIN_TIMEOUT_MS, Drain, drainTimeout } from "./drain.js";
import type { DefaultStores } from "./store-defaults.js";

// The node:http host of the Streamable HTTP core (core.ts): a `(req, res)` listener for
// node:http, Express, Fastify (hijacked reply) and anything else built on node:http, and
// `serveHttp`, which starts a server. It reads req and writes res directly, so serving on
// Node costs no Request/Response conversion. Its public face, with the default stores
// wired, is server.ts (`@mcp-gen/runtime/node/http`).

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

/** createHttpHandler (server.ts), with the stores used when `options` give none. */
export function nodeHttpHandler(
  defaults: DefaultStores,
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: HttpHandlerOptions,
): NodeHttpHandler {
  return nodeHandler(createHttpCore(protocol, dispatcher, options, defaults), undefined);
}

/** The handler over `core`; with `drain`, it takes part in serveHttp's close(). */
function nodeHandler(core: ReturnType<typeof createHttpCore>, drain: Drain | undefined) {
  return (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    if (drain && !drain.admit(req.method, res)) return Promise.resolve();
    const parsed = typeof parsedBody === "function" ? undefined : parsedBody;
    const handled = core(nodeExchange(req, res, parsed, drain), new NodeSink(res));
    drain?.handling(req.method, handled);
    return handled;
  };
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
  drain: Drain | undefined,
): HttpExchange<IncomingMessage> {
  const url = typeof req.originalUrl === "string" ? req.originalUrl : (req.url ?? "/");
  const method = req.method ?? "GET";
  return {
    native: req,
    method,
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
      // The server shutting down ends a GET stream as if its client went away (only a GET
      // has a stream the drain ends).
      const stopDrain = method === "GET" ? drain?.onStreamEnd(res, listener) : undefined;
      return () => (res.off("close", onClose), stopDrain?.());
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
): Promise<BodyRead> | BodyRead {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return { kind: "too-large" };
  // The parser had the whole message (a small POST comes in the request's first packet): its
  // body sits in the stream's buffer, taken at once, without listeners or a promise.
  if (req.complete && !cancellation.aborted) return readBuffered(req, limit);
  return new Promise((resolve) => {
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

/** The body of a request the parser has read whole (`req.complete`): in the stream's buffer. */
function readBuffered(req: IncomingMessage, limit: number): BodyRead {
  const chunks: Buffer[] = [];
  let size = 0;
  for (
    let chunk = req.read() as Buffer | null;
    chunk !== null;
    chunk = req.read() as Buffer | null
  ) {
    size += chunk.length;
    if (size > limit) {
      // Drop what is left: the answer does not wait for it.
      req.resume();
      return { kind: "too-large" };
    }
    chunks.push(chunk);
  }
  const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return { kind: "text", text: body.toString("utf8") };
}

/** The answers of one node:http request: a class, so a request makes one object, not a closure per method. */
class NodeSink implements ReplySink {
  constructor(private readonly res: ServerResponse) {}

  send(status: number, headers: Record<string, string>, body?: string): void {
    const { res } = this;
    if (res.headersSent) return void res.end();
    // A declared length lets node:http write head and body in one write, where chunked
    // encoding costs three more pieces per response (a writev and a longer parse for the client).
    const sized =
      body === undefined || headers["content-length"] !== undefined
        ? headers
        : { ...headers, "content-length": String(Buffer.byteLength(body)) };
    res.writeHead(status, sized).end(body);
  }

  openStream(headers: Record<string, string>): EventStream {
    const { res } = this;
    if (!res.headersSent) res.writeHead(200, { ...headers, connection: "keep-alive" });
    // Nothing is written once the response ended (the server's close() may end a stream
    // its writer still holds): a write after the end would be an 'error' event.
    const write = (text: string) => !res.writableEnded && res.write(text);
    return {
      event: (message, id) => write(eventText(message, id)),
      mark: (fields) => void write(markText(fields)),
      comment: (text) => void write(`: ${text}\n\n`),
      end: () => void res.end(),
    };
  }
}

export interface ServeHttpOptions extends HttpHandlerOptions {
  /** Default 0: any free port (see the returned url). */
  port?: number;
  /** Default 127.0.0.1: a local server is not reachable from the network unless asked. */
  host?: string;
  /**
   * How long `close()` lets the calls in flight finish before it closes their connections
   * (default 10,000 ms; 0: at once). `close({ timeoutMs })` overrides it for one close.
   */
  drainTimeoutMs?: number;
}

/** What serveHttp resolves to: the server, its URL, and the drain that stops it. */
export interface ServedHttp {
  server: Server;
  url: string;
  /**
   * Shuts the server down without resetting calls: stops taking connections and requests
   * (a request that still arrives gets 503, a JSON-RPC error and Connection: close), ends
   * the legacy sessions' GET streams (resumable clients resume them elsewhere with
   * Last-Event-ID), lets the calls in flight finish within `timeoutMs` (default: the
   * `drainTimeoutMs` option), then closes every connection left. Resolves once closed.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** serveHttp (server.ts), with the stores used when `options` give none. */
export async function serveNodeHttp(
  defaults: DefaultStores,
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: ServeHttpOptions,
): Promise<ServedHttp> {
  const drainMs = drainTimeout(options.drainTimeoutMs, "drainTimeoutMs", DEFAULT_DRAIN_TIMEOUT_MS);
  const drain = new Drain();
  const handler = nodeHandler(createHttpCore(protocol, dispatcher, options, defaults), drain);
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
    close: (closeOptions = {}) =>
      drain.close(server, drainTimeout(closeOptions.timeoutMs, "close's timeoutMs", drainMs)),
  };
}
