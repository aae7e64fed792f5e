import { AuthChallenge } from "./resource-server-types.js";

// The resource server's refusals as RFC 6750 section 3 challenges (and RFC 9449 section 7.1
// ones with DPoP): every one names the metadata document (RFC 9728 section 5.1), and its
// auth-params are reduced to safe characters, so nothing a client sent can break the header.

/** The scheme a credential came in. */
export type Scheme = "Bearer" | "DPoP";

/** One auth-param of a challenge: its name and its (unquoted) value. */
export type AuthParam = [string, string];

/** What every challenge of one resource server says the same way. */
export interface ChallengeSettings {
  /** The absolute URL of the metadata document: each challenge's `resource_metadata`. */
  readonly metadataUrl: string;
  /** The DPoP proof algorithms accepted (the `algs`); undefined when the server takes no DPoP. */
  readonly dpopAlgorithms: readonly string[] | undefined;
}

/** A quoted-string auth-param value (RFC 9110 section 11.2), reduced to RFC 6750's safe characters. */
const quoted = (value: string) => `"${value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "")}"`;

/**
 * A challenge in the scheme the request used (its error goes there); to a request without
 * credentials a server taking DPoP offers both schemes, the DPoP one naming its `algs`
 * (RFC 9449 section 7.1).
 */
export function challenge(
  settings: ChallengeSettings,
  status: 400 | 401 | 403,
  message: string,
  params: AuthParam[],
  scheme: Scheme | "any",
): AuthChallenge {
  const render = (s: string, ps: AuthParam[]) => {
    const all: AuthParam[] = [...ps, ["resource_metadata", settings.metadataUrl]];
    return `${s} ${all.map(([k, v]) => `${k}=${quoted(v)}`).join(", ")}`;
  };
  const { dpopAlgorithms } = settings;
  const offered =
    dpopAlgorithms === undefined
      ? [render("Bearer", params)]
      : scheme === "DPoP"
        ? [render("DPoP", [["algs", dpopAlgorithms.join(" ")], ...params])]
        : scheme === "Bearer"
          ? [render("Bearer", params)]
          : [render("Bearer", params), render("DPoP", [["algs", dpopAlgorithms.join(" ")]])];
  return new AuthChallenge(status, message, { "www-authenticate": offered.join(", ") });
}

/** The `scope` auth-param naming `scopes`, or none when there are none. */
export const scopeParam = (scopes: readonly string[]): AuthParam[] =>
  scopes.length > 0 ? [["scope", scopes.join(" ")]] : [];

/** 401 `invalid_token`, in the scheme the token came in. */
export const invalidTokenChallenge = (
  settings: ChallengeSettings,
  description: string,
  scheme: Scheme,
): AuthChallenge =>
  challenge(
    settings,
    401,
    "Unauthorized: invalid token",
    [
      ["error", "invalid_token"],
      ["error_description", description],
    ],
    scheme,
  );

/** 401 `invalid_dpop_proof`: only a DPoP request has a proof to refuse. */
export const invalidProofChallenge = (settings: ChallengeSettings, description: string) =>
  challenge(
    settings,
    401,
    "Unauthorized: invalid DPoP proof",
    [
      ["error", "invalid_dpop_proof"],
      ["error_description", description],
    ],
    "DPoP",
  );
