import type { ResourceServerOptions } from "../../../auth/resource-server.js";
import type { LegacySessionState } from "../../../server/legacy-session.js";
import type { HandlerBackChannel } from "../../../server/back-channel-uses.js";
import type { SessionStore } from "./sessions.js";
import type { CancellationWatch } from "../../../core/cancellation.js";
import type { EventStore } from "./event-store.js";
import type { MissedNotices } from "../../../server/message-bus.js";
import type { MessageBus } from "../../../server/message-bus.js";

// The options of the Streamable HTTP server, and what it needs of a dispatcher: types only,
// shared by the core (core.ts), its legacy sessions (legacy.ts) and the hosts (fetch.ts for
// web-standard runtimes, server.ts for node:http).

/** What the HTTP server needs of a dispatcher. */
export interface MessageHandler {
  handle(
    message: unknown,
    context: {
      principal?: string;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any dispatcher's notification type
      notify?: (notification: any) => void;
      signal?: AbortSignal;
      /** The same as `signal`, made only when read (see HandleContext.cancellation). */
      cancellation?: CancellationWatch;
      channel?: object;
    },
  ): Promise<unknown>;
  /**
   * Dual-era dispatchers: the legacy session open on a channel; `awaits(id)` says whether a
   * response with that id is for a request this instance sent on it (see `messageBus`).
   */
  session?(
    channel: object,
  ): { readonly version: string; awaits?(id: unknown): boolean } | undefined;
  endSession?(channel: object): void;
  /** The legacy session on `channel` as data, for the session store. */
  sessionState?(channel: object): LegacySessionState | undefined;
  /** Opens on `channel` the session a store kept (or updates the one open); false when not served. */
  restoreSession?(channel: object, state: LegacySessionState): boolean;
  attachStream?(channel: object, send: (message: object) => unknown): () => void;
  /** The session notices the session on `channel` missed (set by shareSessionNotices with a history). */
  missedNotices?: MissedNotices;
  /**
   * Dual-era dispatchers: the handlers that ask the client for input or send notifications
   * during a call, which a legacy serving mode without a back-channel lists at start-up.
   */
  backChannelHandlers?(): readonly HandlerBackChannel[];
  /** The params naming what the dispatcher's extension requests act on (checked as `Mcp-Name`). */
  readonly nameParams?: { readonly [method: string]: string };
}

