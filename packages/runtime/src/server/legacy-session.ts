import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { checkInputAnswer } from "../core/elicitation-content.js";
import { isObject } from "../core/protocol.js";
import { cancellationOf, type CancellationWatch } from "../core/cancellation.js";
import type { LegacyEra } from "../core/era.js";
import { timeoutOption } from "../core/options.js";
import { subscriptionLimits } from "./subscription-limits.js";
import { newRequestId } from "./request-origin.js";
import { backChannelError } from "./back-channel.js";

// A legacy (initialize-based) session: what the client said at `initialize`, what it set
// since (log level, subscriptions), and the requests the server sent it and awaits. The
// 2025-xx revisions keep this state per stdio process or per HTTP session
// (2025-11-25 basic/lifecycle, basic/transports "Session Management").

/**
 * A legacy session as data (JSON): what the client said at `initialize` and set since.
 * Enough for any instance to serve the session (see `LegacySession.fromState`); the live
 * parts (streams, requests awaiting the client) stay with the instance that holds them.
 */
export interface LegacySessionState {
  /** The protocol version negotiated at initialize. */
  version: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  /** Set by logging/setLevel. */
  logLevel?: string;
  /** Set by notifications/initialized. */
  initialized: boolean;
  /** Resource URIs the client subscribed to (resources/subscribe). */
  subscriptions: string[];
}

/** How long a session waits for the client's answer by default: 5 minutes. */
const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 300_000;

export interface SessionOptions {
  /**
   * How long the server waits for the client's answer to a request it sent, in ms (default
   * 5 minutes): a positive integer, at most 2147483647 (checked: TypeError).
   */
  clientRequestTimeoutMs?: number;
  /**
   * Most resources one session subscribes to at once (resources/subscribe; default 100): one
   * more is refused with -32602 until it unsubscribes from another.
   */
  maxSubscriptionsPerSession?: number;
  /** Longest URI, in characters, a session may subscribe to (default 2,048): longer is -32602. */
  maxSubscriptionUriLength?: number;
}

