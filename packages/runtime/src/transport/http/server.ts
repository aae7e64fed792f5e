import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { JSONRPC_ERRORS } from "../../core/errors.js";
import { carriesModernMeta, isObject, type ProtocolDescriptor } from "../../core/protocol.js";
import { raisedByHandler } from "../../server/handler-marks.js";
import { checkRoutingHeaders, isLocalHost, isLocalOrigin } from "./headers.js";
import { toolHeaderCheck } from "./tool-header-check.js";
import { legacySessions } from "./legacy.js";
import type { HttpHandlerOptions, MessageHandler } from "./options.js";
import { errorBody, openEventStream, readMessage, send, writeEvent } from "./wire.js";
import { AuthChallenge, createResourceServer } from "../../auth/resource-server.js";

// The server side of Streamable HTTP (Node.js, node:http): one endpoint; a request gets a
// JSON body, or an SSE stream when the handler sends related messages before its answer.
// Modern (2026-07-28) requests are stateless: any number of instances can serve them behind
// a plain load balancer. A dual-era dispatcher also serves legacy clients: `initialize`
// opens a session (Mcp-Session-Id), whose later POSTs and DELETE name it.

export type { HttpHandlerOptions, MessageHandler } from "./options.js";

const TIMED_OUT = Symbol("timed out");
const INITIALIZE = "initialize";

const allow = (
  rule: string[] | ((value: string) => boolean) | undefined,
  value: string,
  fallback: (value: string) => boolean,
  alt?: string,
) =>
  typeof rule === "function"
    ? rule(value)
    : rule
      ? rule.includes(value) || (alt !== undefined && rule.includes(alt))
      : fallback(value);

