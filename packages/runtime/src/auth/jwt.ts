import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { audienceIncludes, InvalidTokenError, type Principal } from "./resource-server.js";

// A `verifyToken` for JWT access tokens (RFC 9068 and the common variants) signed by an
// authorization server that publishes its keys as a JWKS. The only runtime module with a
// dependency: `jose` (6.x), a peer dependency of the generated code, emitted only when
// asked (`"auth": true` in mcp-gen.config.json, or `--auth`).

export interface JwtVerifierOptions {
  /** The authorization server's JWKS (`jwks_uri` of its metadata), fetched and cached by jose. */
  jwksUrl: string | URL;
  /** The accepted issuers (`iss`): the authorization servers of the resource metadata. */
  issuer: string | readonly string[];
  /** This server's resource identifier: the token's `aud` must name it (RFC 8707). */
  resource: string;
  /** Seconds of clock skew allowed on `exp` and `nbf` (default 30). */
  clockToleranceSeconds?: number;
  /** Accepted signature algorithms (default: the asymmetric ones, never `none` or HMAC). */
  algorithms?: readonly string[];
  /**
   * The `typ` headers accepted (default "at+jwt": RFC 9068 section 4 has resource servers
   * check it, so that an ID token, a logout token or a DPoP proof signed by the same keys is
   * never taken for an access token). Compared as media types: `application/at+jwt` and
   * `AT+JWT` are `at+jwt`. Some authorization servers type their access tokens plain `JWT`
   * (Keycloak; Auth0 unless the API's token profile is RFC 9068): pass `["at+jwt", "JWT"]`
   * to take those too, or `false` to check no `typ` at all (nor require one).
   */
  typ?: string | readonly string[] | false;
  /** Another key source instead of jwksUrl's (jose's createLocalJWKSet, tests). */
  keys?: JWTVerifyGetKey;
}

const ASYMMETRIC = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
];

/** A `typ` as a media type, to compare (RFC 7515 section 4.1.9: `application/` may be left out). */
const mediaType = (typ: string) => {
  const lower = typ.toLowerCase();
  return lower.includes("/") ? lower : `application/${lower}`;
};

/** The check of the `typ` header `option` asks for: undefined when there is none. */
function typCheck(option: JwtVerifierOptions["typ"]) {
  if (option === false) return undefined;
  const accepted = typeof option === "string" ? [option] : [...(option ?? ["at+jwt"])];
  if (accepted.length === 0)
    throw new TypeError("typ must name at least one type, or be false to check none");
  const types = new Set(accepted.map(mediaType));
  const refusal = `The token's typ is not accepted: an access token is typed ${accepted.join(" or ")}`;
  return (typ: unknown) => {
    if (typeof typ !== "string" || !types.has(mediaType(typ))) throw new InvalidTokenError(refusal);
  };
}

/** The granted scopes: `scope` (RFC 9068, space-separated) or `scp` (a list, or a string). */
function scopesOf(payload: JWTPayload): string[] {
  const raw = payload["scope"] ?? payload["scp"];
  const list = typeof raw === "string" ? raw.split(" ") : Array.isArray(raw) ? raw : [];
  return list.filter((s): s is string => typeof s === "string" && s !== "");
}

/** A description for the challenge that names the failed check, never the token. */
function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "The access token has expired";
  if (error instanceof errors.JWTClaimValidationFailed)
    return `The token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return "The token's signature is not valid";
  if (error instanceof errors.JWKSNoMatchingKey) return "The token is not signed by a known key";
  if (error instanceof errors.JOSEAlgNotAllowed)
    return "The token's signature algorithm is not accepted";
  return "The access token is not valid";
}

/**
 * `verifyToken` for resource-server options: checks the signature against the JWKS, the
 * `typ` (at+jwt by default), the issuer, expiry and not-before (with clock tolerance), and
 * that `aud` names `resource`;
 * answers the principal with its scopes. Refusals are InvalidTokenError (401).
 */
export function createJwtVerifier(
  options: JwtVerifierOptions,
): (token: string) => Promise<Principal> {
  const keys = options.keys ?? createRemoteJWKSet(new URL(options.jwksUrl));
  const issuers = typeof options.issuer === "string" ? [options.issuer] : [...options.issuer];
  const verifyOptions = {
    issuer: issuers,
    algorithms: [...(options.algorithms ?? ASYMMETRIC)],
    clockTolerance: options.clockToleranceSeconds ?? 30,
    requiredClaims: ["exp", "sub", "aud"],
  };
  const checkTyp = typCheck(options.typ);
  return async (token) => {
    let payload: JWTPayload;
    let typ: unknown;
    try {
      ({
        payload,
        protectedHeader: { typ },
      } = await jwtVerify(token, keys, verifyOptions));
    } catch (error) {
      throw new InvalidTokenError(describe(error));
    }
    checkTyp?.(typ);
    // The audience is checked here rather than by jose so that the resource identifier's
    // spelling (host case, a trailing slash) does not matter (2026-07-28 authorization,
    // Canonical Server URI).
    if (payload.aud === undefined || !audienceIncludes(payload.aud, options.resource)) {
      throw new InvalidTokenError("The access token was not issued for this resource");
    }
    const clientId = payload["client_id"] ?? payload["azp"];
    return {
      subject: payload.sub!,
      scopes: scopesOf(payload),
      issuer: payload.iss!,
      audience: payload.aud,
      ...(typeof clientId === "string" ? { clientId } : {}),
      ...(payload.exp !== undefined ? { expiresAt: payload.exp } : {}),
      claims: payload,
    };
  };
}
