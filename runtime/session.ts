import { JSONRPC_ERRORS, McpError } from "./errors.js";
import { isObject, type MessageValidators, type ProtocolDescriptor } from "./protocol.js";

// A legacy (initialize-based) session: what the client said at `initialize`, what it set
// since (log level, subscriptions), and the requests the server sent it and awaits. The
// 2025-xx revisions keep this state per stdio process or per HTTP session
// (2025-11-25 basic/lifecycle, basic/transports "Session Management").

/** One revision the server speaks, as the runtime sees it. */
export interface Era {
  readonly protocol: ProtocolDescriptor;
  readonly validators: MessageValidators;
}

/**
 * An older revision, with what differs from the newest one the handlers are written
 * against (derived from the two revisions' models at generation).
 */
export interface AdaptedEra extends Era {
  /** Per method: result fields the handlers' revision has and this one does not (dropped on the way out). */
  readonly adapters: {
    readonly [method: string]: { readonly dropResultFields: readonly string[] };
  };
}

/** A legacy (initialize-based) revision. */
export type LegacyEra = AdaptedEra;

export interface SessionOptions {
  /** How long the server waits for the client's answer to a request it sent (default 5 minutes). */
  clientRequestTimeoutMs?: number;
}

let sessionRequestCounter = 0;

export class LegacySession {
  readonly era: LegacyEra;
  /** The protocol version negotiated at initialize. */
  readonly version: string;
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo: Record<string, unknown> | undefined;
  /** Set by logging/setLevel. */
  logLevel: string | undefined = undefined;
  /** Set by notifications/initialized. */
  initialized = false;
  /** Resource URIs the client subscribed to (resources/subscribe). */
  readonly subscriptions = new Set<string>();
  /**
   * Where messages not tied to a request go (list changes, resource updates): stdout for a
   * stdio session, the standalone GET stream for an HTTP one while it is open.
   */
  stream: ((message: object) => unknown) | undefined = undefined;
  private readonly pending = new Map<
    string,
    { resolve: (result: unknown) => void; reject: (error: unknown) => void }
  >();
  private readonly timeoutMs: number;

  constructor(
    era: LegacyEra,
    version: string,
    params: Record<string, unknown>,
    options: SessionOptions = {},
  ) {
    this.era = era;
    this.version = version;
    this.clientCapabilities = isObject(params["capabilities"]) ? params["capabilities"] : {};
    this.clientInfo = isObject(params["clientInfo"]) ? params["clientInfo"] : undefined;
    this.timeoutMs = options.clientRequestTimeoutMs ?? 300_000;
  }

  /**
   * Sends a request to the client with `send` (the stream of the request being served, or
   * the process's stdout) and resolves with the client's result, validated at this session's
   * revision. An error answer, a timeout or an abort rejects.
   */
  async request(
    method: string,
    params: unknown,
    send: (message: object) => unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const id = `mcp-gen-${++sessionRequestCounter}`;
    const answer = new Promise<unknown>((resolve, reject) =>
      this.pending.set(id, { resolve, reject }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => this.settle(id, undefined, signal?.reason ?? new Error("aborted"));
    try {
      timer = setTimeout(
        () =>
          this.settle(
            id,
            undefined,
            new McpError(
              JSONRPC_ERRORS.INTERNAL_ERROR,
              `the client did not answer ${method} in time`,
            ),
          ),
        this.timeoutMs,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      await send({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });
      const result = await answer;
      const checked = this.era.validators.validateMethodResult(method, result);
      if (!checked.ok)
        throw new McpError(
          JSONRPC_ERRORS.INTERNAL_ERROR,
          `the client's ${method} result is invalid`,
          { errors: checked.errors },
        );
      return checked.value;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      this.pending.delete(id);
    }
  }

  /** Routes the client's response to the request waiting for it; false when none is. */
  resolve(message: Record<string, unknown>): boolean {
    const id = message["id"];
    if (typeof id !== "string" || !this.pending.has(id)) return false;
    const error = message["error"];
    if (isObject(error)) {
      this.settle(
        id,
        undefined,
        new McpError(Number(error["code"]), String(error["message"] ?? "error"), error["data"]),
      );
    } else {
      this.settle(id, message["result"]);
    }
    return true;
  }

  /** Fails every request still waiting for the client (the session ended). */
  close(reason = "the session ended"): void {
    for (const id of [...this.pending.keys()])
      this.settle(id, undefined, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, reason));
  }

  private settle(id: string, result: unknown, error?: unknown): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (error !== undefined) waiter.reject(error);
    else waiter.resolve(result);
  }
}
