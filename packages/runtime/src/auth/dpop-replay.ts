// The DPoP proofs a server has accepted, remembered against replay (RFC 9449 section 11.1).
// A cache that forgets its oldest entries when full can be flushed by any client able to send
// fresh proofs, after which a captured proof is accepted again. This one never forgets a
// proof that could still be accepted: it keeps each only for the window in which the `iat`
// check would let it through, counts proofs per bucket (the principal, else the key) and in
// all, and when either count is at its limit it refuses the new proof instead (fail closed),
// so a flooding principal only locks itself out until its proofs age out.

/** Why a proof is not taken: already seen, or no room to remember it. */
export type ReplayRefusal = "replayed" | "bucket full" | "full";

export interface ReplayCache {
  /**
   * Records proof `id` (key thumbprint and jti) in `bucket` at `now` (epoch seconds), or says
   * why not; a proof refused is not recorded.
   */
  record(bucket: string, id: string, now: number): ReplayRefusal | undefined;
}

export interface ReplayCacheLimits {
  /** Proofs remembered in all. */
  readonly size: number;
  /** Proofs remembered per bucket. */
  readonly sizePerBucket: number;
  /** Seconds a proof stays acceptable after it was first accepted, at most. */
  readonly windowSeconds: number;
}

export function createReplayCache({
  size,
  sizePerBucket,
  windowSeconds,
}: ReplayCacheLimits): ReplayCache {
  // id -> its bucket and the last second it could be accepted. Every entry gets the same
  // window from the time it was recorded, so insertion order is expiry order and expired
  // entries are always at the front.
  const seen = new Map<string, { bucket: string; until: number }>();
  const counts = new Map<string, number>();

  function sweep(now: number): void {
    for (const [id, { bucket, until }] of seen) {
      if (until >= now) return;
      seen.delete(id);
      const left = counts.get(bucket)! - 1;
      if (left === 0) counts.delete(bucket);
      else counts.set(bucket, left);
    }
  }

  return {
    record(bucket, id, now) {
      sweep(now);
      if (seen.has(id)) return "replayed";
      const count = counts.get(bucket) ?? 0;
      if (count >= sizePerBucket) return "bucket full";
      if (seen.size >= size) return "full";
      seen.set(id, { bucket, until: now + windowSeconds });
      counts.set(bucket, count + 1);
      return undefined;
    },
  };
}
