import {
  requestContext,
  untilAnswered,
  type HandleContext,
  type NotificationContext,
  type RequestContext,
} from "./context.js";
import { jsonRpcErrorOf, JSONRPC_ERRORS, McpError, withDetail } from "../core/errors.js";
import { withContentNumbersDeferred } from "../core/elicitation-content.js";
import { extensionTable, unmarked } from "./extensions.js";
import { markRaisedByHandler, servedHandlers } from "./handler-marks.js";
import type {
  Dispatcher,
  DispatcherOptions,
  Handler,
  HandlerTable,
  Handlers,
  Reply,
} from "./router-types.js";
import { requireClientCapability } from "./input-required.js";
import {
  capabilitiesOf,
  mergeCapabilities,
  isObject,
  own,
  type Direction,
  type MessageValidators,
  type ProtocolDescriptor,
  type ValidationError,
} from "../core/protocol.js";
import { positiveInteger } from "../core/options.js";
import { capCompletion, toolExecutionError } from "./result-rules.js";

// The receiving side of MCP: a JSON-RPC router that enforces the protocol (envelopes,
// methods, params, results, versions, capabilities) around handlers. Every reply it
// produces is a valid JSON-RPC response of the revision; it never throws.

export { notImplemented, raisedByHandler, servedHandlers } from "./handler-marks.js";

export type { Dispatcher, DispatcherOptions, Handlers, Reply } from "./router-types.js";

const DEFAULT_CHANNEL = {};
/** Messages in one JSON-RPC batch (revisions with batching, 2025-03-26) at most, by default. */
const DEFAULT_MAX_BATCH_LENGTH = 100;

