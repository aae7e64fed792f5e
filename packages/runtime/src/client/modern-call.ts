import { isObject, own } from "../core/protocol.js";
import { McpProtocolError, RoundLimitError } from "./errors.js";
import { fulfilInputRequests } from "./input.js";
import { checkResult } from "./result-check.js";
import { createdTask } from "./task-modern.js";
import { sendNegotiated, senderMeta } from "./wire.js";
import type { EngineContext } from "./sender-state.js";
import type { CallOptions } from "../core/transport.js";

// A call to a modern server: `_meta` on the request itself, and the multi round-trip
// (input_required) dance where the revision has it: fulfil every input request, retry the
// same request under a new id with the answers and the server's requestState, within a bound.

type Json = Record<string, unknown>;

/**
 * A call's options, with manual mode (input_required answered by the caller) and, for
 * task-calls.ts, whether a CreateTaskResult is an answer (the Tasks extension declared).
 */
export type ModernCallOptions = CallOptions & { manual?: boolean; acceptTask?: boolean };

/** A call of the newest revision's API on a modern server, its result checked and adapted. */
export async function modernCall(
  ctx: EngineContext,
  method: string,
  rawParams: unknown,
  opts: ModernCallOptions = {},
): Promise<Json> {
  const { protocol, settings } = ctx;
  settings.older.check(ctx.version.current, method);
  const params: Json = isObject(rawParams) ? { ...rawParams } : {};
  const progressToken =
    opts.onProgress && protocol.requestMeta.progressToken !== null
      ? ctx.round.progressToken()
      : undefined;
  const meta = senderMeta(ctx, params, opts, progressToken);
  const base: Json = { ...params };
  delete base["_meta"];
  if (meta) base["_meta"] = meta;
  const adapted = (result: Json) =>
    opts.acceptTask && result["resultType"] === "task"
      ? createdTask(method, result)
      : checkResult(ctx, method, result, settings.older.eraOf(ctx.version.current));
  if (!protocol.features.mrtr)
    return adapted(await sendNegotiated(ctx, method, base, opts, progressToken));
  // Manual mode: the caller answers input_required itself, retrying with its own
  // inputResponses and requestState; the automatic mode owns both fields.
  if (!opts.manual) {
    delete base["inputResponses"];
    delete base["requestState"];
  }
  const mayAskInput = own(protocol.methods, method)?.inputRequired === true;
  let retry: Json = base;
  for (let round = 0; ; round++) {
    const result = await sendNegotiated(ctx, method, retry, opts, progressToken);
    if (result["resultType"] !== "input_required") return adapted(result);
    if (!mayAskInput) throw new McpProtocolError(`${method} may not answer input_required`);
    const interim = ctx.validators.validateInputRequiredResult?.(result);
    if (interim && !interim.ok)
      throw new McpProtocolError(`invalid input_required answer to ${method}`, interim.errors);
    if (opts.manual) return result;
    if (round + 1 >= settings.maxRounds) throw new RoundLimitError(round + 1);
    const inputResponses = await fulfilInputRequests(
      protocol,
      ctx.validators,
      settings.capabilities,
      settings.inputHandlers,
      isObject(result["inputRequests"]) ? result["inputRequests"] : {},
      opts.signal,
    );
    // The same request again, under a new id: answers at the same keys, requestState as given.
    retry = { ...base };
    if (Object.keys(inputResponses).length > 0) retry["inputResponses"] = inputResponses;
    if (result["requestState"] !== undefined) retry["requestState"] = result["requestState"];
  }
}
