import { describeCause, TransportError } from "./transport-error.js";

// What the HTTP client transport reads and how it fails: bounded bodies, the errors of an
// answer that is not MCP (HttpTransportError) and of a connection that broke (TransportError).

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
export async function boundedText(response: Response, limit: number): Promise<string> {
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
    const { value, done } = await reader.read().catch((error: unknown) => {
      if (error instanceof TypeError) throw dropped(error);
      throw error;
    });
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new HttpTransportError(response.status, `response body larger than ${limit} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** The connection broke while a response was awaited. */
export function dropped(cause: unknown): TransportError {
  const message = `the connection dropped before the response: ${describeCause(cause)}`;
  return new TransportError("dropped", message, { cause });
}

/** Waits `ms`, or rejects when `signal` aborts first. */
export function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => (clearTimeout(timer), reject(signal!.reason));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
