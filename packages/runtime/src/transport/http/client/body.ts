import { describeCause, TransportError } from "../../../core/transport-error.js";

// What the HTTP client transport reads and how it fails: bounded bodies, the errors of an
// answer that is not MCP (HttpTransportError) and of a connection that broke (TransportError).

/** Which HTTP request got the answer: its method and the endpoint (shown without secrets). */
export interface HttpRequestLabel {
  httpMethod: string;
  url: string | URL;
}

/**
 * The server answered with something that is not MCP. `body` is what the server sent (undefined
 * when the client did not keep it: too large, or a stream); what the client found wrong is in
 * the message, which also names the request: `HTTP 500 from POST https://host/mcp: ...`.
 */
export class HttpTransportError extends Error {
  readonly status: number;
  readonly body: string | undefined;
  /** The request's HTTP method, when known. */
  readonly httpMethod: string | undefined;
  /** The endpoint, without user:password@, query or fragment (these may carry credentials). */
  readonly url: string | undefined;
  constructor(
    status: number,
    body: string | undefined,
    context: Partial<HttpRequestLabel> & { description?: string } = {},
  ) {
    const url = context.url === undefined ? undefined : shownUrl(context.url);
    const request = [context.httpMethod, url].filter((part) => part !== undefined).join(" ");
    const said = [
      context.description,
      body === undefined ? undefined : body === "" ? "(empty body)" : body.slice(0, 200),
    ].filter((part) => part !== undefined);
    super(
      `HTTP ${status}${request ? ` from ${request}` : ""}${said.map((p) => `: ${p}`).join("")}`,
    );
    this.name = "HttpTransportError";
    this.status = status;
    this.body = body;
    this.httpMethod = context.httpMethod;
    this.url = url;
  }
}

/**
 * An endpoint as an error may show it: userinfo, query and fragment dropped, since a URL may
 * carry a password (user:pass@) or a token (?access_token=, #token=). Origin and path stay.
 */
export function shownUrl(url: string | URL): string {
  try {
    const shown = new URL(String(url));
    shown.username = "";
    shown.password = "";
    shown.search = "";
    shown.hash = "";
    return shown.href;
  } catch {
    // Not absolute (a relative URL in a browser): it has no userinfo; drop what follows ? or #.
    return String(url).split(/[?#]/)[0]!;
  }
}

/** Reads a body as text, refusing (and cancelling) one larger than `limit` bytes. */
export async function boundedText(
  response: Response,
  limit: number,
  request: HttpRequestLabel,
): Promise<string> {
  const tooLarge = () =>
    new HttpTransportError(response.status, undefined, {
      ...request,
      description: `response body larger than ${limit} bytes`,
    });
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw tooLarge();
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
      throw tooLarge();
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
