import { JSONRPC_ERRORS } from "../../../core/errors.js";
import { isObject } from "../../../core/protocol.js";
import type { CancellationWatch } from "../../../core/cancellation.js";
import {
  errorBody,
  sendJson,
  type BodyRead,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";

// A POST's JSON-RPC message: JSON by Content-Type, at most `limit` bytes, one object. The
// body comes from the host (read from the stream, or parsed already by a framework).

/** `application/json`, with parameters or not, and nothing else (`application/jsonfoo` is not JSON). */
const isJsonType = (type: string) =>
  type === "application/json" || /^application\/json\s*(;|$)/i.test(type);

/** Why a POST's message could not be read, answered once the host is told (see core.ts). */
export const BODY_CONSUMED =
  "the request body was read before the MCP handler got it, and no parsed body was passed (mount the handler before body parsers, or pass the parsed body: see the deployment guide)";

/**
 * Reads the message of a POST, or answers the error and returns undefined. `onConsumed`
 * reports a body some middleware read without leaving it parsed (a server bug, not the
 * client's): 500 at once, never a wait for bytes that will not come.
 */
export function readMessage(
  exchange: HttpExchange,
  sink: ReplySink,
  limit: number,
  cancellation: CancellationWatch,
  onConsumed: () => void,
): MessageRead | Promise<MessageRead> {
  if (!isJsonType(exchange.header("content-type") ?? "")) {
    const error = errorBody(
      JSONRPC_ERRORS.INVALID_REQUEST,
      "Content-Type must be application/json",
    );
    return void sendJson(sink, 415, error);
  }
  const body = exchange.body(limit, cancellation);
  // A body the host holds already is parsed at once: no promise, no turn of the event loop.
  return body instanceof Promise
    ? body.then((read) => messageOf(read, sink, limit, onConsumed))
    : messageOf(body, sink, limit, onConsumed);
}

/** A POST's message, or undefined once the error was answered. */
type MessageRead = Record<string, unknown> | undefined;

/** The message of a body read, or undefined after answering why there is none. */
function messageOf(
  body: BodyRead,
  sink: ReplySink,
  limit: number,
  onConsumed: () => void,
): MessageRead {
  let message: unknown;
  switch (body.kind) {
    case "aborted":
      // The request timed out before its body came (or the client left: then nobody reads this).
      return void sendJson(
        sink,
        408,
        errorBody(JSONRPC_ERRORS.INVALID_REQUEST, "Request timed out while reading the body"),
        { connection: "close" },
      );
    case "consumed":
      onConsumed();
      return void sendJson(
        sink,
        500,
        errorBody(JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error: the request body was lost"),
      );
    case "too-large":
      return void sendJson(
        sink,
        413,
        errorBody(JSONRPC_ERRORS.INVALID_REQUEST, `Request body larger than ${limit} bytes`),
        { connection: "close" },
      );
    case "parsed":
      message = body.value;
      break;
    case "text":
      try {
        message = JSON.parse(body.text);
      } catch {
        return void sendJson(sink, 400, errorBody(JSONRPC_ERRORS.PARSE_ERROR, "Parse error"));
      }
  }
  if (!isObject(message)) {
    const error = errorBody(
      JSONRPC_ERRORS.INVALID_REQUEST,
      "Invalid request: one JSON-RPC message per POST",
    );
    return void sendJson(sink, 400, error);
  }
  return message;
}
