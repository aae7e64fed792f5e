import {
  assertionClients,
  assertionSource,
  checkAssertionOptions,
  type AssertionOptions,
} from "./assertion.js";
import type { Http } from "./discovery.js";
import { createDPoPProver } from "./dpop.js";
import { safeError } from "./grant.js";
import { checkPreRegistered, createRegistrar, type PreRegisteredClient } from "./registration.js";
import { memoryTokenStore, type RedirectHandler, type TokenStore } from "./store.js";
import type { HttpAuth } from "./http-auth.js";
import { answerChallenge } from "./oauth-challenge.js";
import { currentHeaders, type OAuthSession } from "./oauth-tokens.js";
import { checkLimit, DEFAULT_MAX_RESPONSE_BYTES, limitedFetch } from "./network.js";
import { privateNetworkGuard } from "./addresses.js";

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
  /**
   * Credentials registered beforehand, each for the authorization server of its `issuer`
   * (required with a `clientSecret`: see PreRegisteredClient).
   */
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
  /**
   * The most bytes read of any one response of an OAuth peer: resource and authorization
   * server metadata, registration, token and enterprise IdP responses (default 1,048,576,
   * 1 MiB). A body over it is refused with an AuthorizationError naming this option, and its
   * transfer cancelled where it crossed the cap (at once when its Content-Length is over).
   */
  maxResponseBytes?: number;
  /**
   * The longest access token taken from a token response, in characters (default 16,384): a
   * longer one is refused, never stored nor sent in a request header.
   */
  maxTokenLength?: number;
  /**
   * Re-authorizations (new grants while the server refuses a token that has not expired, or
   * asks for more scopes) one server may have the client start at once (default 3). Past
   * them, each waits `reauthorizationBackoffMs` after the last, doubled each time (at most
   * an hour), and fails the request with an AuthorizationError until then; they are counted
   * over the last hour. The first authorization, refreshes, and new grants for expired tokens
   * are not re-authorizations. (Each request also re-authorizes at most twice.)
   */
  maxReauthorizations?: number;
  /** The first wait past `maxReauthorizations`, doubled for each one after (default 60,000 ms). */
  reauthorizationBackoffMs?: number;
  /**
   * The most scopes one authorization asks for (default 64; `offline_access` not counted): the
   * union of those the server's challenges asked for (else its `scopes_supported`), which a
   * step-up keeps (2026-07-28 basic/authorization "Step-Up Authorization Flow"). A challenge
   * that would take it over fails with an AuthorizationError.
   */
  maxScopes?: number;
  /**
   * Let what servers publish send the client to private and loopback addresses (10/8,
   * 172.16/12, 192.168/16, 127/8, 169.254/16, fc00::/7, ::1, localhost, ...): for development
   * only (default false). Without it such a host is refused, unless the MCP server is on one
   * itself, or it is the origin of an `issuer` of `preRegistered` or of the enterprise IdP.
   * Only literal addresses and localhost names are recognized: a `fetch` that checks the
   * address it connects to also covers DNS names that resolve to private addresses.
   */
  allowPrivateNetwork?: boolean;
  /** The fetch of every OAuth request (default the global fetch). */
  fetch?: typeof fetch;
}

export interface OAuthClient extends HttpAuth {
  /** Forgets this server's tokens (the registration with its authorization server is kept). */
  signOut(): Promise<void>;
}

export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  const session = openSession(options);
  return {
    headers: (request) => currentHeaders(session, request),
    onChallenge(response, context) {
      const run = session.queue.then(() => answerChallenge(session, response, context));
      session.queue = run.catch(() => undefined);
      return run.catch((error: unknown) => Promise.reject(safeError("authorization", error)));
    },
    async signOut() {
      await session.store.setTokens(session.key, undefined);
      session.requested = [];
    },
  };
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** The client's session with `options.serverUrl`, its options checked; nothing known yet. */
function openSession(options: OAuthClientOptions): OAuthSession {
  const serverUrl = new URL(options.serverUrl);
  const grant = options.grant ?? "authorization_code";
  if (grant === "authorization_code" && !options.redirect)
    throw new TypeError("createOAuthClient: the authorization_code grant needs a redirect handler");
  if (grant === "jwt_bearer") checkAssertionOptions(options);
  const preRegistered = [options.preRegistered ?? []].flat();
  checkPreRegistered(preRegistered);
  checkLimit("maxResponseBytes", options.maxResponseBytes);
  checkLimit("maxTokenLength", options.maxTokenLength);
  checkLimit("maxReauthorizations", options.maxReauthorizations);
  checkLimit("reauthorizationBackoffMs", options.reauthorizationBackoffMs);
  checkLimit("maxScopes", options.maxScopes);
  const store = options.store ?? memoryTokenStore();
  const idp = options.enterprise?.idp;
  const named = [
    ...preRegistered.flatMap((c) => c.issuer ?? []),
    ...(idp ? [idp.issuer, idp.tokenEndpoint ?? idp.issuer] : []),
  ];
  const http: Http = {
    fetch: limitedFetch(
      options.fetch ?? globalThis.fetch,
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      privateNetworkGuard(serverUrl, options.allowPrivateNetwork === true, named),
    ),
    insecure: (url) => options.insecureLoopback === true && LOOPBACK.includes(url.hostname),
  };
  const registered = createRegistrar(
    {
      preRegistered,
      ...(options.clientMetadataUrl !== undefined
        ? { clientMetadataUrl: options.clientMetadataUrl }
        : {}),
      ...(options.clientMetadata !== undefined ? { clientMetadata: options.clientMetadata } : {}),
      ...(options.redirect ? { redirectUri: options.redirect.redirectUri } : {}),
      grant,
      store,
    },
    http,
  );
  return {
    serverUrl,
    key: serverUrl.href,
    grant,
    store,
    http,
    registrar: grant === "jwt_bearer" ? assertionClients(registered, options) : registered,
    assertions: grant === "jwt_bearer" ? assertionSource(options) : undefined,
    settings: options,
    known: undefined,
    requested: [],
    reauthorizations: [],
    queue: Promise.resolve(),
    prover: options.dpopKeyPair
      ? Promise.resolve(createDPoPProver(options.dpopKeyPair))
      : undefined,
  };
}
