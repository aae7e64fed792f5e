import { JSONRPC_ERRORS } from "../../../core/errors.js";
import { isObject } from "../../../core/protocol.js";
import { Cancellation } from "../../../core/cancellation.js";
import { raisedByHandler } from "../../../server/handler-marks.js";
import type { AuthInfo } from "../../../server/context.js";
import { refusedScopes } from "../../../server/require-scopes.js";
import type { AuthChallenge, ResourceServer } from "../../../auth/resource-server.js";
import {
  errorBody,
  EVENT_STREAM_HEADERS,
  sendJson,
  type EventStream,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import type { MessageHandler } from "./options.js";
import type { TraceHeaders } from "../../../core/tracing.js";
import { startDeadline, type Expiring } from "./deadlines.js";

// Running one JSON-RPC request and answering it: a JSON body when the handler answers
// before notifying, an SSE stream otherwise; the request's lifetime bounds the whole of it,
// from the first byte of the body read to the last event.

const TIMED_OUT = Symbol("timed out");

/**
 * One request's clock and cancellation: `cancellation` fires when the timeout fires or the
 * client goes away; `race` settles with TIMED_OUT when the timeout fires first (the answer
 * does not wait for a handler that ignores its signal).
 */
export class RequestLifetime implements Expiring {
  readonly cancellation = new Cancellation();
  readonly #stopClock: () => void;
  #timedOut = false;
  #onTimeout: ((value: typeof TIMED_OUT) => void) | undefined = undefined;
  #stopWatching: () => void;

  constructor(timeoutMs: number, exchange: HttpExchange) {
    this.#stopClock = startDeadline(timeoutMs, this);
    // Closing the response stream is the cancellation on Streamable HTTP.
    this.#stopWatching = exchange.onClose(() =>
      this.cancellation.abort(new Error("client went away")),
    );
  }

  /** The timeout fired (see deadlines.ts). */
  expire(): void {
    this.cancellation.abort(new Error("request timed out"));
    this.#timedOut = true;
    this.#onTimeout?.(TIMED_OUT);
  }

  /**
   * What `work` settles with, or TIMED_OUT when the timeout fires first. One promise, made
   * here: no Promise.race, and no timeout promise made for the requests that never wait on one.
   */
  race<T>(work: Promise<T>): Promise<T | typeof TIMED_OUT> {
    if (this.#timedOut) return Promise.resolve(TIMED_OUT);
    return new Promise((resolve, reject) => {
      this.#onTimeout = resolve;
      work.then(resolve, reject);
    });
  }

  /** The cancellation as an AbortSignal (made when first read). */
  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  /**
   * The client can resume the response stream (it holds an event id): its going away cancels
   * nothing from now on (2025-03-26 .. 2025-11-25 transports: disconnection SHOULD NOT be
   * interpreted as the client cancelling its request). The timeout still applies.
   */
  keepOnClose(): void {
    this.#stopWatching();
    this.#stopWatching = () => undefined;
  }

  /** The answer is complete: no timeout, and a later close cancels nothing. */
  end(): void {
    this.#stopClock();
    this.#stopWatching();
    this.#stopWatching = () => undefined;
  }
}

/**
 * What the dispatcher is told about a request. `signal` is a getter on the prototype, so the
 * AbortSignal is made only for a dispatcher that reads it (the generated ones read
 * `cancellation`; see HandleContext.cancellation).
 */
class RequestHandleContext {
  readonly principal?: string;
  readonly authInfo?: AuthInfo;
  readonly channel: object;
  readonly sessionId?: string;
  readonly traceHeaders?: TraceHeaders;
  readonly backChannelRefusal?: string;

  constructor(
    readonly notify: (notification: unknown) => void,
    readonly cancellation: Cancellation,
    caller: Caller,
  ) {
    if (caller.principal !== undefined) this.principal = caller.principal;
    if (caller.authInfo !== undefined) this.authInfo = caller.authInfo;
    this.channel = caller.channel;
    if (caller.sessionId !== undefined) this.sessionId = caller.sessionId;
    if (caller.traceHeaders !== undefined) this.traceHeaders = caller.traceHeaders;
    if (caller.backChannelRefusal !== undefined)
      this.backChannelRefusal = caller.backChannelRefusal;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
}

export interface AnswerHost {
  dispatcher: MessageHandler;
  /** The HTTP status of a JSON-RPC reply outside legacy sessions. */
  statusOf(reply: unknown): number;
}

/** What the dispatcher is told about a request besides its message. */
export interface Caller {
  principal: string | undefined;
  channel: object;
  /** The verified token's principal (the `auth` option's resource server). */
  authInfo?: AuthInfo;
  /** The 403 challenge for a reply refused for want of scopes (requireScopes). */
  refuseScopes?: (scopes: readonly string[]) => AuthChallenge;
  /** The legacy session's id (for tracing). */
  sessionId?: string;
  /** The request's W3C Trace Context headers (for tracing). */
  traceHeaders?: TraceHeaders | undefined;
  /**
   * Answer with one JSON body, never an SSE stream: notifications the handler sends before
   * its answer are dropped (legacy-modes.ts: JSON responses, or an Accept without SSE).
   */
  jsonResponse?: boolean;
  /** Why nothing can be asked of the client during the request (HandleContext.backChannelRefusal). */
  backChannelRefusal?: string;
}

/** What the resource server knows of a request's caller, for the dispatcher and its 403. */
export function callerAuth(
  auth: ResourceServer | undefined,
  request: unknown,
  message: Record<string, unknown>,
): Pick<Caller, "authInfo" | "refuseScopes"> {
  if (!auth) return {};
  const view = request as Parameters<ResourceServer["principal"]>[0];
  const principal = auth.principal(view);
  return {
    ...(principal !== undefined ? { authInfo: principal } : {}),
    refuseScopes: (scopes) => auth.refuseScopes(view, message, scopes),
  };
}

/** The W3C Trace Context headers of `exchange`, if it has a `traceparent`. */
export function traceHeadersOf(exchange: HttpExchange): TraceHeaders | undefined {
  const traceparent = exchange.header("traceparent");
  if (traceparent === undefined) return undefined;
  const tracestate = exchange.header("tracestate");
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/**
 * Runs one request and answers it. `inBand` (legacy sessions): errors are sent with 200
 * too, never mapped to an HTTP status.
 */
export async function answer(
  host: AnswerHost,
  sink: ReplySink,
  lifetime: RequestLifetime,
  message: Record<string, unknown>,
  caller: Caller,
  inBand: boolean,
): Promise<void> {
  const { cancellation } = lifetime;
  let stream: EventStream | undefined;
  const notify = (notification: unknown) => {
    if (cancellation.aborted || caller.jsonResponse) return;
    stream ??= sink.openStream(EVENT_STREAM_HEADERS);
    stream.event(notification);
  };
  const handled = host.dispatcher.handle(
    message,
    new RequestHandleContext(notify, cancellation, caller),
  );
  const reply = await lifetime.race(handled);
  if (reply === TIMED_OUT) {
    const timeout = errorBody(JSONRPC_ERRORS.INTERNAL_ERROR, "Request timed out", message["id"]);
    if (stream) return void (stream.event(timeout), stream.end());
    return sendJson(sink, inBand ? 200 : 504, timeout);
  }
  if (!isObject(reply)) return stream ? stream.end() : sink.send(200, {});
  if (stream) return void (stream.event(reply), stream.end());
  // A refusal for want of scopes is an authorization answer, in a legacy session too: the
  // 403 the resource server sends for its own scope checks.
  const scopes = refusedScopes(reply);
  if (scopes !== undefined && caller.refuseScopes) {
    const refusal = caller.refuseScopes(scopes);
    return sendJson(sink, refusal.status, reply, refusal.headers);
  }
  sendJson(sink, inBand ? 200 : host.statusOf(reply), reply);
}

/**
 * The HTTP status of a reply outside legacy sessions: the revision's own 400 codes
 * (unsupported version, missing client capability, header mismatch) wherever they come
 * from; JSON-RPC's malformed-request codes only when the router raised them (a handler's
 * -32602 is answered in the body, see raisedByHandler); 404 for an unknown method.
 */
export function replyStatus(badRequestCodes: readonly number[]): (reply: unknown) => number {
  const badRequest = new Set<number>(badRequestCodes);
  const malformed = new Set<number>([
    JSONRPC_ERRORS.PARSE_ERROR,
    JSONRPC_ERRORS.INVALID_REQUEST,
    JSONRPC_ERRORS.INVALID_PARAMS,
  ]);
  return (reply) => {
    const error = isObject(reply) ? reply["error"] : undefined;
    const code = isObject(error) ? error["code"] : undefined;
    if (typeof code !== "number") return 200;
    if (code === JSONRPC_ERRORS.METHOD_NOT_FOUND) return 404;
    if (badRequest.has(code)) return 400;
    return malformed.has(code) && !raisedByHandler(reply) ? 400 : 200;
  };
}
