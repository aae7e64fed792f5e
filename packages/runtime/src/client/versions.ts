import { EraUnsupportedError } from "./errors.js";
import { own } from "../core/protocol.js";
import type { AdaptedEra } from "../core/era.js";

// A client generated with older revisions beside the newest reads their results in the
// newest revision's shape. Older stateless revisions are also versions it offers: a server
// that refuses the newest one with the versions it supports gets a retry with one of them
// (2026-07-28 basic/versioning, "Protocol Version Negotiation": the client SHOULD select a
// mutually supported version from `supported` and retry), after which methods that revision
// lacks fail before anything is sent, as on a legacy session.

type Json = Record<string, unknown>;

/**
 * Result fields the newest revision has and older ones lack, with the value that keeps an
 * older result's meaning: complete, not to be reused. Which fields a method lacks comes from
 * the two models (the era's adapters); these values are the spec's meaning, written here.
 */
export const MODERN_RESULT_DEFAULTS: Json = {
  resultType: "complete",
  ttlMs: 0,
  cacheScope: "private",
};

/** A result of an older revision in the newest revision's shape. */
export function inNewestShape(era: AdaptedEra | undefined, method: string, result: Json): Json {
  const lacking = own(era?.adapters ?? {}, method)?.dropResultFields ?? [];
  const out: Json = { ...result };
  for (const field of ["resultType", ...lacking]) {
    const value = own(MODERN_RESULT_DEFAULTS, field);
    if (out[field] === undefined && value !== undefined) out[field] = value;
  }
  return out;
}

/** The older stateless revisions a client speaks, by the version each names. */
export function olderRevisions(previous: readonly AdaptedEra[]) {
  const byVersion = new Map(previous.map((era) => [era.protocol.protocolVersion, era]));
  return {
    versions: [...byVersion.keys()].filter((v): v is string => v !== null),
    /** Refuses a method the revision of `version` lacks (none: the newest has every method). */
    check(version: string | undefined, method: string): void {
      const era = byVersion.get(version ?? null);
      const entry = era && own(era.protocol.methods, method);
      if (era && (entry?.kind !== "request" || !entry.directions.includes("client->server")))
        throw new EraUnsupportedError(method, version!);
    },
    /** The older revision of `version` (none for the newest). */
    eraOf(version: string | undefined): AdaptedEra | undefined {
      return byVersion.get(version ?? null);
    },
    /** A result got at `version`, in the newest revision's shape. */
    adapt(version: string | undefined, method: string, result: Json): Json {
      const era = byVersion.get(version ?? null);
      return era ? inNewestShape(era, method, result) : result;
    },
  };
}