/** A node:http request listener serving MCP at `options.path`. */
export function createHttpHandler(
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: HttpHandlerOptions = {},
) {
  const path = options.path ?? "/mcp";
  if (options.auth && options.authenticate) throw new Error("pass either auth or authenticate");
  const auth = options.auth && createResourceServer(options.auth, path);
  const authenticate = auth?.authenticate ?? options.authenticate;
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const checkToolHeaders = toolHeaderCheck(protocol, dispatcher);
  // Extension requests acting on a named thing carry it in Mcp-Name too (ext-tasks tasks.md,
  // "Streamable HTTP: Routing Headers": the taskId of tasks/get, tasks/update, tasks/cancel).
  const routing = dispatcher.nameParams
    ? {
        ...protocol,
        http: {
          ...protocol.http,
          nameParams: { ...dispatcher.nameParams, ...protocol.http.nameParams },
        },
      }
    : protocol;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  // The revision's own 400 codes (unsupported version, missing client capability, header
  // mismatch) wherever they come from; JSON-RPC's malformed-request codes only when the
  // router raised them (a handler's -32602 is answered in the body, see raisedByHandler).
  const badRequest = new Set<number>(protocol.http.badRequestCodes);
  const malformed = new Set<number>([
    JSONRPC_ERRORS.PARSE_ERROR,
    JSONRPC_ERRORS.INVALID_REQUEST,
    JSONRPC_ERRORS.INVALID_PARAMS,
  ]);
  const legacy = legacySessions({
    dispatcher,
    options,
    limit,
    auth,
    principalOf,
    refuse,
    answer,
    statusOf,
  });

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname !== path) {
        if (auth?.serveMetadata(url.pathname, req, res)) return;
        return send(res, 404, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Not found"));
      }
      const host = req.headers.host;
      if (
        host === undefined ||
        !allow(options.allowedHosts, host, isLocalHost, host.replace(/:\d+$/, ""))
      ) {
        return send(res, 403, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Host not allowed"));
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !allow(options.allowedOrigins, origin, isLocalOrigin)) {
        return send(res, 403, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Origin not allowed"));
      }
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId === "string") return await legacy.serve(req, res, sessionId);
      if (req.method !== "POST") {
        const error = errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Method not allowed: use POST");
        return send(res, 405, error, { allow: "POST" });
      }
      const who = await principalOf(req, res);
      if (!who) return;
      const { principal } = who;
      const message = await readMessage(req, res, limit);
      if (!message) return;
      const refusal = auth?.authorize(req, message);
      if (refusal) return refuse(res, refusal, message["id"]);
      if (
        message["method"] === INITIALIZE &&
        message["id"] !== undefined &&
        !carriesModernMeta(protocol, message)
      ) {
        return await legacy.initialize(res, message, principal);
      }
      if (typeof message["method"] !== "string") {
        const error = errorBody(
          JSONRPC_ERRORS.INVALID_REQUEST,
          "Invalid request: expected a request or notification",
        );
        return send(res, 400, error);
      }
      const mismatch = protocol.errorCodes.headerMismatch;
      if (mismatch !== null) {
        // Repeated headers count as one value, joined as HTTP joins them.
        const header = (name: string) => {
          const value = req.headers[name.toLowerCase()];
          return Array.isArray(value) ? value.join(",") : value;
        };
        const problem =
          checkRoutingHeaders(routing, header, message) ??
          (await checkToolHeaders(message, principal, header));
        if (problem) {
          return send(res, 400, errorBody(mismatch, `Header mismatch: ${problem}`, message["id"]));
        }
      }
      // Each POST is its own channel: a notification in another POST cancels nothing here.
      const channel = {};
      if (message["id"] === undefined) {
        await dispatcher.handle(message, {
          channel,
          ...(principal === undefined ? {} : { principal }),
        });
        return send(res, 202);
      }
      await answer(res, message, principal, channel, false);
    } catch {
      send(res, 500, errorBody(JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error"));
    }
  };

  /** The request's principal (`authenticate`), or false after answering 401. */
  async function principalOf(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ principal: string | undefined } | false> {
    try {
      return { principal: await authenticate?.(req) };
    } catch (error) {
      refuse(res, error);
      return false;
    }
  }

  /** Answers a refused request: an AuthChallenge with its status and challenge, else 401. */
  function refuse(res: ServerResponse, error: unknown, id?: unknown) {
    const challenge = error instanceof AuthChallenge ? error : undefined;
    const body = errorBody(
      JSONRPC_ERRORS.INVALID_REQUEST,
      challenge?.message ?? "Unauthorized",
      id,
    );
    send(res, challenge?.status ?? 401, body, challenge?.headers);
  }

  function statusOf(reply: unknown): number {
    const error = isObject(reply) ? reply["error"] : undefined;
    const code = isObject(error) ? error["code"] : undefined;
    if (typeof code !== "number") return 200;
    if (code === JSONRPC_ERRORS.METHOD_NOT_FOUND) return 404;
    if (badRequest.has(code)) return 400;
    return malformed.has(code) && !raisedByHandler(reply) ? 400 : 200;
  }

  /**
   * Runs one request: JSON if it answers before notifying, SSE otherwise. `inBand` (legacy
   * sessions): errors are sent with 200 too, never mapped to an HTTP status.
   */
  async function answer(
    res: ServerResponse,
    message: Record<string, unknown>,
    principal: string | undefined,
    channel: object,
    inBand: boolean,
  ): Promise<void> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The reply does not wait for a handler that ignores its signal.
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error("request timed out"));
        resolve(TIMED_OUT);
      }, timeoutMs);
    });
    // Closing the response stream is the cancellation on Streamable HTTP.
    const onClose = () => {
      if (!res.writableEnded) controller.abort(new Error("client went away"));
    };
    res.on("close", onClose);
    let streaming = false;
    const event = (payload: unknown) => writeEvent(res, payload);
    const notify = (notification: unknown) => {
      if (res.writableEnded || controller.signal.aborted) return;
      if (!streaming) {
        streaming = true;
        openEventStream(res);
      }
      event(notification);
    };
    try {
      const handled = dispatcher.handle(message, {
        notify,
        signal: controller.signal,
        channel,
        ...(principal === undefined ? {} : { principal }),
      });
      const reply = await Promise.race([handled, timedOut]);
      if (reply === TIMED_OUT) {
        const timeout = errorBody(
          JSONRPC_ERRORS.INTERNAL_ERROR,
          "Request timed out",
          message["id"],
        );
        if (streaming) return void (event(timeout), res.end());
        return send(res, inBand ? 200 : 504, timeout);
      }
      if (!isObject(reply)) return void res.end();
      if (streaming) return void (event(reply), res.end());
      send(res, inBand ? 200 : statusOf(reply), reply);
    } finally {
      clearTimeout(timer);
      res.off("close", onClose);
    }
  }
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
