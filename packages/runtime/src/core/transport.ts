// The contract between the client engine and a transport, and the options of a client.
import type { ProtocolDescriptor } from "./protocol.js";

/** What a transport needs to carry one request. */
export interface TransportRequestOptions {
  signal?: AbortSignal;
  /** Extra headers for transports that have them (HTTP): e.g. Mcp-Param-* mirrors of tool arguments. */
  headers?: Record<string, string>;
  /** Notifications the server sends about this request (progress, log) while it runs. */
  onNotification?: (notification: Record<string, unknown>) => void;
  /**
   * The methods of the notifications about a request, as the revision names them (its
   * protocol descriptor's `wellKnown.progress` and `wellKnown.log`). A transport that cannot
   * tell which request a notification is about (one channel for all: stdio) gives these to
   * its calls in flight, so it needs no method names of its own. The client engine passes them.
   */
  callNotifications?: Pick<ProtocolDescriptor["wellKnown"], "progress" | "log">;
  /** An authorization for this request is under way (a user may be at a browser): timeouts pause. */
  onAuthorizing?: (active: boolean) => void;
}

/** A request in, its response out; notifications one way. */
export interface Transport {
  request(message: object, options?: TransportRequestOptions): Promise<object>;
  notify(message: object): Promise<void>;
  close?(): Promise<void>;
  /** Present on transports that can carry a legacy (initialize-based) session. */
  legacy?: LegacySessionSupport;
  /**
   * Aborting a request closes its response stream, which a modern server takes as the
   * cancellation (2026-07-28 Streamable HTTP): no notifications/cancelled then follows,
   * outside legacy sessions (2026-07-28 basic/patterns/cancellation).
   */
  closesStreamOnAbort?: boolean;
}

/**
 * Answers one request the server sent (legacy eras: elicitation/create, sampling/createMessage,
 * roots/list, ping) with the response message to send back. `signal` aborts when the server
 * cancels the request (notifications/cancelled) or the session ends; nothing is sent then.
 */
export type ServerRequestHandler = (
  request: Record<string, unknown>,
  /** Optional for transports written before it: a transport of this package always passes it. */
  context?: { signal: AbortSignal },
) => Promise<Record<string, unknown>>;

/**
 * A transport's part of a legacy session (2025-11-25 basic/lifecycle, basic/transports):
 * on Streamable HTTP the Mcp-Session-Id the initialize response gave and the negotiated
 * MCP-Protocol-Version on every later message, server requests on the streams, DELETE at
 * the end; on stdio, server requests read from the process and answered on its stdin.
 */
export interface LegacySessionSupport {
  /** Forgets any session (before initialize). */
  reset(): void;
  /** initialize succeeded at `version`: later messages carry the session. */
  begin(version: string): void;
  /** Opens what carries the server's own messages (HTTP: the standalone GET stream), once initialized. */
  listen(): Promise<void>;
  /** Ends the session (HTTP: DELETE); never throws. */
  end(): Promise<void>;
  /** Who answers the server's requests; the transport sends back what it resolves to. */
  onServerRequest(handler: ServerRequestHandler | undefined): void;
  /** Who hears the server's notifications that no call in flight receives (list_changed, ...). */
  onNotification(listener: ((notification: Record<string, unknown>) => void) | undefined): void;
  /**
   * Who hears that the server forgot the session outside any call (HTTP: the standalone
   * stream's GET got 404), so that it can initialize again. Optional: transports written
   * before it leave the next call to find out.
   */
  onSessionLost?(listener: (() => void) | undefined): void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** `_meta` entries for this call, merged with the client's. */
  meta?: { [key: string]: unknown };
  /** Progress of this call (a progress token is sent when given). */
  onProgress?: (params: never) => void;
  /** Log messages about this call. */
  onLog?: (params: never) => void;
  /** Ask for log messages of this level and above (revisions with a log level `_meta` key). */
  logLevel?: string;
  /** Any other notification about this call. */
  onNotification?: (notification: never) => void;
  /**
   * Give up (and cancel) when no response came in this many ms (default: the client's
   * requestTimeoutMs; subscriptions/listen: none, it lasts until `signal` aborts).
   */
  timeoutMs?: number;
  /** Progress notifications restart the timeout (default true), never beyond maxRequestTimeoutMs. */
  resetTimeoutOnProgress?: boolean;
  /** Told the JSON-RPC id of each request the call sends (one per round of input_required). */
  onRequestId?: (id: number) => void;
}

