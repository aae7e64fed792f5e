import type { IncomingMessage, ServerResponse } from "node:http";
import { JSONRPC_ERRORS } from "../../core/errors.js";
import { isObject } from "../../core/protocol.js";

// What the HTTP server writes and reads on the wire, for both eras: JSON answers, JSON-RPC
// error bodies, bounded request bodies, and Server-Sent Events.

export function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.end();
  if (body === undefined) return void res.writeHead(status, headers).end();
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify(body));
}

/** A JSON-RPC error response; without a usable id, the id is left out. */
export function errorBody(code: number, message: string, id?: unknown, data?: unknown) {
  const error = data === undefined ? { code, message } : { code, message, data };
  return typeof id === "string" || typeof id === "number"
    ? { jsonrpc: "2.0", id, error }
    : { jsonrpc: "2.0", error };
}

/** Starts an SSE response (the caller writes events with `writeEvent`). */
export function openEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

export function writeEvent(res: ServerResponse, message: unknown): boolean {
  return res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function readBody(req: IncomingMessage, limit: number): Promise<string | "too-large"> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return resolve("too-large");
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        resolve("too-large");
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** `application/json`, with parameters or not, and nothing else (`application/jsonfoo` is not JSON). */
const isJsonType = (type: string) => /^application\/json\s*(;|$)/i.test(type);

/**
 * Checks and reads a POST's JSON-RPC message (JSON, at most `limit` bytes, one object), or
 * answers the error and returns undefined.
 */
export async function readMessage(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
): Promise<Record<string, unknown> | undefined> {
  if (!isJsonType(req.headers["content-type"] ?? "")) {
    const error = errorBody(
      JSONRPC_ERRORS.INVALID_REQUEST,
      "Content-Type must be application/json",
    );
    return void send(res, 415, error);
  }
  const body = await readBody(req, limit);
  if (body === "too-large") {
    const error = errorBody(
      JSONRPC_ERRORS.INVALID_REQUEST,
      `Request body larger than ${limit} bytes`,
    );
    return void send(res, 413, error);
  }
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return void send(res, 400, errorBody(JSONRPC_ERRORS.PARSE_ERROR, "Parse error"));
  }
  if (!isObject(message)) {
    const error = errorBody(
      JSONRPC_ERRORS.INVALID_REQUEST,
      "Invalid request: one JSON-RPC message per POST",
    );
    return void send(res, 400, error);
  }
  return message;
}
