import { EraUnsupportedError, McpProtocolError } from "./errors.js";
import { hasCapability } from "../core/errors.js";
import { own, type ProtocolDescriptor } from "../core/protocol.js";
import type { LegacyClient } from "./legacy-client.js";
import type { LegacyEra } from "../core/era.js";
import type { CallOptions, Transport } from "../core/transport.js";

// Calls only initialize-based revisions have, on the typed API of a client whose newest
// revision dropped them (2026-07-28 changelog, major changes 4 and 5: ping, logging/setLevel,
// notifications/roots/list_changed removed; resources/subscribe and /unsubscribe replaced by
// subscriptions/listen). On a legacy session they are sent as the negotiated revision has them;
// whether a revision has one is read from its method table, never assumed per revision.

type Json = Record<string, unknown>;
type Names = { readonly [method: string]: string };

/** What the legacy calls need from the client engine (client.ts). */
export interface LegacyCallsContext {
  readonly protocol: ProtocolDescriptor;
  readonly legacyEras: readonly LegacyEra[];
  readonly transport: Transport;
  /** The capabilities the client declares (at initialize, on legacy sessions). */
  readonly capabilities: Json;
  /** The legacy session, opened, when the server is legacy (probing the era once). */
  connection(signal: AbortSignal | undefined): Promise<LegacyClient | undefined>;
  /** The legacy session this client has opened or is opening, if any (no probe). */
  openedSession(): LegacyClient | undefined;
  legacyCall(
    session: LegacyClient,
    method: string,
    params: unknown,
    opts: CallOptions,
  ): Promise<Json>;
  /** A call of the newest revision's API (era-aware). */
  call(method: string, params: unknown, opts: CallOptions): Promise<Json>;
  /** The version spoken to a modern server. */
  version(): string | undefined;
}

/** The legacy-only calls `shape` names, as functions of `api`. */
export function addLegacyCalls(
  api: Json,
  shape: { readonly functions: Names; readonly notifications: Names } | undefined,
  ctx: LegacyCallsContext,
): void {
  for (const [method, fn] of Object.entries(shape?.functions ?? {}))
    api[fn] = (params: unknown, options?: CallOptions) =>
      legacyRequest(ctx, method, params, options);
  for (const [method, fn] of Object.entries(shape?.notifications ?? {}))
    api[fn] = (params?: unknown) => legacyNotification(ctx, method, params);
}

/** A legacy-only request: sent on a legacy session; on a modern server, see `modernStandIn`. */
export async function legacyRequest(
  ctx: LegacyCallsContext,
  method: string,
  params: unknown,
  opts: CallOptions = {},
): Promise<Json> {
  const session = await ctx.connection(opts.signal);
  if (!session) return modernStandIn(ctx, method, opts);
  const result = await ctx.legacyCall(session, method, params, opts);
  session.called(method, params);
  return result;
}

/**
 * 2026-07-28 has no ping (changelog, major change 5). Its nearest equivalent is server/discover,
 * which every modern server MUST answer (server/discover) and which has no side effects: ping()
 * then resolves once it is answered, so liveness checks need no branch per era. Every other
 * legacy-only request has no modern meaning (log levels go per request in `_meta`; change
 * notifications come through subscriptions/listen) and is refused before anything is sent.
 */
async function modernStandIn(ctx: LegacyCallsContext, method: string, opts: CallOptions) {
  const isPing = ctx.legacyEras.some((era) => era.protocol.wellKnown.ping === method);
  const discover = ctx.protocol.wellKnown.discover;
  if (isPing && discover !== null) {
    await ctx.call(discover, {}, opts);
    return {};
  }
  throw new EraUnsupportedError(method, ctx.version() ?? ctx.protocol.protocolVersion ?? "modern");
}

/**
 * A legacy-only client notification (notifications/roots/list_changed). Sent only on a session
 * this client has opened whose revision has it: without one the server has not been told
 * anything that could have changed (it asks roots/list after initialize), and a modern server
 * asks for roots as an input request each time it needs them (2026-07-28 client/roots), so
 * there is nothing to tell. Where the method table gates it on a client capability
 * (roots.listChanged), the client must have declared it (2025-11-25 client/roots: clients that
 * declare listChanged MUST send the notification when roots change; others do not send it).
 */
export async function legacyNotification(
  ctx: LegacyCallsContext,
  method: string,
  params: unknown,
): Promise<void> {
  // The gate is checked whatever the server's era: an undeclared capability is the caller's
  // mistake, better found on the first call than on the first legacy server.
  for (const era of ctx.legacyEras) {
    const gate = clientNotification(era, method)?.capabilities["client->server"];
    if (gate?.side === "client" && !hasCapability(ctx.capabilities, gate.path)) {
      throw new McpProtocolError(
        `${method} is sent only by a client that declares the ${gate.path.join(".")} capability (capabilities option)`,
      );
    }
  }
  const session = ctx.openedSession();
  // Not after close(): open() would start a new session just to notify it.
  if (!session?.isOpen) return;
  await session.open();
  if (!session.era || !clientNotification(session.era, method)) return;
  await ctx.transport.notify({
    jsonrpc: "2.0",
    method,
    ...(params !== undefined ? { params } : {}),
  });
}

/** The method-table entry of `method` when it is a notification the client sends in `era`. */
function clientNotification(era: LegacyEra, method: string) {
  const entry = own(era.protocol.methods, method);
  return entry?.kind === "notification" && entry.directions.includes("client->server")
    ? entry
    : undefined;
}
