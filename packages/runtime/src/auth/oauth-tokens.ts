import type * as oauth from "oauth4webapi";
import type { AssertionSource } from "./assertion.js";
import { discoverAuthorizationServer, type Http } from "./discovery.js";
import { createDPoPProver, generateDPoPKeyPair, supportsDPoP, type DPoPProver } from "./dpop.js";
import { refreshGrant, type GrantTarget } from "./grant.js";
import type { PreRegisteredClient, Registrar } from "./registration.js";
import type { RedirectHandler, StoredTokens, TokenStore } from "./store.js";
import type { AuthorizedRequest } from "./http-auth.js";

// The OAuth client's session with one MCP server (oauth-client.ts assembles it): what it
// keeps between requests, and how its tokens go on requests and are renewed.

/** The client's options read as it goes (OAuthClientOptions, as the application gave them). */
export interface SessionSettings {
  readonly redirect?: RedirectHandler;
  readonly preRegistered?: PreRegisteredClient | PreRegisteredClient[];
  readonly offlineAccess?: boolean;
  readonly legacyDiscovery?: boolean;
  readonly dpop?: "auto" | "off";
  readonly maxTokenLength?: number;
  readonly maxReauthorizations?: number;
  readonly reauthorizationBackoffMs?: number;
  readonly maxScopes?: number;
}

/** What one OAuth client keeps for its MCP server. */
export interface OAuthSession {
  readonly serverUrl: URL;
  /** Where the store keeps this server's tokens: its URL. */
  readonly key: string;
  readonly grant: "authorization_code" | "client_credentials" | "jwt_bearer";
  readonly store: TokenStore;
  /** The network, without any request's signal. */
  readonly http: Http;
  readonly registrar: Registrar;
  /** The assertions of the jwt_bearer grant. */
  readonly assertions: AssertionSource | undefined;
  readonly settings: SessionSettings;
  /** What the last discovery found: the resource and its authorization server. */
  known: { as: oauth.AuthorizationServer; resource: string | undefined } | undefined;
  /**
   * Every scope requested for this server so far: re-authorization asks for their union with
   * the challenge's (basic/authorization "Step-Up Authorization Flow", SEP-2350).
   */
  requested: string[];
  /**
   * When this server had the client authorize again (epoch ms, the last hour): new grants
   * while it held a token that had not expired (reauthorization.ts bounds them).
   */
  reauthorizations: number[];
  /** Challenges are answered one at a time: concurrent 401s lead to one authorization. */
  queue: Promise<unknown>;
  /** The DPoP key's prover, once a key exists (given, or generated for the first DPoP grant). */
  prover: Promise<DPoPProver> | undefined;
}

/** Refresh this long before the expiry the server gave. */
const EXPIRY_SKEW_MS = 30_000;

/** Whether `tokens` expire within EXPIRY_SKEW_MS (or have), by the expiry the server gave. */
export const isExpiring = (tokens: StoredTokens) =>
  tokens.expiresAt !== undefined && tokens.expiresAt - EXPIRY_SKEW_MS <= Date.now();

export const authorizationOf = (tokens: StoredTokens) =>
  `${tokens.tokenType === "dpop" ? "DPoP" : "Bearer"} ${tokens.accessToken}`;

/** The headers of `request`: the stored tokens, refreshed first when they are about to expire. */
export async function currentHeaders(
  session: OAuthSession,
  request: AuthorizedRequest,
): Promise<Record<string, string>> {
  await session.queue.catch(() => undefined);
  let tokens = await session.store.getTokens(session.key);
  if (tokens && isExpiring(tokens))
    tokens = tokens.refreshToken ? await refreshTokens(session, tokens, session.http) : undefined;
  return authorizationHeaders(session, tokens, request);
}

/** A bearer token as is; a DPoP-bound one with a proof for this request (RFC 9449 section 7.1). */
export async function authorizationHeaders(
  session: Pick<OAuthSession, "prover">,
  tokens: StoredTokens | undefined,
  request: AuthorizedRequest,
): Promise<Record<string, string>> {
  if (!tokens) return {};
  if (tokens.tokenType !== "dpop") return { authorization: authorizationOf(tokens) };
  // A bound token without its key (a store kept across processes, no `dpopKeyPair`) is
  // useless: the request goes without, and the server's challenge leads to a new grant.
  if (!session.prover) return {};
  const proof = await (await session.prover).proof(request.method, request.url, tokens.accessToken);
  return { authorization: authorizationOf(tokens), dpop: proof };
}

/** The prover for grants with `as`: none where DPoP is off or `as` does not take it. */
function proverFor(
  session: OAuthSession,
  as: oauth.AuthorizationServer,
): Promise<DPoPProver> | undefined {
  if (session.settings.dpop === "off" || !supportsDPoP(as)) return undefined;
  return (session.prover ??= generateDPoPKeyPair().then(createDPoPProver));
}

/** A grant for `scopes` of `resource` at `as`, by this client (registered there first). */
export async function grantTarget(
  session: OAuthSession,
  as: oauth.AuthorizationServer,
  resource: string | undefined,
  scopes: string[],
): Promise<GrantTarget> {
  const dpop = await proverFor(session, as);
  return {
    as,
    client: await session.registrar.clientFor(as),
    resource,
    scopes,
    ...(dpop ? { dpop } : {}),
    ...(session.settings.maxTokenLength !== undefined
      ? { maxTokenLength: session.settings.maxTokenLength }
      : {}),
  };
}

/**
 * Refreshes expiring tokens, with the authorization server that issued them, and stores the
 * new ones; on any failure forgets them (undefined).
 */
export async function refreshTokens(
  session: OAuthSession,
  tokens: StoredTokens,
  http: Http,
): Promise<StoredTokens | undefined> {
  const { known, store, key } = session;
  try {
    const as =
      known?.as.issuer === tokens.issuer
        ? known.as
        : await discoverAuthorizationServer(http, tokens.issuer);
    if (!as) return undefined;
    const target = await grantTarget(session, as, tokens.resource, tokens.scopes);
    const next = await refreshGrant(http, target, tokens);
    await store.setTokens(key, next);
    return next;
  } catch {
    await store.setTokens(key, undefined);
    return undefined;
  }
}
