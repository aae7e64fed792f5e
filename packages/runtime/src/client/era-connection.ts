import { own } from "../core/protocol.js";
import { eraOf, forgetEra, looksLegacy, probeEra, type EraName } from "./era-probe.js";
import { LegacyClient } from "./legacy-client.js";
import { sendNegotiated, sendRound, senderMeta } from "./wire.js";
import type { EngineContext } from "./sender-state.js";

// Given legacy eras, a sender also reaches initialize-based servers (legacy-client.ts), after
// finding out once per transport which era the server speaks (era-probe.ts). This holds the
// legacy session of one sender, opened when the server turns out to be legacy.

type Json = Record<string, unknown>;

export class EraConnection {
  private session: LegacyClient | undefined = undefined;
  private readonly ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.ctx = ctx;
  }

  /** The legacy session this sender has opened or is opening, if any (no probe). */
  get opened(): LegacyClient | undefined {
    return this.session;
  }

  /** Which era the server speaks; the legacy session, opened, when it is legacy. */
  async connect(signal: AbortSignal | undefined): Promise<LegacyClient | undefined> {
    const { mode, legacyVersions, transport } = this.ctx.settings;
    if (legacyVersions.length === 0 || mode === "modern") return undefined;
    // A transport that cannot carry a session (in-process) reaches modern servers only.
    if (mode === "auto" && !transport.legacy) return undefined;
    const era = mode === "legacy" ? "legacy" : await eraOf(transport, () => this.probe());
    if (era === "modern") return undefined;
    const session = (this.session ??= this.newSession());
    // A failed initialize may contradict the probe's verdict (silence; on HTTP, a modern server
    // still starting): the next call probes again instead of keeping it.
    await session.open(signal).catch((error: unknown) => {
      if (mode === "auto") forgetEra(transport);
      throw error;
    });
    return session;
  }

  /**
   * After a modern call failed with `error`: the legacy session, when the era was a cached
   * assumption and the server now answers like a legacy one (probed again). Else `error`.
   */
  async reconnectAfter(error: unknown, signal: AbortSignal | undefined): Promise<LegacyClient> {
    const { mode, legacyVersions, transport } = this.ctx.settings;
    if (mode !== "auto" || legacyVersions.length === 0 || !transport.legacy || !looksLegacy(error))
      throw error;
    forgetEra(transport);
    const again = await this.connect(signal);
    if (!again) throw error;
    return again;
  }

  async close(): Promise<void> {
    await this.session?.close();
  }

  private newSession(): LegacyClient {
    const { ctx } = this;
    const { settings } = ctx;
    return new LegacyClient({
      modern: settings.modernEra!,
      eras: settings.legacyEras,
      versions: settings.legacyVersions,
      transport: settings.transport,
      capabilities: settings.capabilities,
      clientInfo: settings.clientInfo,
      onNotification: settings.onNotification,
      send: (method, params, signal) =>
        sendRound(ctx, method, params, signal ? { signal } : {}, undefined, false),
      answerInput: (method, params, key, signal) => {
        const handler = own(settings.inputHandlers, method);
        return handler ? Promise.resolve(handler(params, { key, method, signal })) : undefined;
      },
    });
  }

  /** The era probe: server/discover, answered validly or with a modern error by modern servers only. */
  private probe(): Promise<EraName> {
    const { ctx } = this;
    const params: Json = {};
    const meta = senderMeta(ctx, params, {}, undefined);
    if (meta) params["_meta"] = meta;
    return probeEra(
      ctx.protocol,
      () => ctx.settings.older.eraOf(ctx.version.current)?.validators ?? ctx.validators,
      (method) =>
        sendNegotiated(ctx, method, params, { timeoutMs: ctx.settings.probeTimeoutMs }, undefined),
      (offered) => ctx.version.adoptDiscovered(offered),
    );
  }
}
