import type { RequestContext } from "./context.js";
import { JSONRPC_ERRORS, McpError, withDetail } from "../core/errors.js";
import { unmarked, type RouterExtension } from "./extensions.js";
import { jsonForm } from "./json-form.js";
import { isObject, type ProtocolDescriptor } from "../core/protocol.js";
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
 * Why a handler of `method` may not answer `resultType` (a revision with resultType), or
 * nothing: the core protocol defines "complete" (also meant by none) and "input_required"
 * (for methods that may ask), and "A resultType of any value unrecognized by the client
 * MUST be considered invalid" (2026-07-28 basic/index, "ResultType"). Extensions add
 * theirs on the results they build, which they check themselves.
 */
export function resultTypeProblem(
  protocol: Pick<ProtocolDescriptor, "revision">,
  method: string,
  resultType: unknown,
  mayAskInput: boolean,
): string | undefined {
  if (resultType === undefined || resultType === "complete") return undefined;
  if (resultType === "input_required")
    return mayAskInput ? undefined : `${method} may not answer input_required`;
  const shown =
    typeof resultType === "string" ? JSON.stringify(resultType) : `of type ${typeof resultType}`;
  return `${method} answered resultType ${shown}, which revision ${protocol.revision} does not define`;
}

/**
 * A handler's result made ready to send (in its JSON form, resultType filled in, server info
 * added to a response's `_meta`, checked against the method's result type, or by the
 * extension that built it), or undefined (reported) when it may not be sent. `request` is
 * the one it answers; an extension checking a result it keeps (a task's) gives none.
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
  const owner = extensions.ownerOf(method, raw, request?.ctx.clientCapabilities);
  if (owner && "problem" in owner) return refuse(new TypeError(owner.problem));
  // An extension's requests are answered with what the extension built.
  const validate =
    owner !== undefined || (state.validateResults && !extensions.requests.has(method));
  let result: Record<string, unknown> = owner ? unmarked(raw) : raw;
  if (validate) {
    const sent = inJsonForm(method, result);
    if (sent instanceof Error) return refuse(sent);
    result = sent;
  }
  if (method === protocol.wellKnown.complete) result = capCompletion(result);
  let completed = false;
  if (protocol.resultType && !owner) {
    const problem = resultTypeProblem(
      protocol,
      method,
      result["resultType"],
      request?.mayAskInput ?? false,
    );
    if (problem) return refuse(new TypeError(problem));
    completed = result["resultType"] === undefined;
  }
  const serverInfo = state.options.serverInfo;
  // resultType and the server info are added in one copy of the result (the handler's own
  // object is left as it is).
  if (request && protocol.serverInfoKey !== null && serverInfo !== undefined) {
    const meta = isObject(result["_meta"]) ? result["_meta"] : {};
    const _meta = { ...meta, [protocol.serverInfoKey]: serverInfo };
    result = completed ? { ...result, resultType: "complete", _meta } : { ...result, _meta };
  } else if (completed) result = { ...result, resultType: "complete" };
  const problems = validate ? resultErrors(state, method, result, owner) : undefined;
  // For onError only (the client gets a generic -32603): the first error in the message,
  // since logging the error prints data.errors as [Object].
  if (problems)
    return refuse(
      new McpError(
        JSONRPC_ERRORS.INTERNAL_ERROR,
        withDetail(`invalid ${method} result`, problems),
        { errors: problems },
      ),
    );
  return result;
}

/** `result` as the client gets it, which is what is checked (see json-form.ts). */
function inJsonForm(
  method: string,
  result: Record<string, unknown>,
): Record<string, unknown> | Error {
  const sent = jsonForm(result);
  if (sent.ok && isObject(sent.value)) return sent.value;
  const why = sent.ok ? "its JSON form is not an object" : sent.problem;
  return new TypeError(`the ${method} result cannot be sent as JSON: ${why}`);
}

/** What is wrong with `result` by the method's result type, or by the extension that built it. */
function resultErrors(
  state: RouterState,
  method: string,
  result: Record<string, unknown>,
  owner: RouterExtension | undefined,
): readonly { readonly path: string; readonly message: string }[] | undefined {
  const checked = owner
    ? { errors: owner.validateResult(result) }
    : state.validators.validateMethodResult(method, result);
  return "errors" in checked && checked.errors.length > 0 ? checked.errors : undefined;
}
