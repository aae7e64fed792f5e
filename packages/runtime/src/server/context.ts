import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { checkInputAnswer } from "../core/elicitation-content.js";
import {
  isObject,
  own,
  type MessageValidators,
  type ProtocolDescriptor,
} from "../core/protocol.js";
import { $escape } from "../core/validation.js";
import type { CancellationWatch } from "../core/cancellation.js";
import type { TraceHeaders } from "../core/tracing.js";

// The context a request handler gets beside its params. Its types come from the revision
// (the generated dispatcher binds them); what a revision lacks is simply undefined here.

/** The revision's own types, as the generated dispatcher.ts binds them. */
export interface ContextTypes {
  capabilities: object;
  implementation: object;
  logLevel: string;
  progressToken: string | number;
  requestId: string | number;
  notification: object;
  inputResponses: object;
  /** Input request method -> its result type (multi round-trip). */
  inputResults: object;
}

export type Promisable<V> = V | Promise<V>;

/**
 * What authentication established about the caller, as the transport hands it over: the HTTP
 * server's resource server gives the verified access token's principal (`auth` option).
 */
export interface AuthInfo {
  /** The resource owner (`sub`). */
  readonly subject: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** The authorization server that issued the token (`iss`). */
  readonly issuer?: string | undefined;
  /** The client the token was issued to. */
  readonly clientId?: string | undefined;
  /** Every claim of the token. */
  readonly claims?: Readonly<Record<string, unknown>> | undefined;
}

/** What a transport knows about the message it hands over. */
export interface HandleContext<N = object> {
  /** The authenticated principal, if any: bound into sealed request state and cancellation. */
  principal?: string;
  /** What authentication established (the token's subject and scopes), for the middleware. */
  authInfo?: AuthInfo;
  /** Sends a notification related to this request (progress, log) on the same stream. */
  notify?: (notification: N) => Promisable<void>;
  /** Fired when the transport gives up on the request (connection closed, timeout). */
  signal?: AbortSignal;
  /**
   * The same as `signal`, as a watch whose AbortSignal is made only when read (cheaper per
   * request: see core/cancellation.ts). Read before `signal` when both are given. A transport
   * that gives it may give `signal` as a getter on the context's prototype, for dispatchers
   * that read only `signal` (a copy of the context made by spreading it then has no `signal`,
   * and the copy's readers read `cancellation`).
   */
  cancellation?: CancellationWatch;
  /**
   * Who may cancel this request with notifications/cancelled: only messages handed over with
   * the same channel object. stdio is one channel; each Streamable HTTP POST is its own, as
   * closing the response stream is the cancellation there (2026-07-28 transports/streamable-http,
   * "Cancellation"). Default: one channel shared by every call without one.
   */
  channel?: object;
  /** The transport's session id (Streamable HTTP `Mcp-Session-Id`), for tracing. */
  sessionId?: string;
  /** W3C Trace Context the transport carried (HTTP `traceparent`), for tracing. */
  traceHeaders?: TraceHeaders;
  /**
   * Why nothing can be asked of the client while this request is served (legacy sessions:
   * sampling, elicitation, roots), when the transport cannot carry such a request or its
   * answer: a Streamable HTTP serving mode (JSON responses, stateless legacy serving). A
   * handler that asks gets an error with this reason, at once, instead of waiting for an
   * answer that cannot come. Unset: the client can be asked.
   */
  backChannelRefusal?: string;
}

export interface RequestContext<X extends ContextTypes = ContextTypes> {
  readonly method: string;
  readonly id: X["requestId"];
  readonly principal: string | undefined;
  /** The request as received: its method and params. */
  readonly request: { readonly method: string; readonly params: unknown };
  /** Aborted by notifications/cancelled for this request, or by the transport. */
  readonly signal: AbortSignal;
  /** The protocol version this request was made with (revisions that carry it per request). */
  readonly protocolVersion: string | undefined;
  /** The client's capabilities, declared with this very request ({} where the revision has none per request). */
  readonly clientCapabilities: X["capabilities"];
  readonly clientInfo: X["implementation"] | undefined;
  /** The level the client asked log messages for, if it asked. */
  readonly logLevel: X["logLevel"] | undefined;
  readonly progressToken: X["progressToken"] | undefined;
  /**
   * Sends a notification tied to this request; nothing once the request is answered or
   * cancelled (so for sendProgress and log too).
   */
  notify(notification: X["notification"]): Promise<void>;
  /** Sends notifications/progress for this request (nothing if the request asked for none). */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends notifications/message for this request, if the client asked for this level or a lower
   * one. The dispatcher declares the logging capability in every era, since any handler may
   * log (server-capabilities.ts; 2026-07-28 server/utilities/logging).
   */
  log(level: X["logLevel"], data: unknown, logger?: string): Promise<void>;
  /** This round's answers to the input requests of earlier rounds (multi round-trip). */
  readonly inputResponses: X["inputResponses"];
  /** The request state the client echoed back, if any. */
  readonly requestState: string | undefined;
  /**
   * The answer at `key`, validated as the result of `method`; undefined if none was sent.
   * Given the input request that asked (`asked`), an accepted form-mode elicitation's
   * content is checked against its `requestedSchema` (servers SHOULD, 2026-07-28
   * client/elicitation), which decides what its fields may be (a `number` field takes 1.5,
   * though schema.json types content numbers as integers: checkInputAnswer); a wrong answer
   * is refused with invalid params, naming the field.
   */
  inputResponse<M extends keyof X["inputResults"] & string>(
    key: string,
    method: M,
    asked?: { readonly params?: unknown },
  ): X["inputResults"][M] | undefined;
}

