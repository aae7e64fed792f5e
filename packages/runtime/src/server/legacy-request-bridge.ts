import { requestContext, type HandleContext, type RequestContext } from "./context.js";
import { requireInputCapabilities } from "./client-capabilities.js";
import { watchSignal } from "../core/cancellation.js";
import { JSONRPC_ERRORS, jsonRpcErrorOf, McpError } from "../core/errors.js";
import { adaptResult } from "./modern-router.js";
import { isObject, own, type ProtocolDescriptor } from "../core/protocol.js";
import type { Era } from "../core/era.js";
import type { RouterExtension } from "./extensions.js";
import { resultTypeProblem } from "./result-check.js";
import type { Handler } from "./router-types.js";
import type { LegacySession } from "./legacy-session.js";
import { backChannelError } from "./back-channel.js";

// A legacy request served by a handler written against the modern revision: the handler
// gets a modern context built from the session, and an input_required answer is fulfilled
// by asking the client on the session, then calling the handler again with the answers, as
// a modern client would retry.

/** What serving a legacy request with a modern handler takes. */
export interface LegacyBridge {
  /** The revision the handlers are written against. */
  readonly modern: Era;
  /** The extensions the dispatcher serves (a legacy client cannot read their results). */
  readonly extensions: readonly RouterExtension[] | undefined;
  /** Rounds of input_required a legacy request may take. */
  readonly maxRounds: number;
}

/** The context the legacy router gives a request handler. */
interface LegacyRequestContext {
  id: string | number;
  signal: AbortSignal;
  notify(n: object): Promise<void>;
  principal: string | undefined;
}

/**
 * The session's capabilities as a modern handler sees them: without the extensions the
 * dispatcher serves, whose results (a task handle, say) a legacy client could not read.
 */
export function legacyCapabilities(
  session: LegacySession,
  extensions: readonly RouterExtension[] | undefined,
): Record<string, unknown> {
  const declared = session.clientCapabilities["extensions"];
  if (!extensions?.length || !isObject(declared)) return session.clientCapabilities;
  const kept = { ...declared };
  for (const extension of extensions) delete kept[extension.id];
  return { ...session.clientCapabilities, extensions: kept };
}

/**
 * The modern per-request `_meta` a legacy request stands for: the session's version,
 * capabilities, client info and log level, and the request's own progress token (`given`
 * is the request's legacy `_meta`).
 */
export function modernMetaFor(
  modern: ProtocolDescriptor,
  session: LegacySession,
  given: Record<string, unknown>,
  extensions: readonly RouterExtension[] | undefined,
): Record<string, unknown> {
  const keys = modern.requestMeta;
  const meta: Record<string, unknown> = {};
  if (keys.protocolVersion !== null) meta[keys.protocolVersion] = session.version;
  if (keys.clientCapabilities !== null)
    meta[keys.clientCapabilities] = legacyCapabilities(session, extensions);
  if (keys.clientInfo !== null && session.clientInfo) meta[keys.clientInfo] = session.clientInfo;
  // Legacy clients get log messages until they set a level (logging/setLevel); modern ones
  // ask per request.
  const level = session.logLevel ?? modern.loggingLevels[0];
  if (keys.logLevel !== null && level !== undefined) meta[keys.logLevel] = level;
  const legacyKey = session.era.protocol.requestMeta.progressToken;
  const token = legacyKey === null ? undefined : own(given, legacyKey);
  if (keys.progressToken !== null && token !== undefined) meta[keys.progressToken] = token;
  return meta;
}

/**
 * A handler's refusal for a client capability the session's client did not declare, where
 * the legacy revision has no code for it (MISSING_REQUIRED_CLIENT_CAPABILITY is stateless
 * revisions'), is the server failing to serve the request on this session: a plain error,
 * which the router answers as the v2 SDK's legacy shim does (a tool execution error for
 * tools/call, server/tools "Error Handling"; -32603 otherwise). Other errors pass as they are.
 */
export function forLegacy(
  modern: ProtocolDescriptor,
  session: LegacySession,
  error: unknown,
): unknown {
  const code = modern.errorCodes.missingClientCapability;
  const legacyHasIt = session.era.protocol.errorCodes.missingClientCapability !== null;
  const raised = jsonRpcErrorOf(error);
  return raised && code !== null && raised.code === code && !legacyHasIt
    ? new Error(raised.message)
    : error;
}

/**
 * An input request's params as a legacy session's client reads them. A URL-mode elicitation
 * gets the `elicitationId` 2025-11-25 requires of it (client/elicitation, "URL Mode
 * Elicitation Requests"), which 2026-07-28 removed (changelog: with
 * notifications/elicitation/complete, which this server does not send); revisions before
 * 2025-11-25 have no URL mode, and their clients refuse the request either way.
 */
export function legacyInputParams(method: string, params: unknown): unknown {
  if (method !== "elicitation/create" || !isObject(params) || params["mode"] !== "url")
    return params;
  if (params["elicitationId"] !== undefined) return params;
  return { ...params, elicitationId: crypto.randomUUID() };
}