const CANCELLED = "notifications/cancelled";
/** Given-up request ids remembered per session, so that a late answer is not an error. */
const MAX_GIVEN_UP = 64;

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
    {
      resolve: (result: unknown) => void;
      reject: (error: unknown) => void;
      /** Tells the client the server gave the request up (notifications/cancelled). */
      cancel: (reason: string) => void;
    }
  >();
  /** Ids of requests the server gave up: a late answer to one is ignored, not an error. */
  private readonly givenUp = new Set<string>();
  /** The stream of each client request being served, by id (see `serving`). */
  private readonly streams = new Map<string, RequestStream>();
  private readonly timeoutMs: number;
  private readonly limits: ReturnType<typeof subscriptionLimits>;
  /** Why the session ended, once it has. */
  private closedWith: string | undefined = undefined;

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
    this.timeoutMs = timeoutOption(
      options.clientRequestTimeoutMs,
      "clientRequestTimeoutMs",
      DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
    );
    this.limits = subscriptionLimits(options);
  }

  /**
   * resources/subscribe: adds `uri` to the session's subscriptions, within the session's caps
   * (each kept state is held by every instance serving the session, and by a shared store).
   */
  subscribe(uri: string): void {
    const { maxSubscriptions, maxUriLength } = this.limits;
    if (uri.length > maxUriLength)
      throw new McpError(
        JSONRPC_ERRORS.INVALID_PARAMS,
        `Invalid params: the URI is longer than ${maxUriLength} characters (maxSubscriptionUriLength)`,
      );
    if (this.subscriptions.has(uri)) return;
    if (this.subscriptions.size >= maxSubscriptions)
      throw new McpError(
        JSONRPC_ERRORS.INVALID_PARAMS,
        `Invalid params: this session has ${maxSubscriptions} subscriptions, the most it may (maxSubscriptionsPerSession); unsubscribe from one first`,
      );
    this.subscriptions.add(uri);
  }

  /** The session as data, for a store (see LegacySessionState). */
  state(): LegacySessionState {
    // Built field by field, not spread: the HTTP transport reads it twice per request.
    const state: LegacySessionState = {
      version: this.version,
      clientCapabilities: this.clientCapabilities,
      initialized: this.initialized,
      subscriptions: this.subscriptions.size === 0 ? [] : [...this.subscriptions],
    };
    if (this.clientInfo) state.clientInfo = this.clientInfo;
    if (this.logLevel !== undefined) state.logLevel = this.logLevel;
    return state;
  }

  /**
   * Takes what the client set since initialize (log level, subscriptions, initialized) from
   * `state`, as another instance serving the session may have changed it.
   */
  applyState(state: LegacySessionState): void {
    this.logLevel = state.logLevel;
    this.initialized = state.initialized;
    this.subscriptions.clear();
    for (const uri of state.subscriptions) this.subscriptions.add(uri);
  }

  /** A session rebuilt from its state (kept by a store), at `era`, its negotiated revision. */
  static fromState(
    era: LegacyEra,
    state: LegacySessionState,
    options: SessionOptions = {},
  ): LegacySession {
    const params = { capabilities: state.clientCapabilities, clientInfo: state.clientInfo };
    const session = new LegacySession(era, state.version, params, options);
    session.applyState(state);
    return session;
  }

  /**
   * Runs `serve` for `message` (a request, or a batch) with the stream its answer goes on
   * (`context.notify`, closed when `context.signal` fires) known by request id: what a
   * request asks the client goes there, and so does its cancellation, also after the client
   * cancelled the request that asked (when the handler's own notifications are off).
   */
  async serving<R>(
    message: unknown,
    context: {
      notify?: (message: object) => unknown;
      signal?: AbortSignal;
      cancellation?: CancellationWatch;
      backChannelRefusal?: string;
    },
    serve: () => Promise<R>,
  ): Promise<R> {
    const { notify, backChannelRefusal: refusal } = context;
    const stream: RequestStream | undefined =
      notify || refusal !== undefined
        ? {
            send: notify ?? (() => undefined),
            closed: cancellationOf(context),
            ...(refusal === undefined ? {} : { refusal }),
          }
        : undefined;
    const ids = stream === undefined ? [] : requestIds(message);
    for (const id of ids) this.streams.set(id, stream!);
    try {
      return await serve();
    } finally {
      for (const id of ids) if (this.streams.get(id) === stream) this.streams.delete(id);
    }
  }

  /**
   * Sends a request to the client for the client request `servingId` (on its stream, else
   * with `send`) and resolves with the client's result, validated at this session's revision.
   * An error answer rejects. So do a timeout, an abort of `signal` (the client cancelled the
   * request that asked, or its stream closed) and the session's end; then the server gives
   * its request up and tells the client with notifications/cancelled, as either side may
   * cancel its own request (2025-11-25 basic/utilities/cancellation; on a timeout the sender
   * SHOULD, basic/lifecycle "Timeouts"); the SDK clients then abort the handler answering it.
   */
  async request(
    method: string,
    params: unknown,
    send: (message: object) => unknown,
    signal?: AbortSignal,
    servingId?: string | number,
  ): Promise<unknown> {
    // Nothing is asked for a request already cancelled, or on a session that ended.
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
    if (this.closedWith !== undefined)
      throw new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, this.closedWith);
    // Names this process, for an answer that reaches another instance (request-origin.ts).
    const id = newRequestId();
    const own = servingId === undefined ? undefined : this.streams.get(String(servingId));
    if (own?.refusal !== undefined) throw backChannelError(method, own.refusal);
    const stream = own?.send ?? send;
    const cancel = (reason: string) => {
      this.giveUp(id);
      const notice = { jsonrpc: "2.0", method: CANCELLED, params: { requestId: id, reason } };
      // The request's stream if it is still open (HTTP: closed by the client or a timeout),
      // else the session's (HTTP: the GET stream, if open).
      const via = own?.closed?.aborted ? this.stream : stream;
      try {
        void Promise.resolve(via?.(notice)).catch(() => undefined);
      } catch {
        // The stream is gone: the client cannot answer either.
      }
    };
    const answer = new Promise<unknown>((resolve, reject) =>
      this.pending.set(id, { resolve, reject, cancel }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () =>
      this.abandon(
        id,
        signal?.reason ?? new Error("aborted"),
        "the request that asked was cancelled",
      );
    try {
      timer = setTimeout(() => {
        const error = new McpError(
          JSONRPC_ERRORS.INTERNAL_ERROR,
          `the client did not answer ${method} in time`,
        );
        this.abandon(id, error, "timed out");
      }, this.timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      await stream({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) });
      const result = await answer;
      // An accepted form's content is checked against the form this request asked with.
      const validate = this.era.validators.validateMethodResult;
      const checked = checkInputAnswer(validate, method, params, result);
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

  /**
   * Why nothing can be asked of the client for its request `servingId` (the transport's
   * serving mode, see HandleContext.backChannelRefusal), or undefined when it can be.
   */
  backChannelRefusal(servingId: string | number): string | undefined {
    return this.streams.get(String(servingId))?.refusal;
  }

  /**
   * Whether a response with `id` is this session's to take here: a request sent from this
   * instance waits for it, or was given up (its late answer is ignored). An answer it is not
   * may be for the same session on another instance (transport/http/server/session-relay.ts).
   */
  awaits(id: unknown): boolean {
    return typeof id === "string" && (this.pending.has(id) || this.givenUp.has(id));
  }

  /** Routes the client's response to the request waiting for it; false when none is. */
  resolve(message: Record<string, unknown>): boolean {
    const id = message["id"];
    if (typeof id !== "string") return false;
    // A late answer to a request given up is ignored (basic/utilities/cancellation).
    if (this.givenUp.has(id)) return true;
    if (!this.pending.has(id)) return false;
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

  /** Gives up every request still waiting for the client (the session ended). */
  close(reason = "the session ended"): void {
    this.closedWith = reason;
    for (const id of [...this.pending.keys()])
      this.abandon(id, new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, reason), reason);
  }

  /** Fails the request `id` waits on and tells the client it was given up. */
  private abandon(id: string, error: unknown, reason: string): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    waiter.cancel(reason);
    this.settle(id, undefined, error);
  }

  private giveUp(id: string): void {
    this.givenUp.add(id);
    // Bounded: only answers racing the cancellation are expected.
    if (this.givenUp.size > MAX_GIVEN_UP) this.givenUp.delete(this.givenUp.values().next().value!);
  }

  private settle(id: string, result: unknown, error?: unknown): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (error !== undefined) waiter.reject(error);
    else waiter.resolve(result);
  }
}

/** Where a client request's answer goes, and the signal of that stream closing. */
interface RequestStream {
  readonly send: (message: object) => unknown;
  /** Whether the request's stream closed (the client cancelled, or it timed out). */
  readonly closed: { readonly aborted: boolean } | undefined;
  /** Why no request can be sent to the client on it (see HandleContext.backChannelRefusal). */
  readonly refusal?: string;
}

/** The ids of the requests in `message` (one, or a batch), as strings. */
function requestIds(message: unknown): string[] {
  if (!Array.isArray(message)) {
    // One request, the usual case: no batch built to walk.
    const id =
      isObject(message) && typeof message["method"] === "string" ? message["id"] : undefined;
    return typeof id === "string" || typeof id === "number" ? [String(id)] : [];
  }
  return message.flatMap((m) => {
    const id = isObject(m) && typeof m["method"] === "string" ? m["id"] : undefined;
    return typeof id === "string" || typeof id === "number" ? [String(id)] : [];
  });
}
