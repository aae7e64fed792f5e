import type * as oauth from "oauth4webapi";
import {
  assertionClients,
  assertionSource,
  checkAssertionOptions,
  jwtBearerGrant,
  type AssertionOptions,
} from "./assertion.js";
import {
  challengeOf,
  discoverAuthorizationServer,
  discoverResource,
  legacyAuthorizationServer,
  type Challenge,
  type Http,
} from "./discovery.js";
import { createDPoPProver, generateDPoPKeyPair, supportsDPoP, type DPoPProver } from "./dpop.js";
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  refreshGrant,
  safeError,
  type GrantTarget,
} from "./grant.js";
import { createRegistrar, type PreRegisteredClient } from "./registration.js";
import {
  memoryTokenStore,
  type RedirectHandler,
  type StoredTokens,
  type TokenStore,
} from "./store.js";
import {
  AuthorizationError,
  type AuthorizedRequest,
  type ChallengeContext,
  type HttpAuth,
} from "./http-auth.js";

export { headlessRedirect, memoryTokenStore } from "./store.js";
export type { RedirectHandler, RegisteredClient, StoredTokens, TokenStore } from "./store.js";
export type { PreRegisteredClient } from "./registration.js";
export type { AssertionContext, EnterpriseIdp, EnterpriseOptions } from "./assertion.js";
export { AuthorizationError } from "./http-auth.js";

// The OAuth 2.1 client of an MCP client (2026-07-28 basic/authorization), as the HTTP
// transport's `auth` hook: it sends the token it has, and answers a 401 or a 403
// `insufficient_scope` by discovering the server's authorization server, registering, and
// obtaining tokens (refresh first when it can), then asks the transport to retry. Needs the
// `oauth4webapi` package (a peer dependency of this module only).

export interface OAuthClientOptions extends AssertionOptions {
  /** The MCP endpoint (the same URL as the transport's): the resource the tokens are for. */
  serverUrl: string | URL;
  /** How the user agent visits the authorization server (authorization_code grant). */
  redirect?: RedirectHandler;
  /**
   * `authorization_code` (default; a user), `client_credentials` (the client on its own behalf),
   * or `jwt_bearer` (RFC 7523: a workload's JWT from `assertion`, or an ID-JAG from `enterprise`).
   */
  grant?: "authorization_code" | "client_credentials" | "jwt_bearer";
  /** Credentials registered beforehand, per authorization server. */
  preRegistered?: PreRegisteredClient | PreRegisteredClient[];
  /** This client's Client ID Metadata Document URL (https, with a path), used where supported. */
  clientMetadataUrl?: string;
  /** Dynamic Client Registration metadata over the defaults (`client_name`, `application_type`, ...). */
  clientMetadata?: Record<string, unknown>;
  /** Where tokens and registrations are kept (default: memory). */
  store?: TokenStore;
  /** Ask for `offline_access` where the authorization server lists it, to get refresh tokens (default true). */
  offlineAccess?: boolean;
  /** Servers without resource metadata: the 2025-03-26 discovery at the server's origin (default true). */
  legacyDiscovery?: boolean;
  /**
   * DPoP (RFC 9449, the MCP DPoP extension): `"auto"` (default) proves possession of a key
   * wherever the authorization server lists ES256 in `dpop_signing_alg_values_supported`, so
   * its tokens are bound to the key and useless to whoever copies them; `"off"` never does.
   */
  dpop?: "auto" | "off";
  /**
   * The DPoP key (ES256), for a `store` that outlives the process: a bound token works only
   * with its key. Default: a key generated when first needed, kept in memory.
   */
  dpopKeyPair?: CryptoKeyPair;
  /** Allow plain http to loopback hosts (localhost, 127.0.0.1, [::1]): tests only (default false). */
  insecureLoopback?: boolean;
  fetch?: typeof fetch;
}

export interface OAuthClient extends HttpAuth {
  /** Forgets this server's tokens (the registration with its authorization server is kept). */
  signOut(): Promise<void>;
}