/** Asks the client on the session for each of an input_required result's input requests. */
async function askClient(
  session: LegacySession,
  inputRequests: unknown,
  legacyCtx: LegacyRequestContext,
): Promise<Record<string, unknown>> {
  const requests = isObject(inputRequests) ? inputRequests : {};
  const answers = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      const r = isObject(request) ? request : {};
      const method = String(r["method"]);
      return [
        key,
        await session.request(
          method,
          legacyInputParams(method, r["params"]),
          (m) => legacyCtx.notify(m),
          legacyCtx.signal,
          legacyCtx.id,
        ),
      ] as const;
    }),
  );
  return Object.fromEntries(answers);
}

/**
 * Throws for a modern handler's result that the modern router would not send either (as
 * result-check.ts and request-dispatch.ts refuse it): a resultType the modern revision does
 * not define, which would otherwise go out as a complete result once resultType is dropped,
 * or input the session's client did not declare, which would otherwise be asked of it.
 */
function refuseUnsendable(
  modern: ProtocolDescriptor,
  method: string,
  ctx: RequestContext,
  result: unknown,
): void {
  if (!isObject(result)) return;
  const resultType = result["resultType"];
  const mayAskInput = own(modern.methods, method)?.inputRequired ?? false;
  const problem = resultTypeProblem(modern, method, resultType, mayAskInput);
  if (problem) throw new TypeError(problem);
  if (resultType === "input_required")
    requireInputCapabilities(modern, ctx, result["inputRequests"]);
}

/**
 * Throws for input requests the transport cannot carry for this request (its serving mode,
 * see HandleContext.backChannelRefusal): before the client-capability check, so that the
 * error names the mode, not a capability the client of a stateless request never declared.
 */
function refuseWithoutBackChannel(
  session: LegacySession,
  requestId: string | number,
  result: unknown,
): void {
  if (!isObject(result) || result["resultType"] !== "input_required") return;
  const refusal = session.backChannelRefusal(requestId);
  if (refusal === undefined) return;
  const requests = isObject(result["inputRequests"]) ? Object.values(result["inputRequests"]) : [];
  const methods = requests.map((r) => (isObject(r) ? String(r["method"]) : "?"));
  throw backChannelError(methods.join(", ") || "input requests", refusal);
}

/**
 * A missing client capability on a request the transport serves without a back-channel is
 * the mode's doing (a stateless request knows none of the client's capabilities, declared
 * at initialize to another request): the error names the mode, not the capability alone.
 */
function refusedForMode(
  modern: ProtocolDescriptor,
  session: LegacySession,
  requestId: string | number,
  error: unknown,
): unknown {
  const refusal = session.backChannelRefusal(requestId);
  const raised = jsonRpcErrorOf(error);
  if (refusal === undefined || !raised || raised.code !== modern.errorCodes.missingClientCapability)
    return error;
  return new McpError(
    JSONRPC_ERRORS.INTERNAL_ERROR,
    `Cannot ask the client anything during this request: ${refusal} (${raised.message})`,
  );
}

/** `handler` (a modern one) serving `method`'s legacy requests on `session`. */
export function servedOnSession(
  bridge: LegacyBridge,
  session: LegacySession,
  method: string,
  handler: Handler,
): Handler {
  const { protocol: mp, validators: mv } = bridge.modern;
  const { maxRounds } = bridge;
  return async (params: Record<string, unknown>, legacyCtx: LegacyRequestContext) => {
    const given = isObject(params["_meta"]) ? params["_meta"] : {};
    const meta = modernMetaFor(mp, session, given, bridge.extensions);
    const context: HandleContext = {
      notify: (n: object) => legacyCtx.notify(n),
      ...(legacyCtx.principal !== undefined ? { principal: legacyCtx.principal } : {}),
    };
    // The legacy request's cancellation: its context's AbortSignal is made only when read.
    const cancellation = watchSignal(() => legacyCtx.signal);
    let retry: Record<string, unknown> = { ...params, _meta: { ...given, ...meta } };
    for (let round = 0; round < maxRounds; round++) {
      const request = {
        id: legacyCtx.id,
        method,
        params: retry,
        meta: retry["_meta"] as Record<string, unknown>,
      };
      const ctx = requestContext(mp, mv, request, context, cancellation);
      let result: unknown;
      try {
        result = await handler(retry, ctx);
        refuseWithoutBackChannel(session, legacyCtx.id, result);
        refuseUnsendable(mp, method, ctx, result);
      } catch (error) {
        throw forLegacy(mp, session, refusedForMode(mp, session, legacyCtx.id, error));
      }
      if (!isObject(result) || result["resultType"] !== "input_required")
        return adaptResult(session.era, method, result);
      const inputResponses = await askClient(session, result["inputRequests"], legacyCtx);
      retry = { ...params, _meta: { ...given, ...meta }, inputResponses };
      if (result["requestState"] !== undefined) retry["requestState"] = result["requestState"];
    }
    // A failure of the server, not of the request: for tools/call the router sends it as a
    // tool execution error (isError), as the SDK's legacy shim does; else -32603.
    throw new Error(`${method} still asked for input after ${maxRounds} rounds`);
  };
}
