import type * as oauth from "oauth4webapi";
import { jwtBearerGrant } from "./assertion.js";
import {
  challengeOf,
  discoverAuthorizationServer,
  discoverResource,
  legacyAuthorizationServer,
  type Challenge,
  type Http,
  type ResourceMetadata,
} from "./discovery.js";
import { authorizationCodeGrant, clientCredentialsGrant, type GrantTarget } from "./grant.js";
import { AuthorizationError, type ChallengeContext } from "./http-auth.js";
import type { StoredTokens } from "./store.js";
import {
  DEFAULT_MAX_REAUTHORIZATIONS,
  DEFAULT_MAX_SCOPES,
  DEFAULT_REAUTHORIZATION_BACKOFF_MS,
  startReauthorization,
} from "./reauthorization.js";
import {
  authorizationOf,
  grantTarget,
  isExpiring,
  refreshTokens,
  type OAuthSession,
  type SessionSettings,
} from "./oauth-tokens.js";

// How the OAuth client answers a 401 or a 403 `insufficient_scope`: a new DPoP proof, a token
// obtained meanwhile, a refresh, or discovery of the server's authorization server and a new
// grant for the scopes the challenge asks.

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/** Answers the challenge of `response`; "retry" once there is something new to send. */
export async function answerChallenge(
  session: OAuthSession,
  response: Response,
  context: ChallengeContext,
): Promise<"retry" | "fail"> {
  const http: Http = { ...session.http, ...(context.signal ? { signal: context.signal } : {}) };
  const challenge = await challengeOf(response);
  // The server wants its nonce in the proof (RFC 9449 section 9): same token, new proof.
  if (challenge.dpopNonce !== undefined && context.sent["dpop"] !== undefined && session.prover) {
    (await session.prover).rememberNonce(session.serverUrl, challenge.dpopNonce);
    return "retry";
  }
  const { store, key, settings } = session;
  let tokens = await store.getTokens(key);
  if (tokens?.tokenType === "dpop" && !session.prover) {
    await store.setTokens(key, undefined); // bound to a key this client does not have
    tokens = undefined;
  }
  // A token still usable: an expiring one without a refresh token is never sent (currentHeaders).
  const held = tokens !== undefined && !isExpiring(tokens);
  // A newer token than the refused request carried: it was obtained meanwhile; try it.
  if (held && authorizationOf(tokens!) !== context.sent["authorization"]) return "retry";
  const { as, resource, prm } = await discoverTokenSource(
    http,
    session.serverUrl,
    challenge,
    settings,
  );
  session.known = { as, resource };
  if (tokens && tokens.issuer !== as.issuer) {
    // The server moved to another authorization server: nothing of the old one goes there.
    await store.setTokens(key, undefined);
    tokens = undefined;
    session.requested = [];
  }
  const wanted = scopesWanted({ challenge, prm, tokens, requested: session.requested });
  if (wanted === "fail") return "fail";
  const maxScopes = settings.maxScopes ?? DEFAULT_MAX_SCOPES;
  if (wanted.length > maxScopes)
    throw new AuthorizationError(
      `the server asks for ${wanted.length} scopes, more than maxScopes (${maxScopes})`,
    );
  const wantsRefresh = session.grant === "authorization_code" && settings.offlineAccess !== false;
  const scopes = withOfflineAccess(wanted, as, wantsRefresh);
  const stepUp = challenge.status === 403;
  if (!stepUp && tokens?.refreshToken && scopes.every((s) => tokens!.scopes.includes(s))) {
    const next = await refreshTokens(session, tokens, http);
    if (next) return "retry";
  }
  // A held token refused, or not enough: a new grant now is a re-authorization, and bounded.
  if (held) startReauthorization(session.reauthorizations, reauthorizationPolicy(settings));
  const fresh = await newTokens(session, http, await grantTarget(session, as, resource, scopes));
  await store.setTokens(key, fresh);
  // Only what the server asked for is carried to the next step-up (not offline_access).
  session.requested = wanted;
  return "retry";
}

