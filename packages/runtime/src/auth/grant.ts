import * as oauth from "oauth4webapi";
import { requestOptions, type Http } from "./discovery.js";
import { withDPoPNonceRetry, type DPoPProver } from "./dpop.js";
import type { ClientFor } from "./registration.js";
import type { RedirectHandler, StoredTokens } from "./store.js";
import { AuthorizationError } from "./http-auth.js";
import { authorizationCause } from "./network.js";

// The grants (2026-07-28 basic/authorization "Authorization Flow Steps"), done by oauth4webapi:
// the authorization code grant with PKCE (S256), `state`, the `resource` indicator (RFC 8707)
// on both requests, and the authorization response validated (RFC 9207 `iss`, `state`) before
// the code goes to any token endpoint; refresh; client credentials. With a DPoP prover, every
// token request carries a proof (RFC 9449 section 5) and the tokens come back bound to its key.

/** What one grant is for. */
export interface GrantTarget {
  as: oauth.AuthorizationServer;
  client: ClientFor;
  /** The resource identifier, exactly as the server's metadata publishes it (none for 2025-03-26 servers). */
  resource: string | undefined;
  scopes: string[];
  /** Set when the authorization server takes DPoP proofs and the client uses them. */
  dpop?: DPoPProver;
  /** The longest access token taken (`maxTokenLength`; default DEFAULT_MAX_TOKEN_LENGTH). */
  maxTokenLength?: number;
}

/**
 * Default for `maxTokenLength`: 16,384 characters. An access token goes in a request header,
 * and servers refuse far smaller header sections (Node.js: 16 KiB in all).
 */
export const DEFAULT_MAX_TOKEN_LENGTH = 16_384;

/** oauth4webapi's options for a request to the token endpoint. */
export function tokenRequestOptions(http: Http, target: GrantTarget) {
  return {
    ...requestOptions(http, new URL(target.as.token_endpoint!)),
    ...(target.dpop ? { DPoP: target.dpop.handle } : {}),
  };
}

/** tokenRequestOptions, plus the `resource` parameter (RFC 8707) for grants without a parameters argument. */
function resourceRequestOptions(http: Http, target: GrantTarget) {
  return {
    ...tokenRequestOptions(http, target),
    additionalParameters: target.resource !== undefined ? { resource: target.resource } : {},
  };
}

/**
 * A token request for `target`: sent, sent again once when the server asks for a DPoP nonce
 * (RFC 9449 section 8), and its response processed by oauth4webapi.
 */
export function tokenResponse(
  target: GrantTarget,
  send: () => Promise<Response>,
  process: (
    as: oauth.AuthorizationServer,
    client: oauth.Client,
    response: Response,
  ) => Promise<oauth.TokenEndpointResponse>,
): Promise<oauth.TokenEndpointResponse> {
  return withDPoPNonceRetry(target.dpop, async () =>
    process(target.as, target.client.client, await send()),
  );
}

/** The `resource` and `scope` parameters of a token request for `target`. */
export function parameters(target: GrantTarget): Record<string, string> {
  return {
    ...(target.resource !== undefined ? { resource: target.resource } : {}),
    ...(target.scopes.length > 0 ? { scope: target.scopes.join(" ") } : {}),
  };
}

/** The tokens to keep from a token response, bound to their issuer. */
export function stored(
  target: GrantTarget,
  response: oauth.TokenEndpointResponse,
  previous?: StoredTokens,
): StoredTokens {
  const limit = target.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
  if (response.access_token.length > limit)
    throw new AuthorizationError(
      `the access token is longer than maxTokenLength (${limit} characters)`,
    );
  const refreshToken = response.refresh_token ?? previous?.refreshToken;
  return {
    issuer: target.as.issuer,
    ...(target.resource !== undefined ? { resource: target.resource } : {}),
    accessToken: response.access_token,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(response.expires_in !== undefined
      ? { expiresAt: Date.now() + response.expires_in * 1000 }
      : {}),
    scopes:
      typeof response.scope === "string"
        ? response.scope.split(" ").filter(Boolean)
        : target.scopes,
    // oauth4webapi lower-cases token_type and accepts only "bearer" and "dpop".
    ...(response.token_type === "dpop" ? { tokenType: "dpop" as const } : {}),
  };
}