export interface SenderOptions {
  transport: Transport;
  /**
   * Which era of server to speak to (outputs generated with legacy revisions): "auto"
   * (default) probes once per transport with server/discover and falls back to initialize
   * when the answer is not modern; "modern" or "legacy" skip the probe.
   */
  era?: "auto" | "modern" | "legacy";
  /** Legacy versions offered at initialize, preferred first (default: every legacy revision, newest first). */
  legacyVersions?: string[];
  /** How long the era probe waits for an answer before taking the server for legacy, in ms (default 10,000). */
  probeTimeoutMs?: number;
  /** Validate results before returning them (default true). */
  validateResults?: boolean;
  /** Sent with every request where the revision carries it per request (default this schema's version). */
  protocolVersion?: string;
  /**
   * Versions this client can speak, preferred first (default: protocolVersion). When a server
   * answers "unsupported protocol version", the client retries once with the first of these
   * the server supports, and keeps using it.
   */
  supportedVersions?: string[];
  clientInfo?: object;
  /** Legacy sessions: the server's notifications that no call receives (list_changed, resources/updated, ...). */
  onNotification?: (notification: never) => void;
  /** Declared capabilities, merged with those the registered input handlers imply. */
  capabilities?: object;
  /** Fulfil the server's input requests (multi round-trip). */
  inputHandlers?: object;
  /** Rounds of input_required at most before giving up (default 10; a positive integer). */
  maxRounds?: number;
  /** Default timeout of every request in ms (default 60,000). Timeouts are at most 2,147,483,647 ms. */
  requestTimeoutMs?: number;
  /** No request waits longer than this in ms, progress or not (default 600,000). */
  maxRequestTimeoutMs?: number;
  /** Pages a `...Pages()` iteration follows at most before failing with PageLimitError (default 1,000). */
  maxPages?: number;
  /**
   * Tasks (on unless `false`): a modern request declares the Tasks extension, a 2025-11-25
   * tool whose taskSupport is "required" is called as a task; `callTool` polls a task to its
   * result within these bounds.
   */
  tasks?: TaskSettingsOptions | false;
  /**
   * Wraps every call (`traceCall` of `@mcp-gen/runtime/otel`'s `clientTracing()`: an
   * OpenTelemetry span per call, its context sent in `_meta`). Default: none.
   */
  traceCall?: CallTracer;
}

/** The client's task settings (`tasks` option); `tasks: false` declares no task support. */
export interface TaskSettingsOptions {
  /** Polls are never closer than this, whatever the server suggests (default 100 ms). */
  minPollIntervalMs?: number;
  /** Nor further apart than this (default 30,000 ms). */
  maxPollIntervalMs?: number;
  /** The interval when the server suggests none (default 1,000 ms). */
  defaultPollIntervalMs?: number;
  /** A task not ended after this long is cancelled and fails with TaskTimeoutError (default 3,600,000 ms). */
  timeoutMs?: number;
}

/** A call the client makes (one client function, or `request()`), as a tracer sees it. */
export interface TracedCall {
  readonly method: string;
  readonly params: unknown;
  readonly options: CallOptions;
}

/**
 * Wraps one call: call `send` once, with the call's options or a copy (`meta` entries to add
 * to the request's `_meta`, `onRequestId` to learn the ids sent), and resolve to its result
 * or reject with its error.
 */
export type CallTracer = (
  call: TracedCall,
  send: (options: CallOptions) => Promise<Record<string, unknown>>,
) => Promise<Record<string, unknown>>;
