import { isObject } from "../core/protocol.js";
import { SessionExpiredError } from "./errors.js";
import { checkResult } from "./result-check.js";
import { sendRound, senderMeta } from "./wire.js";
import type { LegacyClient } from "./legacy-client.js";
import type { EngineContext } from "./sender-state.js";
import type { CallOptions } from "../core/transport.js";

type Json = Record<string, unknown>;

/**
 * A call on a legacy session: the legacy wire shape out, the newest revision's shape back.
 * `check` reads the answer instead when it is not the method's own result (a task-augmented
 * tools/call answers with a CreateTaskResult, 2025-11-25 basic/utilities/tasks).
 */
export async function callOnSession<R = Json>(
  ctx: EngineContext,
  session: LegacyClient,
  method: string,
  rawParams: unknown,
  opts: CallOptions,
  check: (raw: Json) => R = (raw) => checkResult(ctx, method, raw, session.era) as R,
): Promise<R> {
  if (!session.has(method)) {
    if (method === ctx.protocol.wellKnown.discover)
      return checkResult(ctx, method, session.discoverResult()) as R;
    throw session.unsupported(method);
  }
  const params: Json = isObject(rawParams) ? { ...rawParams } : {};
  delete params["inputResponses"];
  delete params["requestState"];
  const keys = session.era!.protocol.requestMeta;
  const progressToken =
    opts.onProgress && keys.progressToken !== null ? ctx.round.progressToken() : undefined;
  const meta = senderMeta(ctx, params, opts, progressToken, keys);
  delete params["_meta"];
  if (meta) params["_meta"] = meta;
  if (opts.logLevel) await session.setLevel(opts.logLevel, opts.signal);
  let raw: Json;
  try {
    raw = await sendRound(ctx, method, params, opts, progressToken, false);
  } catch (error) {
    if (!(error instanceof SessionExpiredError)) throw error;
    await session.reopen(opts.signal);
    raw = await sendRound(ctx, method, params, opts, progressToken, false);
  }
  return check(raw);
}
