import {
  requestContext,
  untilAnswered,
  type HandleContext,
  type RequestContext,
} from "./context.js";
import { jsonRpcErrorOf, JSONRPC_ERRORS } from "../core/errors.js";
import { errorResponse } from "./error-response.js";
import { markRaisedByHandler } from "./handler-marks.js";
import { requireClientCapability, requireInputCapabilities } from "./client-capabilities.js";
import { requestRoute, type RequestRoute } from "./method-routes.js";
import { isObject } from "../core/protocol.js";
import { Cancellation, cancellationOf } from "../core/cancellation.js";
import { invalidRequestReply, unsupportedVersionReply } from "./request-checks.js";
import { checkResult } from "./result-check.js";
import { toolExecutionError } from "./result-rules.js";
import { report, type RouterState } from "./router-state.js";
import { callThrough, requestCall } from "./middleware.js";
import { markScopeRefusal } from "./require-scopes.js";
import type { TracedRequest } from "../core/tracing.js";

/**
 * Answers a request (a valid JSON-RPC request envelope): refused before any handler runs
 * (unknown method, unsupported version, invalid params), or its handler's checked result or
 * error. A cancelled request gets no response (undefined).
 */
export function handleRequest(
  state: RouterState,
  message: Record<string, unknown>,
  context: HandleContext,
): Promise<Record<string, unknown> | undefined> | Record<string, unknown> {
  const tracer = state.options.traceRequest;
  if (tracer === undefined) return answerRequest(state, message, context);
  return tracer(tracedRequest(state, message, context), async () =>
    answerRequest(state, message, context),
  );
}

/** What the dispatcher's `traceRequest` is told about a request (core/tracing.ts). */
function tracedRequest(
  { protocol }: RouterState,
  message: Record<string, unknown>,
  context: HandleContext,
): TracedRequest {
  const params = isObject(message["params"]) ? message["params"] : {};
  const meta = isObject(params["_meta"]) ? params["_meta"] : {};
  const versionKey = protocol.requestMeta.protocolVersion;
  const named = versionKey === null ? undefined : meta[versionKey];
  return {
    id: message["id"] as string | number,
    method: message["method"] as string,
    params,
    protocolVersion: typeof named === "string" ? named : (protocol.protocolVersion ?? undefined),
    sessionId: context.sessionId,
    traceHeaders: context.traceHeaders,
  };
}

/** The refusal of a request, at once, or the promise of its handler's answer. */
function answerRequest(
  state: RouterState,
  message: Record<string, unknown>,
  context: HandleContext,
): Promise<Record<string, unknown> | undefined> | Record<string, unknown> {
  const id = message["id"] as string | number;
  const method = message["method"] as string;
  const route = requestRoute(state, method);
  if (!route) {
    return errorResponse(
      state.protocol,
      id,
      JSONRPC_ERRORS.METHOD_NOT_FOUND,
      `Method not found: ${method}`,
    );
  }
  const params = isObject(message["params"]) ? message["params"] : {};
  const meta = isObject(params["_meta"]) ? params["_meta"] : {};
  const refusal =
    unsupportedVersionReply(state, id, meta) ??
    // An extension's request has no schema here: its handler checks its params.
    (route.extension ? undefined : invalidRequestReply(state, message, id, method));
  if (refusal) return refusal;
  return runHandler(state, route, { id, method, params, meta }, context);
}

interface ReceivedRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly meta: Record<string, unknown>;
}

/** Calls the route's handler, cancellable while it runs, and answers with what it gives. */
async function runHandler(
  state: RouterState,
  route: RequestRoute,
  { id, method, params, meta }: ReceivedRequest,
  context: HandleContext,
): Promise<Record<string, unknown> | undefined> {
  const { protocol } = state;
  const transport = cancellationOf(context);
  if (transport?.aborted) return undefined;
  const cancellation = new Cancellation();
  const stopFollowing = transport?.onAbort((reason) => cancellation.abort(reason));
  const stopTracking = state.inFlight.track(context, id, cancellation);
  const scope = untilAnswered(context);
  const ctx: RequestContext = requestContext(
    protocol,
    state.validators,
    { id, method, params, meta },
    scope.context,
    cancellation,
  );
  let result: unknown;
  try {
    if (route.extension) requireClientCapability(protocol, ctx, ["extensions", route.extension.id]);
    result = await callHandler(state, route, { params, ctx }, context);
  } catch (error) {
    if (cancellation.aborted) return undefined;
    const raised = jsonRpcErrorOf(error);
    if (raised)
      return markScopeRefusal(
        markRaisedByHandler(errorResponse(protocol, id, raised.code, raised.message, raised.data)),
        error,
      );
    report(state, error, method, id);
    if (method !== protocol.wellKnown.toolsCall)
      return errorResponse(protocol, id, JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error");
    result = toolExecutionError(error);
  } finally {
    scope.end();
    stopTracking();
    stopFollowing?.();
  }
  if (cancellation.aborted) return undefined;
  return answer(state, route, { id, method, ctx }, result);
}

/** The route's handler, inside the middleware when there is any (middleware.ts). */
function callHandler(
  state: RouterState,
  route: RequestRoute,
  { params, ctx }: { params: Record<string, unknown>; ctx: RequestContext },
  context: HandleContext,
): unknown {
  const layers = state.middleware;
  if (layers.length === 0) return route.handler(params, ctx);
  const call = requestCall(ctx, params, context.authInfo, state.protocol.wellKnown.toolsCall);
  const failed = (error: unknown) => report(state, error, ctx.method, ctx.id);
  return callThrough(layers, call, () => route.handler(params, ctx), failed);
}

/** The response carrying a handler's result, once checked (result-check.ts). */
function answer(
  state: RouterState,
  route: RequestRoute,
  { id, method, ctx }: Pick<ReceivedRequest, "id" | "method"> & { ctx: RequestContext },
  result: unknown,
): Record<string, unknown> {
  const { protocol } = state;
  const mayAskInput = route.entry?.inputRequired ?? false;
  const sent = checkResult(state, method, result, { id, mayAskInput, ctx });
  if (!sent) return errorResponse(protocol, id, JSONRPC_ERRORS.INTERNAL_ERROR, "Internal error");
  if (sent["resultType"] === "input_required") {
    // Asking for input the client did not declare is answered as inputRequired() answers it,
    // however the result was made: a missing-capability error (2026-07-28 basic/index,
    // "Request Metadata": the server MUST return MissingRequiredClientCapabilityError).
    try {
      requireInputCapabilities(protocol, ctx, sent["inputRequests"]);
    } catch (error) {
      const raised = jsonRpcErrorOf(error);
      if (!raised) throw error; // unreadable input requests, sent unchecked (validateResults: false)
      const { code, message, data } = raised;
      return markRaisedByHandler(errorResponse(protocol, id, code, message, data));
    }
  }
  return { jsonrpc: "2.0", id, result: sent };
}
