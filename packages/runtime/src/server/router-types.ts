import type { HandleContext } from "./context.js";
import type { RouterExtension } from "./extensions.js";
import type { Middleware } from "./middleware.js";
import type { RequestTracer } from "../core/tracing.js";

// The router's public shapes: its options, the dispatcher it returns and the handlers it
// routes to. Kept apart from router.ts, which re-exports them, so the routing reads alone.

export interface DispatcherOptions<
  Capabilities = object,
  Implementation = object,
  Method extends string = string,
> {
  /** Validate results before sending them (default true): a handler bug never reaches the wire. */
  validateResults?: boolean;
  /**
   * Report every error of an invalid request in `data.errors` (default false: the first one,
   * which costs far less on invalid input, so a flood of bad requests stays cheap).
   */
  allErrors?: boolean;
  /**
   * Told about handler failures and invalid results; the client gets a generic -32603, but for
   * a tools/call handler's error (not an McpError) a result with its message and `isError: true`.
   */
  onError?: (error: unknown, info: { method: string; id: string | number | undefined }) => void;
  /** Put into every result's `_meta` (revisions with a server info `_meta` key). */
  serverInfo?: Implementation;
  /** Protocol versions accepted (default: this schema's). */
  supportedVersions?: string[];
  /**
   * Advertised by server/discover (and initialize), laid over those the registered handlers
   * imply and `logging` (declared by every server: server-capabilities.ts), key by key:
   * `{ tools: { listChanged: true } }` adds to the implied `tools`.
   */
  capabilities?: Capabilities;
  instructions?: string;
  /**
   * More fields of the server/discover result: those a revision adds beyond what the router
   * fills (supportedVersions, capabilities, instructions, caching hints). The generated
   * dispatcher types them, and requires them where the schema does.
   */
  discoverFields?: object;
  /** Caching hints of the server/discover result (where the revision's result has them). */
  discoverCache?: { ttlMs: number; cacheScope: "public" | "private" };
  /**
   * Messages one JSON-RPC batch may hold (revisions with batching: 2025-03-26); a longer batch
   * is refused whole with -32600 (default 100).
   */
  maxBatchLength?: number;
  /**
   * Extensions served beside the revision's methods (e.g. `createTaskStore()`), each
   * advertised under `capabilities.extensions` (also when `capabilities` is given).
   */
  extensions?: readonly RouterExtension[];
  /**
   * Hooks around every request a handler serves (the router's own ping and server/discover
   * too), first outermost: each `before` in order, the handler, each `after` in reverse.
   * See middleware.ts; `requireScopes` is one.
   */
  middleware?: readonly Middleware<Method>[];
  /**
   * Wraps the answering of every request, refusals included (`traceRequest` of
   * `@mcp-gen/runtime/otel`'s `serverTracing()`: an OpenTelemetry span per request). Default: none.
   */
  traceRequest?: RequestTracer;
}

/** The reply to send: a result or an error response (or several, for a batch). */
export type Reply = Record<string, unknown> | Record<string, unknown>[] | undefined;

/**
 * `Answer`: what `handle` resolves to, as the caller types it. A generated dispatcher names its
 * revision's envelopes (`ResponseMessage | undefined`, arrays too where the revision batches),
 * inferred from the Dispatcher it returns: the router builds only envelopes of the protocol
 * and validators it is given, so the caller that binds them knows their type. Untyped by default.
 */
export interface Dispatcher<Answer = Reply> {
  /** Handles one decoded message; resolves to the response to send, or nothing for a notification. */
  handle(message: unknown, context?: HandleContext): Promise<Answer>;
  /** The same from raw text: unparsable text gets a parse error. */
  handleText(text: string, context?: HandleContext): Promise<Answer>;
  /** The params naming what the extensions' requests act on (Streamable HTTP `Mcp-Name`). */
  readonly nameParams?: { readonly [method: string]: string };
}

// Handlers are typed per method; `any` parameters let every one of them sit in one table.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Handler = (params: any, ctx: any) => unknown;
export type Handlers = { readonly [method: string]: Handler | undefined };

/**
 * A table of handlers as the caller types it (a generated dispatcher's `ServerHandlers`): a
 * function per method. Mapped over the table's own keys rather than asking for an index
 * signature, which an interface lacks, and which a cast cannot bridge once a method is named
 * like a member of every object (`toString`): cast to Handlers, that method would be compared
 * with Object's. Here it is one more key, compared with Handler.
 */
export type HandlerTable<Table> = { readonly [Method in keyof Table]?: Handler | undefined };
