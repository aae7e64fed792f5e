import type { IncomingMessage } from "node:http";
import {
  InvalidDPoPProofError,
  type DPoPOptions,
  type Principal,
} from "./resource-server-types.js";
import {
  invalidProofChallenge,
  invalidTokenChallenge,
  type ChallengeSettings,
  type Scheme,
} from "./www-authenticate.js";

// DPoP-bound access tokens at the resource server (RFC 9449 section 7): a token whose claims
// carry `cnf.jkt` is bound to that key, and only a request proving possession of it may use it.

/** The JWK thumbprint a token is bound to (its `cnf.jkt` claim), if it names one. */
export function boundKeyThumbprint(principal: Principal): unknown {
  const cnf = principal.claims?.["cnf"];
  return typeof cnf === "object" && cnf !== null
    ? (cnf as Record<string, unknown>)["jkt"]
    : undefined;
}

/** What checking a binding needs besides the request: the server's resource and DPoP options. */
export interface TokenBindingSettings {
  /** This server's resource identifier, the `htu` a proof must sign. */
  readonly resource: string;
  /** The DPoP options; set whenever a request may use the DPoP scheme. */
  readonly dpop: DPoPOptions | undefined;
  readonly challenges: ChallengeSettings;
  /** The principal's key, passed with each proof: replay caches count proofs per principal. */
  readonly principalKey: (principal: Principal) => string;
}

/**
 * RFC 9449 section 7: a bound token only with the DPoP scheme and a proof by its key. Throws
 * the AuthChallenge refusing the request.
 */
export async function checkTokenBinding(
  settings: TokenBindingSettings,
  request: IncomingMessage,
  scheme: Scheme,
  token: string,
  principal: Principal,
): Promise<void> {
  const jkt = boundKeyThumbprint(principal);
  if (scheme === "Bearer") {
    if (jkt !== undefined)
      throw invalidTokenChallenge(
        settings.challenges,
        "A DPoP-bound token needs the DPoP scheme and a proof",
        scheme,
      );
    return;
  }
  const proof = request.headers["dpop"];
  if (typeof proof !== "string" || proof === "" || proof.includes(","))
    throw invalidProofChallenge(settings.challenges, "Exactly one DPoP proof is needed");
  let thumbprint: string;
  try {
    thumbprint = await settings.dpop!.verifyProof(proof, {
      method: request.method ?? "",
      url: settings.resource,
      accessToken: token,
      principal: settings.principalKey(principal),
    });
  } catch (error) {
    const said = error instanceof InvalidDPoPProofError ? error.message : "";
    throw invalidProofChallenge(
      settings.challenges,
      said && !said.includes(token) ? said : "The DPoP proof is not valid",
    );
  }
  if (typeof jkt !== "string" || jkt !== thumbprint)
    throw invalidTokenChallenge(
      settings.challenges,
      "The access token is not bound to the proof's key",
      "DPoP",
    );
}