/** The options of the HTTP core; `R` is the host's request object (Request, IncomingMessage). */
export interface HttpCoreOptions<R> {
  /**
   * The endpoint path (default "/mcp"); requests for other paths get 404. Behind a framework
   * that strips a mount path (Express `app.use("/mcp", handler)`), the full path counts.
   */
  path?: string;
  /**
   * Origins allowed to call (browsers send Origin). Default: only localhost origins, which
   * protects a local server from DNS rebinding. Requests without Origin are not browsers.
   */
  allowedOrigins?: string[] | ((origin: string) => boolean);
  /**
   * Host header values (hostname, or hostname:port) allowed. Default: only `localhost`,
   * `127.0.0.1` and `[::1]` spelled exactly so, the other half of DNS rebinding protection for
   * a local server; pass a list (or a function) when serving under a real host name.
   */
  allowedHosts?: string[] | ((host: string) => boolean);
  /** Largest request body in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** A request still unanswered after this many ms is answered with an error and aborted (default 60 s). */
  requestTimeoutMs?: number;
  /**
   * Where legacy sessions live (default: in memory, bounded by maxSessions,
   * maxSessionsPerPrincipal, maxAnonymousSessions and sessionIdleTimeoutMs). A store every
   * instance shares (`RedisSessionStore`, `@mcp-gen/runtime/redis`) lets any instance serve a
   * session; it has its own bounds.
   */
  sessionStore?: SessionStore;
  /** Most legacy sessions the default store keeps; a new one beyond it is refused with 503 (default 10,000). */
  maxSessions?: number;
  /** Most legacy sessions one principal holds in the default store; one more is refused with 429 (default 100). */
  maxSessionsPerPrincipal?: number;
  /**
   * Most legacy sessions opened without a principal (no authentication), all in one bucket,
   * in the default store; one more is refused with 429 (default 1,000).
   */
  maxAnonymousSessions?: number;
  /**
   * A legacy session unused this long expires in the default store (default 30 minutes);
   * with a store of your own, how long an instance keeps an unused session it rebuilt.
   */
  sessionIdleTimeoutMs?: number;
  /** A comment on a session's open GET stream this often, so that proxies keep it open (default 15 s). */
  sseKeepAliveMs?: number;
  /**
   * A session's GET stream that carried no message this long is closed (default 5 minutes);
   * the client opens it again (2025-11-25 transports: the server MAY close it at any time).
   */
  streamIdleTimeoutMs?: number;
  /**
   * Where the events of legacy sessions' SSE streams are kept, so that a client reconnecting
   * with Last-Event-ID gets what it missed (default: a MemoryEventStore with its default
   * bounds; a RedisEventStore from `@mcp-gen/runtime/redis` for several instances). `false`:
   * streams carry no event ids and cannot be resumed. Modern (2026-07-28) streams are never
   * resumable.
   */
  eventStore?: EventStore | false;
  /**
   * The `retry` (ms) sent before the server closes a connection whose stream is not over, so
   * the client reconnects after it (default 1000).
   */
  sseRetryMs?: number;
  /**
   * Carries what a legacy session's client sends to one instance for another, so that legacy
   * clients need no sticky routing (default: none; an answer reaches only the instance it
   * arrives at): its answer to a request a handler on another instance sent it (an
   * elicitation, sampling, roots), delivered to that handler, and its notifications/cancelled
   * for a request running on another instance, which stops it there. Every instance sharing
   * the `sessionStore` takes the same bus (`RedisMessageBus` from `@mcp-gen/runtime/redis`
   * between processes). An answer is accepted (202) once the instance whose handler waits
   * for it acknowledged it, else refused (see forwardedAnswerTimeoutMs); a cancellation lost
   * on the way leaves the call to its own timeout. A DELETE ends the session on every
   * instance. The subscriptions last as long as the bus: close it when the server stops.
   */
  messageBus?: MessageBus;
  /**
   * The prefix of the bus channels `messageBus` carries them on (`<prefix>:answers:<process>`,
   * `<prefix>:cancels`); servers sharing one bus with different session stores need
   * different ones (default `mcp-gen`).
   */
  messageBusPrefix?: string;
  /**
   * Largest client answer forwarded over `messageBus`, in characters of JSON (default
   * 1,048,576); a larger one is refused with 413 and reported, and the handler waiting for
   * it times out. A forwarded cancellation is at most 64 KiB, its reason cut to 1,024 characters.
   */
  maxForwardedAnswerChars?: number;
  /**
   * How long the instance a client's answer reaches waits for the instance whose handler it
   * is for to take it, over `messageBus` (default 3,000 ms). Without that instance's
   * acknowledgement in time (it stopped, or its handler gave up), the POST is refused with
   * 400 and a JSON-RPC error, not accepted with 202 and lost.
   */
  forwardedAnswerTimeoutMs?: number;
  /** The authenticated principal of a request (e.g. from its bearer token); throw to refuse with 401. */
  authenticate?: (request: R) => string | undefined | Promise<string | undefined>;
  /**
   * Serve as an OAuth resource server (resource-server.ts): bearer tokens checked by
   * `auth.verifyToken`, challenges on 401/403, protected resource metadata. Instead of
   * `authenticate`: the verified principal is the request's principal.
   */
  auth?: ResourceServerOptions;
  /**
   * Answer browsers' CORS requests (default off: OPTIONS gets 405 and responses carry no
   * CORS headers). The origins CORS admits are exactly those `allowedOrigins` admits: the
   * Origin check is unchanged, so one list says who may call.
   */
  cors?: boolean | CorsOptions;
  /** Told about each request the server could not serve (one line's worth); default: console.error. */
  onError?: (message: string, error?: unknown) => void;
  /**
   * How legacy (initialize-based, 2025-03-26 .. 2025-11-25) clients are served (default:
   * sessions, and an SSE stream for a request whose handler sends anything before its
   * answer). Modern (2026-07-28) requests are served the same in every mode. See the
   * deployment guide, "Serving modes for legacy clients", for what each mode drops.
   */
  legacy?: LegacyServingOptions;
}

/** The serving modes of legacy clients (HttpCoreOptions.legacy); each independent of the other. */
export interface LegacyServingOptions {
  /**
   * false: no session. `initialize` is answered without Mcp-Session-Id, and every later
   * request is served on its own, by any instance (its revision from MCP-Protocol-Version);
   * GET and DELETE get 405. Nothing can be asked of the client (sampling, elicitation, roots):
   * its answer would name no session to find the waiting request. Default true.
   */
  sessions?: boolean;
  /**
   * "json": a request is answered with one `application/json` body, never an SSE stream; the
   * notifications a handler sends before its answer (progress, logs) are dropped, and nothing
   * can be asked of the client. Default "stream": SSE when the handler sends anything first.
   */
  responses?: "stream" | "json";
}

/** How the server answers browsers' CORS requests (see HttpCoreOptions.cors). */
export interface CorsOptions {
  /** How long browsers may cache a preflight's answer, in seconds (default 600). */
  maxAgeSeconds?: number;
  /** Let browsers send cookies and HTTP auth (Access-Control-Allow-Credentials; default false). */
  credentials?: boolean;
  /** More request headers to allow than the MCP ones (e.g. a custom auth header). */
  allowHeaders?: readonly string[];
  /** More response headers to expose than Mcp-Session-Id and WWW-Authenticate. */
  exposeHeaders?: readonly string[];
}