/** What a notification handler gets beside its params. */
export interface NotificationContext {
  readonly method: string;
  readonly principal: string | undefined;
}

/**
 * `context` for one request's handler, whose notifications (progress, log) are dropped once
 * `end()` is called, when the request is answered: progress notifications "MUST only
 * reference tokens that were provided in an active request" and "MUST stop after completion"
 * (basic/utilities/progress; a cancelled request's signal already stops them). A handler's
 * timer or stray promise that fires later sends nothing. So does a task's work after its
 * CreateTaskResult: the Tasks extension supports neither progress nor log notifications on
 * tasks (ext-tasks tasks.md, "Task Status Notifications"), and legacy sessions, whose
 * 2025-11-25 tasks kept the token for the task's life, never get a task here.
 */
export function untilAnswered(context: HandleContext): { context: HandleContext; end(): void } {
  let answered = false;
  const { notify } = context;
  return {
    context: notify ? { ...context, notify: (n) => (answered ? undefined : notify(n)) } : context,
    end: () => void (answered = true),
  };
}

/** Builds the context of one request. */
export function requestContext(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  request: {
    id: string | number;
    method: string;
    params: Record<string, unknown>;
    meta: Record<string, unknown>;
  },
  context: HandleContext,
  cancellation: Pick<CancellationWatch, "aborted" | "signal">,
): RequestContext {
  const { id, method, params, meta } = request;
  const keys = protocol.requestMeta;
  const metaValue = (key: string | null) => (key === null ? undefined : own(meta, key));
  const progressToken = metaValue(keys.progressToken) as string | number | undefined;
  const logLevel = metaValue(keys.logLevel) as string | undefined;
  const { progress, log } = protocol.wellKnown;
  const notify = async (notification: object) => {
    if (context.notify && !cancellation.aborted) await context.notify(notification);
  };
  const answers = isObject(params["inputResponses"]) ? params["inputResponses"] : {};
  const version = metaValue(keys.protocolVersion);
  const capabilities = metaValue(keys.clientCapabilities);
  const fields: Omit<RequestContext, "signal"> = {
    method,
    id,
    principal: context.principal,
    request: { method, params },
    protocolVersion: typeof version === "string" ? version : undefined,
    clientCapabilities: isObject(capabilities) ? capabilities : {},
    clientInfo: metaValue(keys.clientInfo) as object | undefined,
    logLevel,
    progressToken,
    notify,
    async sendProgress(value, total, text) {
      if (progressToken === undefined || progress === null || keys.progressToken === null) return;
      const p = {
        progressToken,
        progress: value,
        ...(total !== undefined ? { total } : {}),
        ...(text !== undefined ? { message: text } : {}),
      };
      await notify({ jsonrpc: "2.0", method: progress, params: p });
    },
    async log(level, data, logger) {
      const levels = protocol.loggingLevels;
      if (
        log === null ||
        logLevel === undefined ||
        levels.indexOf(level) < levels.indexOf(logLevel)
      )
        return;
      await notify({
        jsonrpc: "2.0",
        method: log,
        params: { level, data, ...(logger !== undefined ? { logger } : {}) },
      });
    },
    inputResponses: answers,
    requestState: typeof params["requestState"] === "string" ? params["requestState"] : undefined,
    inputResponse(key, inputMethod, asked) {
      if (
        !Object.prototype.hasOwnProperty.call(answers, key) ||
        validators.validateInputResult === null
      )
        return undefined;
      // With the request that asked, an accepted form's content is checked against its form.
      const validate = validators.validateInputResult;
      const answer = checkInputAnswer(validate, inputMethod, asked?.params, answers[key]);
      if (!answer.ok) {
        const at = `/params/inputResponses/${$escape(key)}`;
        throw new McpError(
          JSONRPC_ERRORS.INVALID_PARAMS,
          `invalid input response "${key}" for ${inputMethod}`,
          { errors: answer.errors.map((e) => ({ ...e, path: at + e.path })) },
        );
      }
      return answer.value as never;
    },
  };
  return Object.assign(new LazySignal(cancellation), fields);
}

/**
 * What a request context is built on: `signal` on the prototype, the AbortSignal made when
 * first read. Not a getter in an object literal: V8 builds such a literal on its slow path,
 * and every request makes a context.
 */
class LazySignal {
  readonly #cancellation: Pick<CancellationWatch, "signal">;

  constructor(cancellation: Pick<CancellationWatch, "signal">) {
    this.#cancellation = cancellation;
  }

  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }
}
