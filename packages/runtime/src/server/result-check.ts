import type { RequestContext } from "./context.js";
import { JSONRPC_ERRORS, McpError, withDetail } from "../core/errors.js";
import { unmarked } from "./extensions.js";
import { isObject } from "../core/protocol.js";
import { capCompletion } from "./result-rules.js";
import { report, type RouterState } from "./router-state.js";

/** The request a result answers. */
export interface AnsweredRequest {
  readonly id: string | number;
  /** Whether its method may answer input_required. */
  readonly mayAskInput: boolean;
  readonly ctx: Pick<RequestContext, "clientCapabilities">;
}

/**
 * A handler's result made ready to send (resultType filled in, server info added to a
 * response's `_meta`, checked against the method's result type, or by the extension that
 * built it), or undefined (reported) when it may not be sent. `request` is the one it answers;
 * an extension checking a result it keeps (a task's) gives none.
 */
export function checkResult(
  state: RouterState,
  method: string,
  raw: unknown,
  request?: AnsweredRequest,
): Record<string, unknown> | undefined {
  const { protocol, extensions } = state;
  const refuse = (problem: Error) => void report(state, problem, method, request?.id);
  if (!isObject(raw)) {
    const found = raw === null ? "null" : typeof raw;
    return refuse(new TypeError(`the ${method} handler returned ${found}, not a result object`));
  }
  let result = method === protocol.wellKnown.complete ? capCompletion(raw) : raw;
  if (protocol.resultType) {
    if (result["resultType"] === "input_required" && !(request?.mayAskInput ?? false))
      return refuse(new TypeError(`${method} may not answer input_required`));
    if (result["resultType"] === undefined) result = { ...result, resultType: "complete" };
  }
  const owner = extensions.ownerOf(method, raw, request?.ctx.clientCapabilities);
  if (owner && "problem" in owner) return refuse(new TypeError(owner.problem));
  if (owner) result = unmarked(result);
  const serverInfo = state.options.serverInfo;
  if (request && protocol.serverInfoKey !== null && serverInfo !== undefined) {
    const meta = isObject(result["_meta"]) ? result["_meta"] : {};
    result = { ...result, _meta: { ...meta, [protocol.serverInfoKey]: serverInfo } };
  }
  // An extension's requests are answered with what the extension built.
  if (owner || (state.validateResults && !extensions.requests.has(method))) {
    const checked = owner
      ? { errors: owner.validateResult(result) }
      : state.validators.validateMethodResult(method, result);
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
