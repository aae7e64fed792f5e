// The one error of every transport for "the connection to the server failed or closed",
// as opposed to an answer from the server (HttpTransportError, McpError): a caller can retry,
// reconnect or report it without matching on TypeError messages of fetch or child_process.

/**
 * - `unreachable`: the server could not be reached or started (connection refused, DNS, spawn
 *   ENOENT);
 * - `dropped`: the connection broke while a response was awaited (socket reset, the stream
 *   ended in an error and could not be resumed);
 * - `exited`: the server process exited (stdio);
 * - `closed`: this client closed the transport, or ended the session, before the response.
 */
export type TransportErrorKind = "unreachable" | "dropped" | "exited" | "closed";

export class TransportError extends Error {
  readonly kind: TransportErrorKind;
  /** stdio: the last lines the server wrote to stderr, when the transport captured it. */
  readonly stderr: string | undefined;
  constructor(
    kind: TransportErrorKind,
    message: string,
    options: { cause?: unknown; stderr?: string } = {},
  ) {
    const detail = options.stderr ? `\n--- server stderr (last lines) ---\n${options.stderr}` : "";
    super(message + detail, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "TransportError";
    this.kind = kind;
    this.stderr = options.stderr;
  }
}

/** What a low-level error says, with its code when it has one (`fetch failed (ECONNREFUSED)`). */
export function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = (error as { cause?: unknown }).cause;
  const code =
    (error as { code?: unknown }).code ??
    (inner instanceof Error ? ((inner as { code?: unknown }).code ?? inner.message) : undefined);
  return typeof code === "string" && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message;
}

/** The server no longer knows the legacy session (HTTP 404 to a request carrying its id). */
export class SessionExpiredError extends Error {
  constructor() {
    super("the server ended the session (HTTP 404)");
    this.name = "SessionExpiredError";
  }
}