/** Routes what one side receives (`direction`) to `handlers`. */
export function createRouter<Table extends HandlerTable<Table> = Handlers, Answer = Reply>(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  direction: Direction,
  allHandlers: Table,
  options: DispatcherOptions = {},
): Dispatcher<Answer> {
  const handlers = servedHandlers(allHandlers);
  const validateResults = options.validateResults ?? true;
  const validation = { firstError: options.allErrors !== true };
  const maxBatchLength = positiveInteger(
    options.maxBatchLength,
    "maxBatchLength",
    DEFAULT_MAX_BATCH_LENGTH,
  );
  const supported =
    options.supportedVersions ??
    (protocol.protocolVersion === null ? [] : [protocol.protocolVersion]);
  // Checked wherever the revision has the key; refused with its unsupported-version code,
  // else with invalid params (a draft may add the key before the code).
  const versionKey = protocol.requestMeta.protocolVersion;
  // In-flight requests per channel, so only the channel that sent a request can cancel it.
  const inFlight = new WeakMap<object, Map<string, AbortController>>();

  const errorResponse = (
    id: unknown,
    code: number,
    message: string,
    data?: unknown,
  ): Record<string, unknown> => {
    const error = data === undefined ? { code, message } : { code, message, data };
    if (typeof id === "string" || typeof id === "number") return { jsonrpc: "2.0", id, error };
    // Revisions whose schema requires an id get null, as JSON-RPC answers when it is unknown.
    return protocol.errorIdOptional
      ? { jsonrpc: "2.0", error }
      : { jsonrpc: "2.0", id: null, error };
  };
  const idOf = (message: unknown) => {
    const id = isObject(message) ? message["id"] : undefined;
    return validators.isRequestId(id) ? (id as string | number) : undefined;
  };
  const report = (error: unknown, method: string, id: string | number | undefined) => {
    try {
      options.onError?.(error, { method, id });
    } catch {
      // A failing error hook must not break the reply.
    }
  };
  const entryFor = (method: string) => {
    const entry = own(protocol.methods, method);
    return entry && entry.directions.includes(direction) ? entry : undefined;
  };
  const handlerFor = (method: string): Handler | undefined =>
    own(handlers, method) ?? builtIn(method);

  // Extensions: their requests (methods the revision lacks) and their results.
  const extensions = extensionTable(protocol.methods, options.extensions ?? []);

  /** What the router answers by itself when no handler is registered: ping, server/discover. */
  function builtIn(method: string): Handler | undefined {
    if (method === protocol.wellKnown.ping) return () => ({});
    if (method === protocol.wellKnown.discover) {
      return () => ({
        ...options.discoverFields,
        supportedVersions: supported,
        capabilities: extensions.advertise(
          mergeCapabilities(
            capabilitiesOf(protocol.methods, handlers, direction),
            options.capabilities,
          ),
        ),
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        ...(protocol.features.discoverCacheHints
          ? (options.discoverCache ?? { ttlMs: 0, cacheScope: "public" })
          : {}),
      });
    }
    return undefined;
  }

  function channelRequests(context: HandleContext): Map<string, AbortController> {
    const channel = context.channel ?? DEFAULT_CHANNEL;
    let map = inFlight.get(channel);
    if (!map) inFlight.set(channel, (map = new Map()));
    return map;
  }

  async function handleNotification(
    message: Record<string, unknown>,
    context: HandleContext,
  ): Promise<undefined> {
    const method = message["method"] as string;
    const params = isObject(message["params"]) ? message["params"] : {};
    if (method === protocol.wellKnown.cancelled && validators.isRequestId(params["requestId"])) {
      const key = `${context.principal ?? ""}\u0000${String(params["requestId"])}`;
      channelRequests(context)
        .get(key)
        ?.abort(params["reason"] ?? "cancelled");
    }
    const handler = own(handlers, method);
    if (!handler || !entryFor(method)) return undefined;
    const checked = validators.validateNotificationMessage(message, direction, validation);
    if (!checked.ok) {
      report(
        new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `invalid ${method} notification`, {
          errors: checked.errors,
        }),
        method,
        undefined,
      );
      return undefined;
    }
    try {
      const ctx: NotificationContext = { method, principal: context.principal };
      await handler(message["params"], ctx);
    } catch (error) {
      report(error, method, undefined);
    }
    return undefined;
  }

  async function handleRequest(
    message: Record<string, unknown>,
    context: HandleContext,
  ): Promise<Record<string, unknown> | undefined> {
    const id = message["id"] as string | number;
    const method = message["method"] as string;
    const entry = entryFor(method);
    const extension = entry ? undefined : extensions.requests.get(method);
    const handler = entry ? handlerFor(method) : extension?.handler;
    if (!handler || (entry !== undefined && entry.kind !== "request")) {
      return errorResponse(id, JSONRPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
    const params = isObject(message["params"]) ? message["params"] : {};
    const meta = isObject(params["_meta"]) ? params["_meta"] : {};
    const unsupportedCode =
      protocol.errorCodes.unsupportedProtocolVersion ?? JSONRPC_ERRORS.INVALID_PARAMS;
    if (versionKey !== null) {
      const requested = own(meta, versionKey);
      if (typeof requested === "string" && !supported.includes(requested)) {
        return errorResponse(id, unsupportedCode, `Unsupported protocol version: ${requested}`, {
          supported,
          requested,
        });
      }
    }
    // An extension's request has no schema here: its handler checks its params.
    let checked = extension
      ? ({ ok: true } as const)
      : validators.validateRequestMessage(message, direction, validation);
    // Elicitation answers may hold fractional numbers schema.json reads as integers: their
    // form decides, when the handler reads them (checkInputAnswer). Only a failed check pays.
    const deferred = checked.ok ? undefined : withContentNumbersDeferred(message);
    if (deferred) checked = validators.validateRequestMessage(deferred, direction, validation);
    if (!checked.ok) {
      // The message names the first error too: most clients show a user the message alone
      // (the v1 SDK: "MCP error -32602: ..."), not data.errors.
      return envelopeErrors(checked.errors)
        ? errorResponse(
            id,
            JSONRPC_ERRORS.INVALID_REQUEST,
            withDetail("Invalid request", checked.errors),
            { errors: checked.errors },
          )
        : errorResponse(
            id,
            JSONRPC_ERRORS.INVALID_PARAMS,
            withDetail(`Invalid params for ${method}`, checked.errors),
            { errors: checked.errors },
          );
    }

    const controller = new AbortController();
    const requests = channelRequests(context);
    const key = `${context.principal ?? ""}\u0000${String(id)}`;
    const onTransportAbort = () => controller.abort(context.signal?.reason);
    if (context.signal?.aborted) return undefined;
    context.signal?.addEventListener("abort", onTransportAbort, { once: true });
    requests.set(key, controller);
    // Its notifications (progress, log) end when it is answered (context.ts, untilAnswered).
    const scope = untilAnswered(context);
    const ctx: RequestContext = requestContext(
      protocol,
      validators,
      { id, method, params, meta },
      scope.context,
      controller.signal,
    );
    let result: unknown;
    try {
      // An extension's requests need the request to declare the extension (e.g. ext-tasks
      // tasks.md, "Protocol Errors": -32021 for non-declaring clients).
      if (extension) requireClientCapability(protocol, ctx, ["extensions", extension.extension.id]);
      result = await handler(params, ctx);
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      // Read once and never throwing: whatever a handler throws (a revoked Proxy, a throwing
      // getter) is answered here, not by the catch-all below.
      const raised = jsonRpcErrorOf(error);
      if (raised)
        return markRaisedByHandler(errorResponse(id, raised.code, raised.message, raised.data));
      report(error, method, id);
      // A tool's own failure is a tool execution error, sent in the result (server/tools,
      // "Error Handling"); any other method's is a generic internal error.
      if (method !== protocol.wellKnown.toolsCall)
        return errorResponse(id, JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error");
      result = toolExecutionError(error);
    } finally {
      scope.end();
      if (requests.get(key) === controller) requests.delete(key);
      context.signal?.removeEventListener("abort", onTransportAbort);
    }
    // A cancelled request gets no response.
    if (controller.signal.aborted) return undefined;
    const sent = checkResult(method, entry?.inputRequired ?? false, result, id, ctx);
    return sent
      ? { jsonrpc: "2.0", id, result: sent }
      : errorResponse(id, JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error");
  }

  /**
   * A handler's result made ready to send (resultType filled in, server info added to a
   * response's `_meta`, checked against the method's result type, or by the extension that
   * built it), or undefined (reported) when it may not be sent. `ctx` is the request's; an
   * extension checking a result it keeps (a task's) gives none.
   */
  function checkResult(
    method: string,
    mayAskInput: boolean,
    raw: unknown,
    id: string | number | undefined,
    ctx: Pick<RequestContext, "clientCapabilities"> | undefined,
  ): Record<string, unknown> | undefined {
    const refuse = (problem: Error) => void report(problem, method, id);
    if (!isObject(raw)) {
      const found = raw === null ? "null" : typeof raw;
      return refuse(new TypeError(`the ${method} handler returned ${found}, not a result object`));
    }
    let result = method === protocol.wellKnown.complete ? capCompletion(raw) : raw;
    if (protocol.resultType) {
      if (result["resultType"] === "input_required" && !mayAskInput)
        return refuse(new TypeError(`${method} may not answer input_required`));
      if (result["resultType"] === undefined) result = { ...result, resultType: "complete" };
    }
    const owner = extensions.ownerOf(method, raw, ctx?.clientCapabilities);
    if (owner && "problem" in owner) return refuse(new TypeError(owner.problem));
    if (owner) result = unmarked(result);
    if (ctx && protocol.serverInfoKey !== null && options.serverInfo !== undefined) {
      const meta = isObject(result["_meta"]) ? result["_meta"] : {};
      result = { ...result, _meta: { ...meta, [protocol.serverInfoKey]: options.serverInfo } };
    }
    // An extension's requests are answered with what the extension built.
    if (owner || (validateResults && !extensions.requests.has(method))) {
      const checked = owner
        ? { errors: owner.validateResult(result) }
        : validators.validateMethodResult(method, result);
      if ("errors" in checked && checked.errors.length > 0) {
        // For onError only (the client gets a generic -32603): the first error in the message,
        // since logging the error prints data.errors as [Object].
        const message = withDetail(`invalid ${method} result`, checked.errors);
        const data = { errors: checked.errors };
        return refuse(new McpError(JSONRPC_ERRORS.INTERNAL_ERROR, message, data));
      }
    }
    return result;
  }

  for (const extension of extensions.byId.values()) {
    extension.attach({
      protocol,
      validators,
      checkResult: (method, result) => checkResult(method, false, result, undefined, undefined),
      report: (error, method) => report(error, method, undefined),
    });
  }

  async function handleOne(
    message: unknown,
    context: HandleContext,
  ): Promise<Record<string, unknown> | undefined> {
    const info = validators.classifyMessage(message);
    if (info?.kind === "notification")
      return handleNotification(message as Record<string, unknown>, context);
    if (
      info?.kind === "request" &&
      idOf(message) !== undefined &&
      (message as { jsonrpc?: unknown }).jsonrpc === "2.0"
    ) {
      return handleRequest(message as Record<string, unknown>, context);
    }
    // Responses are not for a dispatcher; anything else is not a request.
    if (info?.kind === "result" || info?.kind === "error") return undefined;
    return errorResponse(idOf(message), JSONRPC_ERRORS.INVALID_REQUEST, "Invalid request");
  }

  const dispatcher: Dispatcher = {
    ...(extensions.requests.size > 0 ? { nameParams: extensions.nameParams } : {}),
    async handle(message, context = {}) {
      try {
        if (Array.isArray(message) && protocol.batch) {
          if (message.length === 0)
            return errorResponse(
              undefined,
              JSONRPC_ERRORS.INVALID_REQUEST,
              "Invalid request: empty batch",
            );
          // Its messages are handled at once, so their number is the peer's to choose: bounded.
          if (message.length > maxBatchLength)
            return errorResponse(
              undefined,
              JSONRPC_ERRORS.INVALID_REQUEST,
              `Invalid request: a batch of ${message.length} messages; at most ${maxBatchLength}`,
            );
          const replies = await Promise.all(message.map((m) => handleOne(m, context)));
          const sent = replies.filter((r): r is Record<string, unknown> => r !== undefined);
          return sent.length > 0 ? sent : undefined;
        }
        return await handleOne(message, context);
      } catch (error) {
        // Only a bug in the router itself gets here; still answer, never throw.
        report(error, "", idOf(message));
        return validators.classifyMessage(message)?.kind === "notification"
          ? undefined
          : errorResponse(idOf(message), JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error");
      }
    },
    async handleText(text, context = {}) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return errorResponse(undefined, JSONRPC_ERRORS.PARSE_ERROR, "Parse error");
      }
      return dispatcher.handle(message, context);
    },
  };
  return dispatcher as Dispatcher<Answer>;
}

/** Validation errors outside `/params` mean the envelope itself is wrong. */
function envelopeErrors(errors: readonly ValidationError[]): boolean {
  return errors.some(
    (e) => e.path !== "/params" && !e.path.startsWith("/params/") && e.path !== "/method",
  );
}
