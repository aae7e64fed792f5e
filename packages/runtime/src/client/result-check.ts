import { McpProtocolError } from "./errors.js";
import { inNewestShape } from "./versions.js";
import type { EngineContext } from "./sender-state.js";
import type { AdaptedEra } from "../core/era.js";

// The results a sender returns: checked (unless validateResults is off) and in the newest
// revision's shape, whichever revision the server answered in.

type Json = Record<string, unknown>;

/**
 * A result checked and in the newest revision's shape. One of an older revision (`era`) is
 * checked at that revision, as it was sent, then given the fields only the newest has where
 * they have a default: a field a draft adds with none stays out (typed optional for it).
 */
export function checkResult(ctx: EngineContext, method: string, raw: Json, era?: AdaptedEra): Json {
  const result = era
    ? olderRevisionResult(ctx, method, raw, era)
    : newestRevisionResult(ctx, method, raw);
  ctx.toolHeaderPlans.learn(method, result);
  ctx.toolTaskSupport.learn(ctx.protocol, method, result);
  return result;
}

function olderRevisionResult(ctx: EngineContext, method: string, raw: Json, era: AdaptedEra): Json {
  if (ctx.settings.validateResults) {
    const checked = era.validators.validateMethodResult(method, raw);
    if (!checked.ok) throw new McpProtocolError(`invalid ${method} result`, checked.errors);
  }
  return inNewestShape(era, method, raw);
}

function newestRevisionResult(ctx: EngineContext, method: string, raw: Json): Json {
  // A result without resultType comes from an older server: it is complete.
  const result =
    ctx.protocol.resultTypeRequired && raw["resultType"] === undefined
      ? { ...raw, resultType: "complete" }
      : raw;
  if (ctx.settings.validateResults) {
    const checked = ctx.validators.validateMethodResult(method, result);
    if (!checked.ok)
      throw new McpProtocolError(`invalid ${method} result${legacyHint(ctx, raw)}`, checked.errors);
  }
  return result;
}

/**
 * Why a result without resultType fails, when the likely reason is an initialize-based server
 * spoken to as a modern one: it lacks every field only the newest revision has (`ttlMs`...),
 * which alone would not say what to do.
 */
export function legacyHint(ctx: EngineContext, raw: Json): string {
  if (!ctx.protocol.resultTypeRequired || raw["resultType"] !== undefined) return "";
  const remedy =
    ctx.settings.legacyEras.length === 0
      ? ", which this client was generated without (list them in --revisions)"
      : ctx.settings.mode === "modern"
        ? `, and the client's era is pinned to "modern"`
        : "";
  return ` (it has no resultType: the server may speak only initialize-based revisions${remedy})`;
}
