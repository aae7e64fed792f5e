import { McpError } from "../core/errors.js";
import { isObject, type ProtocolDescriptor } from "../core/protocol.js";
import { headerValue } from "../core/tool-headers.js";
import type { EngineContext } from "./sender-state.js";
import type { CallOptions } from "../core/transport.js";

// What the client engine puts on the wire: a request's `_meta`, one round with the headers
// and the cancellation the wire needs, and the retry at a version both sides speak.

type Json = Record<string, unknown>;

/** The sender's own `_meta` fields. */
export interface SenderMetaFields {
  readonly version: string | undefined;
  readonly capabilities: Json;
  readonly clientInfo: object | undefined;
}

/** The `_meta` of one request: protocol fields, then the caller's (never dropped). */
export function requestMeta(
  keys: ProtocolDescriptor["requestMeta"],
  sender: SenderMetaFields,
  params: Json,
  opts: CallOptions,
  progressToken: string | undefined,
): Json | undefined {
  const meta: Json = {};
  // The version goes wherever the revision has the key, even without an unsupported-version
  // code (a draft may add the key first): the key is required, so leaving it out gets -32602.
  const versionKey = keys.protocolVersion;
  if (versionKey !== null && sender.version !== undefined) meta[versionKey] = sender.version;
  if (keys.clientCapabilities !== null) meta[keys.clientCapabilities] = sender.capabilities;
  if (keys.clientInfo !== null && sender.clientInfo) meta[keys.clientInfo] = sender.clientInfo;
  if (keys.logLevel !== null && opts.logLevel) meta[keys.logLevel] = opts.logLevel;
  if (keys.progressToken !== null && progressToken !== undefined)
    meta[keys.progressToken] = progressToken;
  const merged = {
    ...meta,
    ...(isObject(params["_meta"]) ? params["_meta"] : {}),
    ...(opts.meta ?? {}),
  };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** requestMeta with the sender's fields as they are now (the version may have changed). */
export function senderMeta(
  ctx: EngineContext,
  params: Json,
  opts: CallOptions,
  progressToken: string | undefined,
  keys: ProtocolDescriptor["requestMeta"] = ctx.protocol.requestMeta,
): Json | undefined {
  const { metaCapabilities: capabilities, clientInfo } = ctx.settings;
  const fields = { version: ctx.version.current, capabilities, clientInfo };
  return requestMeta(keys, fields, params, opts, progressToken);
}

/** One round; on the modern wire, tools/call carries the Mcp-Param headers tools/list announced. */
export function sendRound(
  ctx: EngineContext,
  method: string,
  params: Json,
  opts: CallOptions,
  progressToken: string | undefined,
  modernWire = true,
): Promise<Json> {
  const headers = modernWire
    ? (ctx.toolHeaderPlans.headersFor(method, params) ?? taskNameHeader(ctx, method, params))
    : undefined;
  return ctx.round.send(method, params, opts, progressToken, {
    headers,
    // Modern Streamable HTTP cancels by closing the stream; legacy sessions and stdio notify.
    cancelNotice: !(modernWire && ctx.settings.transport.closesStreamOnAbort === true),
    longLived: method === ctx.protocol.wellKnown.subscriptionsListen,
  });
}

/** The task methods whose Streamable HTTP request carries the task's id in Mcp-Name. */
const TASK_METHODS = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/**
 * The Tasks extension's routing header ("Streamable HTTP: Routing Headers": the client MUST
 * set Mcp-Name to params.taskId on tasks/get, tasks/update and tasks/cancel, so that
 * intermediaries route them to the instance holding the task). The core schema does not have
 * these methods, so the transport's own routing headers leave it out.
 */
function taskNameHeader(
  ctx: EngineContext,
  method: string,
  params: Json,
): Record<string, string> | undefined {
  const name = headerValue(params["taskId"]);
  if (!TASK_METHODS.has(method) || name === undefined) return undefined;
  return { [ctx.protocol.http.nameHeader]: name };
}

/** The versions a server named when it refused ours (undefined: `error` is no such refusal). */
export function versionsOfRefusal(
  protocol: ProtocolDescriptor,
  error: unknown,
): unknown[] | undefined {
  const code = protocol.errorCodes.unsupportedProtocolVersion;
  if (code === null || !(error instanceof McpError) || error.code !== code) return undefined;
  const data = isObject(error.data) ? error.data : undefined;
  return Array.isArray(data?.["supported"]) ? (data["supported"] as unknown[]) : undefined;
}

/** sendRound(), retrying once with a version both sides speak when the server refuses ours. */
export async function sendNegotiated(
  ctx: EngineContext,
  method: string,
  params: Json,
  opts: CallOptions,
  progressToken: string | undefined,
): Promise<Json> {
  try {
    return await sendRound(ctx, method, params, opts, progressToken);
  } catch (error) {
    const versionKey = ctx.protocol.requestMeta.protocolVersion;
    const supported = versionsOfRefusal(ctx.protocol, error);
    if (versionKey === null || supported === undefined) throw error;
    const pick = ctx.version.switchTo(supported);
    if (pick === undefined) throw error;
    const meta = { ...(isObject(params["_meta"]) ? params["_meta"] : {}), [versionKey]: pick };
    return sendRound(ctx, method, { ...params, _meta: meta }, opts, progressToken);
  }
}