const reauthorizationPolicy = (settings: SessionSettings) => ({
  max: settings.maxReauthorizations ?? DEFAULT_MAX_REAUTHORIZATIONS,
  backoffMs: settings.reauthorizationBackoffMs ?? DEFAULT_REAUTHORIZATION_BACKOFF_MS,
});

/**
 * The scopes a new authorization asks for: the challenge's (else, for a 401, all the server
 * supports) with every scope requested before, and `offline_access` for a refresh token
 * where the authorization server lists it; "fail" for a step-up that asking cannot meet.
 */
export function scopesToRequest(state: {
  challenge: Challenge;
  prm: ResourceMetadata | undefined;
  as: oauth.AuthorizationServer;
  /** The refused request's tokens, if still held. */
  tokens: StoredTokens | undefined;
  requested: readonly string[];
  wantsRefresh: boolean;
}): string[] | "fail" {
  const wanted = scopesWanted(state);
  return wanted === "fail" ? "fail" : withOfflineAccess(wanted, state.as, state.wantsRefresh);
}

/**
 * The scopes the server wants: the union of those asked before and the challenge's (else,
 * for a 401, all it supports); "fail" for a step-up that asking cannot meet.
 */
function scopesWanted(state: {
  challenge: Challenge;
  prm: ResourceMetadata | undefined;
  tokens: StoredTokens | undefined;
  requested: readonly string[];
}): string[] | "fail" {
  const { challenge, prm, tokens, requested } = state;
  const stepUp = challenge.status === 403;
  const asked = challenge.scopes ?? (stepUp ? [] : (prm?.scopesSupported ?? []));
  // A scope challenge for scopes the refused token has, or that were asked for it and not
  // granted, is not met by asking again ("Step-Up Authorization Flow": retry limits).
  const tried = union(tokens?.scopes ?? [], requested);
  if (stepUp && tokens && asked.every((s) => tried.includes(s))) return "fail";
  return union(requested, asked);
}

/** `scopes` with `offline_access`, for a refresh token, where the authorization server lists it. */
function withOfflineAccess(
  scopes: string[],
  as: oauth.AuthorizationServer,
  wantsRefresh: boolean,
): string[] {
  if (wantsRefresh && scopes.length > 0 && as.scopes_supported?.includes("offline_access"))
    return union(scopes, ["offline_access"]);
  return scopes;
}

/** Where this server's tokens come from now (its metadata may have moved it to another server). */
async function discoverTokenSource(
  http: Http,
  serverUrl: URL,
  challenge: Challenge,
  settings: SessionSettings,
) {
  const prm = await discoverResource(http, serverUrl, challenge);
  if (!prm) {
    if (settings.legacyDiscovery === false)
      throw new AuthorizationError("the server publishes no protected resource metadata");
    return { as: await legacyAuthorizationServer(http, serverUrl), resource: undefined, prm };
  }
  // RFC 9728 section 7.6: the choice among several is the client's; prefer one it holds credentials for.
  const preferred = [settings.preRegistered ?? []].flat().map((c) => c.issuer);
  const issuer =
    prm.authorizationServers.find((s) => preferred.includes(s)) ?? prm.authorizationServers[0]!;
  const as = await discoverAuthorizationServer(http, issuer);
  if (!as) throw new AuthorizationError("the authorization server publishes no metadata");
  return { as, resource: prm.resource, prm };
}

/** Tokens from a new grant of the client's kind. */
function newTokens(session: OAuthSession, http: Http, goal: GrantTarget): Promise<StoredTokens> {
  if (session.grant === "client_credentials") return clientCredentialsGrant(http, goal);
  if (session.assertions) return jwtBearerGrant(http, goal, session.assertions);
  return authorizationCodeGrant(http, goal, session.settings.redirect!);
}