/** Authorization code grant: the user agent goes to the server, the code comes back, tokens out. */
export async function authorizationCodeGrant(
  http: Http,
  target: GrantTarget,
  redirect: RedirectHandler,
): Promise<StoredTokens> {
  const { as, client } = target;
  // Before the user is sent anywhere (security-considerations "Authorization Code Protection"):
  // a server that does not advertise PKCE with S256 is refused.
  if (!as.code_challenge_methods_supported?.includes("S256"))
    throw new AuthorizationError("the authorization server does not support PKCE with S256");
  if (as.authorization_endpoint === undefined)
    throw new AuthorizationError("the authorization server has no authorization endpoint");
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  oauth.checkProtocol(url, !http.insecure(url));
  const query = {
    response_type: "code",
    client_id: client.client.client_id,
    redirect_uri: redirect.redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    ...parameters(target),
    // The code is bound to the DPoP key too (RFC 9449 section 10).
    ...(target.dpop ? { dpop_jkt: await target.dpop.thumbprint() } : {}),
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const back = new URL(await redirect.authorize(url, http.signal));
  // The issuer recorded from validated metadata is compared as a plain string, before anything
  // else of the response is looked at (basic/authorization "Authorization Response Validation").
  const callback = oauth.validateAuthResponse(as, client.client, back, state);
  const response = await tokenResponse(
    target,
    () =>
      oauth.authorizationCodeGrantRequest(
        as,
        client.client,
        client.authentication,
        callback,
        redirect.redirectUri,
        verifier,
        resourceRequestOptions(http, target),
      ),
    oauth.processAuthorizationCodeResponse,
  );
  return stored(target, response);
}

/** Refresh grant: new tokens for the same resource and scopes, from the same issuer. */
export async function refreshGrant(
  http: Http,
  target: GrantTarget,
  previous: StoredTokens,
): Promise<StoredTokens> {
  const { as, client } = target;
  const response = await tokenResponse(
    target,
    () =>
      oauth.refreshTokenGrantRequest(
        as,
        client.client,
        client.authentication,
        previous.refreshToken!,
        resourceRequestOptions(http, target),
      ),
    oauth.processRefreshTokenResponse,
  );
  return stored(target, response, previous);
}

/** Client credentials grant (the client acts on its own behalf: ext-auth oauth-client-credentials). */
export async function clientCredentialsGrant(
  http: Http,
  target: GrantTarget,
): Promise<StoredTokens> {
  const { as, client } = target;
  const response = await tokenResponse(
    target,
    () =>
      oauth.clientCredentialsGrantRequest(
        as,
        client.client,
        client.authentication,
        parameters(target),
        tokenRequestOptions(http, target),
      ),
    oauth.processClientCredentialsResponse,
  );
  return stored(target, response);
}

/**
 * An error fit to show: what failed and the OAuth error code, never a token, a secret, a code
 * or a server's free text (error_description may echo what was sent). oauth4webapi's own
 * errors carry the responses and parameters they saw in `cause`: they are not passed on.
 */
export function safeError(step: string, error: unknown): AuthorizationError {
  // The client's own refusals (a response over the size cap, inside oauth4webapi's errors).
  const own = authorizationCause(error);
  if (own) return own;
  if (error instanceof oauth.ResponseBodyError)
    return new AuthorizationError(
      `${step}: the server answered ${error.error} (HTTP ${error.status})`,
      error.status,
    );
  if (error instanceof oauth.AuthorizationResponseError)
    return new AuthorizationError(`${step}: the authorization server answered ${error.error}`);
  if (
    error instanceof oauth.OperationProcessingError &&
    error.code === oauth.HTTP_REQUEST_FORBIDDEN
  ) {
    const url = error.cause instanceof URL ? ` (${error.cause.origin})` : "";
    return new AuthorizationError(
      `${step}: only https URLs are allowed${url}; insecureLoopback: true allows http to localhost, for tests`,
    );
  }
  if (error instanceof Error && error.name === "AbortError")
    return new AuthorizationError(`${step}: aborted`);
  const known = error instanceof oauth.OperationProcessingError || error instanceof TypeError;
  const message = known ? (error as Error).message.slice(0, 200) : "unexpected failure";
  return new AuthorizationError(`${step}: ${message}`);
}
