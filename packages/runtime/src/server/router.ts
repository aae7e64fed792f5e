import { warnDeprecatedAll } from "../core/deprecation.js";
import type { HandleContext } from "./context.js";
import { JSONRPC_ERRORS } from "../core/errors.js";
import { errorResponse, requestIdOf } from "./error-response.js";
import { handleNotification } from "./notification-dispatch.js";
import type {
  Dispatcher,
  DispatcherOptions,
  HandlerTable,
  Handlers,
  Reply,
} from "./router-types.js";
import type { Direction, MessageValidators, ProtocolDescriptor } from "../core/protocol.js";
import { handleRequest } from "./request-dispatch.js";
import { checkResult } from "./result-check.js";
import { report, routerState, type RouterState } from "./router-state.js";

// The receiving side of MCP: a JSON-RPC router that enforces the protocol (envelopes,
// methods, params, results, versions, capabilities) around handlers. Every reply it
// produces is a valid JSON-RPC response of the revision; it never throws.

export { notImplemented, raisedByHandler, servedHandlers } from "./handler-marks.js";

export type { Dispatcher, DispatcherOptions, Handlers, Reply } from "./router-types.js";

/** Routes what one side receives (`direction`) to `handlers`. */
export function createRouter<Table extends HandlerTable<Table> = Handlers, Answer = Reply>(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  direction: Direction,
  allHandlers: Table,
  options: DispatcherOptions = {},
): Dispatcher<Answer> {
  const state = routerState(protocol, validators, direction, allHandlers, options);
  warnDeprecatedAll(protocol, Object.keys(allHandlers), "a handler");
  for (const extension of state.extensions.byId.values()) {
    extension.attach({
      protocol,
      validators,
      checkResult: (method, result) => checkResult(state, method, result),
      report: (error, method) => report(state, error, method, undefined),
    });
  }
  const dispatcher: Dispatcher = {
    ...(state.extensions.requests.size > 0 ? { nameParams: state.extensions.nameParams } : {}),
    async handle(message, context = {}) {
      try {
        if (Array.isArray(message) && protocol.batch)
          return await handleBatch(state, message, context);
        return await handleMessage(state, message, context);
      } catch (error) {
        // Only a bug in the router itself gets here; still answer, never throw.
        report(state, error, "", requestIdOf(validators, message));
        if (validators.classifyMessage(message)?.kind === "notification") return undefined;
        const id = requestIdOf(validators, message);
        return errorResponse(protocol, id, JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error");
      }
    },
    async handleText(text, context = {}) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return errorResponse(protocol, undefined, JSONRPC_ERRORS.PARSE_ERROR, "Parse error");
      }
      return dispatcher.handle(message, context);
    },
  };
  return dispatcher as Dispatcher<Answer>;
}

/** Answers a JSON-RPC batch: its messages at once, their replies together (none: undefined). */
async function handleBatch(
  state: RouterState,
  batch: unknown[],
  context: HandleContext,
): Promise<Reply> {
  const { protocol, maxBatchLength } = state;
  if (batch.length === 0)
    return errorResponse(
      protocol,
      undefined,
      JSONRPC_ERRORS.INVALID_REQUEST,
      "Invalid request: empty batch",
    );
  // Its messages are handled at once, so their number is the peer's to choose: bounded.
  if (batch.length > maxBatchLength)
    return errorResponse(
      protocol,
      undefined,
      JSONRPC_ERRORS.INVALID_REQUEST,
      `Invalid request: a batch of ${batch.length} messages; at most ${maxBatchLength}`,
    );
  const replies = await Promise.all(batch.map((m) => handleMessage(state, m, context)));
  const sent = replies.filter((r): r is Record<string, unknown> => r !== undefined);
  return sent.length > 0 ? sent : undefined;
}

/**
 * Answers one message (not a batch): a request's reply; nothing for a notification or
 * response. Not async itself: the request's promise is handed back as it is (a promise
 * and its turns fewer per request), and what it throws is the caller's to catch.
 */
function handleMessage(
  state: RouterState,
  message: unknown,
  context: HandleContext,
): Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined {
  const { validators } = state;
  const info = validators.classifyMessage(message);
  if (info?.kind === "notification")
    return handleNotification(state, message as Record<string, unknown>, context);
  if (
    info?.kind === "request" &&
    requestIdOf(validators, message) !== undefined &&
    (message as { jsonrpc?: unknown }).jsonrpc === "2.0"
  ) {
    return handleRequest(state, message as Record<string, unknown>, context);
  }
  // Responses are not for a dispatcher; anything else is not a request.
  if (info?.kind === "result" || info?.kind === "error") return undefined;
  return errorResponse(
    state.protocol,
    requestIdOf(validators, message),
    JSONRPC_ERRORS.INVALID_REQUEST,
    "Invalid request",
  );
}
