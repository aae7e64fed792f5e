import type { IncomingMessage } from "node:http";
import { audienceIncludes } from "./audience.js";
import { checkTokenBinding } from "./dpop-binding.js";
import {
  InvalidTokenError,
  type Principal,
  type ResourceServerOptions,
} from "./resource-server-types.js";
import { insufficientScope, type ScopeSatisfies } from "./scope-policy.js";
import {
  challenge,
  invalidTokenChallenge,
  scopeParam,
  type ChallengeSettings,
  type Scheme,
} from "./www-authenticate.js";

// Authenticating one request: its credential read, its token verified by the hook, bound to
// the request's DPoP key if it is bound at all, checked for this resource and for the scopes
// every request needs (unless the caller checks those later, with the message's: see
// ResourceServer.authenticate). Each refusal is thrown as the AuthChallenge that answers it.

/** RFC 6750 section 2.1 (and RFC 9449 section 7.1): a credential's scheme and b64token. */
const CREDENTIAL = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*)$/i;
/** The schemes a server takes credentials in: with DPoP, or without. */
const BEARER_OR_DPOP = /^(Bearer|DPoP)(\s|$)/i;
const BEARER_ONLY = /^Bearer(\s|$)/i;

/** An Authorization header's credential; `token` is undefined when it is malformed. */
export interface Credential {
  readonly scheme: Scheme;
  readonly token: string | undefined;
}

/**
 * The credential of an Authorization header in a scheme the server takes (DPoP only if
 * `acceptsDPoP`); undefined when there is none.
 */
export function readCredential(
  header: string | undefined,
  acceptsDPoP: boolean,
): Credential | undefined {
  const schemes = acceptsDPoP ? BEARER_OR_DPOP : BEARER_ONLY;
  if (header === undefined || !schemes.test(header)) return undefined;
  const [, given, token] = CREDENTIAL.exec(header) ?? [];
  return { scheme: given?.toLowerCase() === "dpop" ? "DPoP" : "Bearer", token };
}

/** What authenticating a request needs: the options (whose hooks it calls) and their resolution. */
export interface AuthenticationSettings {
  readonly options: ResourceServerOptions;
  /** Whether the server takes the DPoP scheme (options.dpop, when the server was built). */
  readonly acceptsDPoP: boolean;
  readonly requiredScopes: readonly string[];
  readonly challengeScopes: readonly string[];
  readonly satisfies: ScopeSatisfies;
  readonly challenges: ChallengeSettings;
  readonly principalKey: (principal: Principal) => string;
}

/** A request's verified principal, and the scheme its token came in (refusals use it). */
export interface Authentication {
  readonly principal: Principal;
  readonly scheme: Scheme;
}

/**
 * Authenticates `request`; throws AuthChallenge (400, 401, or 403 for missing required scopes
 * unless `checkRequiredScopes` is false: the caller then checks them with the message's).
 */
export async function authenticateRequest(
  settings: AuthenticationSettings,
  request: IncomingMessage,
  checkRequiredScopes = true,
): Promise<Authentication> {
  const { options, challenges, satisfies } = settings;
  const credential = readCredential(request.headers.authorization, settings.acceptsDPoP);
  // RFC 6750 section 3.1: a request without credentials gets a challenge without an error code.
  if (credential === undefined) {
    throw challenge(challenges, 401, "Unauthorized", scopeParam(settings.challengeScopes), "any");
  }
  const { scheme, token } = credential;
  if (token === undefined) {
    throw challenge(
      challenges,
      400,
      "Bad request: malformed credentials",
      [["error", "invalid_request"]],
      scheme,
    );
  }
  if (scheme === "Bearer" && options.dpop?.required) {
    throw challenge(challenges, 401, "Unauthorized", scopeParam(settings.challengeScopes), "DPoP");
  }
  let principal: Principal;
  try {
    principal = await options.verifyToken(token, request);
  } catch (error) {
    const said = error instanceof InvalidTokenError ? error.message : "";
    // A hook's message that quotes the token is not sent back.
    throw invalidTokenChallenge(
      challenges,
      said && !said.includes(token) ? said : "The access token is not valid",
      scheme,
    );
  }
  // Even a server without DPoP refuses a bound token as a bearer one: whoever presents it
  // without the key is not who it was issued to.
  await checkTokenBinding(
    {
      resource: options.resource,
      dpop: options.dpop,
      challenges,
      principalKey: settings.principalKey,
    },
    request,
    scheme,
    token,
    principal,
  );
  // The hook's audience check, checked again: a token for another resource is never
  // accepted (2026-07-28 authorization, Token Handling). Expiry is the hook's (with its
  // clock tolerance).
  if (!audienceIncludes(principal.audience, options.resource)) {
    throw invalidTokenChallenge(
      challenges,
      "The access token was not issued for this resource",
      scheme,
    );
  }
  if (checkRequiredScopes) {
    const refusal = insufficientScope(
      challenges,
      satisfies,
      principal,
      scheme,
      settings.requiredScopes,
    );
    if (refusal) throw refusal;
  }
  return { principal, scheme };
}
