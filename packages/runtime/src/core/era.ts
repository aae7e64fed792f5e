import type { MessageValidators, ProtocolDescriptor } from "./protocol.js";

// The revisions a runtime speaks, as both sides see them: the newest one, which handlers and
// typed clients are written against, and older ones with what differs from it.

/** One revision the server speaks, as the runtime sees it. */
export interface Era {
  readonly protocol: ProtocolDescriptor;
  readonly validators: MessageValidators;
}

/**
 * An older revision, with what differs from the newest one the handlers are written
 * against (derived from the two revisions' models at generation).
 */
export interface AdaptedEra extends Era {
  /** Per method: result fields the handlers' revision has and this one does not (dropped on the way out). */
  readonly adapters: {
    readonly [method: string]: { readonly dropResultFields: readonly string[] };
  };
}

/** A legacy (initialize-based) revision. */
export type LegacyEra = AdaptedEra;
