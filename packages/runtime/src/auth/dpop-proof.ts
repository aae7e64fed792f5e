import { calculateJwkThumbprint, decodeProtectedHeader, errors, importJWK, jwtVerify } from "jose";
import { createReplayCache, type ReplayRefusal } from "./dpop-replay.js";
import {
  canonicalResource,
  InvalidDPoPProofError,
  type DPoPProofCheck,
} from "./resource-server.js";

// A `dpop.verifyProof` for resource-server options: the checks RFC 9449 section 4.3 asks of a
// server receiving a DPoP proof, and section 7.1's `ath`, done with jose. The resource server
// then compares the key's thumbprint with the token's `cnf.jkt`.

export interface DPoPProofVerifierOptions {
  /** Accepted proof algorithms (default: the asymmetric ones, never `none` or HMAC). */
  algorithms?: readonly string[];
  /** How old (`iat`) a proof may be, in seconds (default 300, as the suite's servers allow). */
  maxAgeSeconds?: number;
  /** Seconds of clock skew allowed on `iat` (default 30). */
  clockToleranceSeconds?: number;
  /**
   * Proofs remembered against replay (their key and `jti`), in all (default 100,000). Each is
   * kept only while its `iat` could still be accepted (maxAgeSeconds plus twice
   * clockToleranceSeconds: 360 s by default). When the cache is full, new proofs are refused
   * (401 `invalid_dpop_proof`) until old ones age out, never let through by forgetting
   * others: size it for the proofs all clients send in that window.
   */
  replayCacheSize?: number;
  /**
   * Proofs remembered per principal (the resource server's principal key; a proof checked
   * without one counts against its key's thumbprint), at most (default 2,000, about 5
   * requests a second over the 360 s window). A principal over it gets its new proofs
   * refused until its old ones age out, so one principal cannot fill the cache for others.
   */
  replayCacheSizePerPrincipal?: number;
}

export const DPOP_ALGORITHMS = [
  "ES256",
  "ES384",
  "ES512",
  "PS256",
  "PS384",
  "PS512",
  "RS256",
  "RS384",
  "RS512",
  "EdDSA",
];

/** Longer proofs are refused unread: the header is the client's to fill. */
const MAX_PROOF_LENGTH = 8192;
/** JWK members that would make the key a private (or symmetric) one. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** `url` as `htu` compares: no query, no fragment, canonical host and empty path. */
function htuOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return canonicalResource(`${parsed.origin}${parsed.pathname}`);
  } catch {
    return undefined;
  }
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Buffer.from(digest).toString("base64url");
}

/** A limit of the options: a positive integer, else one clear error. */
function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`${name} must be a positive integer, not ${value}`);
  return value;
}

const REPLAY_REFUSALS: Record<ReplayRefusal, string> = {
  replayed: "The DPoP proof was already used",
  "bucket full": "Too many recent DPoP proofs for this principal: try again later",
  full: "Too many recent DPoP proofs: try again later",
};

/** Checks one proof against the request it came with; answers its key's thumbprint. */
export function createDPoPProofVerifier(
  options: DPoPProofVerifierOptions = {},
): (proof: string, expected: DPoPProofCheck) => Promise<string> {
  const algorithms = [...(options.algorithms ?? DPOP_ALGORITHMS)];
  const maxAge = options.maxAgeSeconds ?? 300;
  const tolerance = options.clockToleranceSeconds ?? 30;
  const replays = createReplayCache({
    size: limit("replayCacheSize", options.replayCacheSize, 100_000),
    sizePerBucket: limit("replayCacheSizePerPrincipal", options.replayCacheSizePerPrincipal, 2_000),
    // A proof first seen now may carry an iat up to `tolerance` ahead, and is acceptable
    // until iat + maxAge + tolerance.
    windowSeconds: maxAge + 2 * tolerance,
  });

  return async (proof, expected) => {
    if (proof.length > MAX_PROOF_LENGTH)
      throw new InvalidDPoPProofError("The DPoP proof is too long");
    let header;
    try {
      header = decodeProtectedHeader(proof);
    } catch {
      throw new InvalidDPoPProofError("The DPoP proof is not a JWT");
    }
    const { typ, alg, jwk } = header;
    if (typ !== "dpop+jwt") throw new InvalidDPoPProofError("The DPoP proof's typ is not dpop+jwt");
    if (typeof alg !== "string" || !algorithms.includes(alg))
      throw new InvalidDPoPProofError("The DPoP proof's algorithm is not accepted");
    if (typeof jwk !== "object" || jwk === null || PRIVATE_MEMBERS.some((m) => m in jwk))
      throw new InvalidDPoPProofError("The DPoP proof's jwk is not a public key");
    let payload;
    try {
      const key = await importJWK(jwk, alg);
      ({ payload } = await jwtVerify(proof, key, {
        typ: "dpop+jwt",
        algorithms,
        maxTokenAge: maxAge,
        clockTolerance: tolerance,
      }));
    } catch (error) {
      const reason =
        error instanceof errors.JWTExpired || error instanceof errors.JWTClaimValidationFailed
          ? "is too old or from the future"
          : "does not verify";
      throw new InvalidDPoPProofError(`The DPoP proof ${reason}`);
    }
    const { jti, htm, htu, ath } = payload;
    if (typeof jti !== "string" || jti.length === 0 || jti.length > 256)
      throw new InvalidDPoPProofError("The DPoP proof has no usable jti");
    if (htm !== expected.method)
      throw new InvalidDPoPProofError("The DPoP proof's htm is not this request's method");
    if (typeof htu !== "string" || htuOf(htu) === undefined || htuOf(htu) !== htuOf(expected.url))
      throw new InvalidDPoPProofError("The DPoP proof's htu is not this resource");
    if (ath !== (await sha256(expected.accessToken)))
      throw new InvalidDPoPProofError("The DPoP proof's ath does not match the access token");
    const thumbprint = await calculateJwkThumbprint(jwk, "sha256");
    const refusal = replays.record(
      expected.principal === undefined ? `key ${thumbprint}` : `principal ${expected.principal}`,
      `${thumbprint} ${jti}`,
      Math.floor(Date.now() / 1000),
    );
    if (refusal) throw new InvalidDPoPProofError(REPLAY_REFUSALS[refusal]);
    return thumbprint;
  };
}
