import { routingHeaders } from "./http-headers.js";
import { isObject, type ProtocolDescriptor } from "./protocol.js";
import { readSseMessages, SseLimitError } from "./sse.js";
import type { Transport, TransportRequestOptions } from "./transport.js";

// The client side of Streamable HTTP: every message is its own POST to one endpoint; a
// request's reply is a JSON body, or an SSE stream of related notifications that ends
// with the response. Uses fetch, so it runs in Node.js, browsers and edge runtimes.

export interface HttpTransportOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** Extra headers on every request (authorization, ...). */
  headers?: Record<string, string>;
  /** A fetch implementation (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Largest JSON response body, and largest single SSE event, in bytes (default 16 MiB). */
  maxMessageBytes?: number;
}

/** The server answered with something that is not MCP. */
export class HttpTransportError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string) {
    super(`HTTP ${status}: ${body.slice(0, 200)}`);
    this.name = "HttpTransportError";
    this.status = status;
    this.body = body;
  }
}

/** Reads a body as text, refusing (and cancelling) one larger than `limit` bytes. */
async function boundedText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new HttpTransportError(response.status, `response body larger than ${limit} bytes`);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new HttpTransportError(response.status, `response body larger than ${limit} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

export function createHttpTransport(
  protocol: ProtocolDescriptor,
  options: HttpTransportOptions,
): Transport {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const limit = options.maxMessageBytes ?? 16 * 1024 * 1024;

  async function post(
    message: { method: string; params?: unknown },
    signal: AbortSignal | undefined,
    extra?: Record<string, string>,
  ): Promise<Response> {
    return fetchImpl(options.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...routingHeaders(protocol, message),
        ...extra,
        ...options.headers,
      },
      body: JSON.stringify(message),
      ...(signal ? { signal } : {}),
    });
  }

  return {
    async request(message, requestOptions: TransportRequestOptions = {}) {
      const response = await post(
        message as { method: string },
        requestOptions.signal,
        requestOptions.headers,
      );
      const type = response.headers.get("content-type") ?? "";
      const id = (message as { id?: unknown }).id;
      if (type.includes("text/event-stream") && response.body) {
        try {
          for await (const event of readSseMessages(response.body, limit)) {
            if (!isObject(event)) continue;
            if (("result" in event || "error" in event) && event["id"] === id) return event;
            if (typeof event["method"] === "string" && event["id"] === undefined)
              requestOptions.onNotification?.(event);
          }
        } catch (error) {
          if (error instanceof SseLimitError)
            throw new HttpTransportError(response.status, error.message);
          throw error;
        }
        throw new HttpTransportError(response.status, "the event stream ended without a response");
      }
      const body = await boundedText(response, limit);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new HttpTransportError(response.status, body);
      }
      // A JSON-RPC error comes with a 4xx status (header mismatch, unsupported version...): still MCP.
      if (isObject(parsed) && ("result" in parsed || "error" in parsed)) return parsed;
      throw new HttpTransportError(response.status, body);
    },
    async notify(message) {
      const response = await post(message as { method: string }, undefined);
      if (!response.ok)
        throw new HttpTransportError(response.status, await boundedText(response, 64 * 1024));
      await response.body?.cancel();
    },
  };
}