/** Refresh this long before the expiry the server gave. */
const EXPIRY_SKEW_MS = 30_000;

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  const serverUrl = new URL(options.serverUrl);
  const key = serverUrl.href;
  const grant = options.grant ?? "authorization_code";
  if (grant === "authorization_code" && !options.redirect)
    throw new TypeError("createOAuthClient: the authorization_code grant needs a redirect handler");
  if (grant === "jwt_bearer") checkAssertionOptions(options);
  const store = options.store ?? memoryTokenStore();
  const loopback = ["localhost", "127.0.0.1", "[::1]"];
  const base: Http = {
    fetch: options.fetch ?? globalThis.fetch,
    insecure: (url) => options.insecureLoopback === true && loopback.includes(url.hostname),
  };
  const registered = createRegistrar(
    {
      preRegistered: [options.preRegistered ?? []].flat(),
      ...(options.clientMetadataUrl !== undefined
        ? { clientMetadataUrl: options.clientMetadataUrl }
        : {}),
      ...(options.clientMetadata !== undefined ? { clientMetadata: options.clientMetadata } : {}),
      ...(options.redirect ? { redirectUri: options.redirect.redirectUri } : {}),
      grant,
      store,
    },
    base,
  );
  const registrar = grant === "jwt_bearer" ? assertionClients(registered, options) : registered;
  const assertions = grant === "jwt_bearer" ? assertionSource(options) : undefined;
  // What the last discovery found: the resource and its authorization server.
  let known: { as: oauth.AuthorizationServer; resource: string | undefined } | undefined;
  // Every scope requested for this server so far: re-authorization asks for their union with
  // the challenge's (basic/authorization "Step-Up Authorization Flow", SEP-2350).
  let requested: string[] = [];
  // Challenges are answered one at a time: concurrent 401s lead to one authorization.
  let queue: Promise<unknown> = Promise.resolve();

  // The DPoP key's prover, once a key exists (given, or generated for the first DPoP grant).
  let prover: Promise<DPoPProver> | undefined = options.dpopKeyPair
    ? Promise.resolve(createDPoPProver(options.dpopKeyPair))
    : undefined;
  function proverFor(as: oauth.AuthorizationServer): Promise<DPoPProver> | undefined {
    if (options.dpop === "off" || !supportsDPoP(as)) return undefined;
    return (prover ??= generateDPoPKeyPair().then(createDPoPProver));
  }

  const authorizationOf = (tokens: StoredTokens) =>
    `${tokens.tokenType === "dpop" ? "DPoP" : "Bearer"} ${tokens.accessToken}`;

  /** A bearer token as is; a DPoP-bound one with a proof for this request (RFC 9449 section 7.1). */
  async function header(
    tokens: StoredTokens | undefined,
    request: AuthorizedRequest,
  ): Promise<Record<string, string>> {
    if (!tokens) return {};
    if (tokens.tokenType !== "dpop") return { authorization: authorizationOf(tokens) };
    // A bound token without its key (a store kept across processes, no `dpopKeyPair`) is
    // useless: the request goes without, and the server's challenge leads to a new grant.
    if (!prover) return {};
    const proof = await (await prover).proof(request.method, request.url, tokens.accessToken);
    return { authorization: authorizationOf(tokens), dpop: proof };
  }

  async function target(
    as: oauth.AuthorizationServer,
    resource: string | undefined,
    scopes: string[],
  ): Promise<GrantTarget> {
    const dpop = await proverFor(as);
    return {
      as,
      client: await registrar.clientFor(as),
      resource,
      scopes,
      ...(dpop ? { dpop } : {}),
    };
  }

  /** Refreshes expiring tokens, with the authorization server that issued them. */
  async function refreshed(tokens: StoredTokens, http: Http): Promise<StoredTokens | undefined> {
    try {
      const as =
        known?.as.issuer === tokens.issuer
          ? known.as
          : await discoverAuthorizationServer(http, tokens.issuer);
      if (!as) return undefined;
      const next = await refreshGrant(
        http,
        await target(as, tokens.resource, tokens.scopes),
        tokens,
      );
      await store.setTokens(key, next);
      return next;
    } catch {
      await store.setTokens(key, undefined);
      return undefined;
    }
  }

  async function headers(request: AuthorizedRequest): Promise<Record<string, string>> {
    await queue.catch(() => undefined);
    let tokens = await store.getTokens(key);
    if (tokens?.expiresAt !== undefined && tokens.expiresAt - EXPIRY_SKEW_MS <= Date.now())
      tokens = tokens.refreshToken ? await refreshed(tokens, base) : undefined;
    return header(tokens, request);
  }

  /** Where this server's tokens come from now (its metadata may have moved it to another server). */
  async function discover(http: Http, challenge: Challenge) {
    const prm = await discoverResource(http, serverUrl, challenge);
    if (!prm) {
      if (options.legacyDiscovery === false)
        throw new AuthorizationError("the server publishes no protected resource metadata");
      return { as: await legacyAuthorizationServer(http, serverUrl), resource: undefined, prm };
    }
    // RFC 9728 section 7.6: the choice among several is the client's; prefer one it holds credentials for.
    const preferred = [options.preRegistered ?? []].flat().map((c) => c.issuer);
    const issuer =
      prm.authorizationServers.find((s) => preferred.includes(s)) ?? prm.authorizationServers[0]!;
    const as = await discoverAuthorizationServer(http, issuer);
    if (!as) throw new AuthorizationError("the authorization server publishes no metadata");
    return { as, resource: prm.resource, prm };
  }

  async function answer(response: Response, context: ChallengeContext): Promise<"retry" | "fail"> {
    const http: Http = { ...base, ...(context.signal ? { signal: context.signal } : {}) };
    const challenge = await challengeOf(response);
    // The server wants its nonce in the proof (RFC 9449 section 9): same token, new proof.
    if (challenge.dpopNonce !== undefined && context.sent["dpop"] !== undefined && prover) {
      (await prover).rememberNonce(serverUrl, challenge.dpopNonce);
      return "retry";
    }
    let tokens = await store.getTokens(key);
    if (tokens?.tokenType === "dpop" && !prover) {
      await store.setTokens(key, undefined); // bound to a key this client does not have
      tokens = undefined;
    }
    // A newer token than the refused request carried: it was obtained meanwhile; try it.
    if (tokens && authorizationOf(tokens) !== context.sent["authorization"]) return "retry";
    const { as, resource, prm } = await discover(http, challenge);
    known = { as, resource };
    if (tokens && tokens.issuer !== as.issuer) {
      // The server moved to another authorization server: nothing of the old one goes there.
      await store.setTokens(key, undefined);
      tokens = undefined;
      requested = [];
    }
    const stepUp = challenge.status === 403;
    const asked = challenge.scopes ?? (stepUp ? [] : (prm?.scopesSupported ?? []));
    // A scope challenge for scopes the refused token has, or that were asked for it and not
    // granted, is not met by asking again ("Step-Up Authorization Flow": retry limits).
    const tried = union(tokens?.scopes ?? [], requested);
    if (stepUp && tokens && asked.every((s) => tried.includes(s))) return "fail";
    let scopes = union(requested, asked);
    const wantsRefresh = grant === "authorization_code" && options.offlineAccess !== false;
    if (wantsRefresh && scopes.length > 0 && as.scopes_supported?.includes("offline_access"))
      scopes = union(scopes, ["offline_access"]);
    if (!stepUp && tokens?.refreshToken && scopes.every((s) => tokens!.scopes.includes(s))) {
      const next = await refreshed(tokens, http);
      if (next) return "retry";
    }
    const goal = await target(as, resource, scopes);
    const fresh =
      grant === "client_credentials"
        ? await clientCredentialsGrant(http, goal)
        : assertions
          ? await jwtBearerGrant(http, goal, assertions)
          : await authorizationCodeGrant(http, goal, options.redirect!);
    await store.setTokens(key, fresh);
    requested = scopes;
    return "retry";
  }

  return {
    headers,
    onChallenge(response, context) {
      const run = queue.then(() => answer(response, context));
      queue = run.catch(() => undefined);
      return run.catch((error: unknown) => Promise.reject(safeError("authorization", error)));
    },
    async signOut() {
      await store.setTokens(key, undefined);
      requested = [];
    },
  };
}
