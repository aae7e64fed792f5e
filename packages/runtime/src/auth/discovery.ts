import * as oauth from "oauth4webapi";
import { AuthorizationError } from "./http-auth.js";
import { authorizationCause } from "./network.js";

// Discovery for the OAuth client (2026-07-28 basic/authorization/authorization-server-discovery):
// the challenge of a 401/403, the server's Protected Resource Metadata (RFC 9728), and its
// authorization server's metadata (RFC 8414 / OpenID Connect Discovery, path-aware), with the
// 2025-03-26 fallbacks for servers that publish no resource metadata. oauth4webapi parses and
// validates the documents; this module decides which URLs to try, in the spec's order.

/** How discovery reaches the network: the fetch to use, and whether a URL may be plain http. */
export interface Http {
  fetch: typeof fetch;
  insecure(url: URL): boolean;
  signal?: AbortSignal;
}

/** What oauth4webapi's request functions take for the same settings. */
export function requestOptions(http: Http, url: URL) {
  return {
    [oauth.customFetch]: http.fetch,
    [oauth.allowInsecureRequests]: http.insecure(url),
    ...(http.signal ? { signal: http.signal } : {}),
  };
}

/** The parts of a `WWW-Authenticate: Bearer` (or `DPoP`, RFC 9449 section 7.1) challenge the client acts on. */
export interface Challenge {
  status: number;
  error?: string;
  scopes?: string[];
  resourceMetadata?: string;
  /** The `DPoP-Nonce` of a DPoP `use_dpop_nonce` challenge (RFC 9449 section 9). */
  dpopNonce?: string;
}

/**
 * Reads the Bearer challenge of a refused response with oauth4webapi's RFC 7235 parser, which
 * it exposes through the WWWAuthenticateChallengeError its response processors throw.
 */
export async function challengeOf(response: Response): Promise<Challenge> {
  const header = response.headers.get("www-authenticate");
  const challenge: Challenge = { status: response.status };
  if (header === null) return challenge;
  const probe = new Response(null, { status: 401, headers: { "www-authenticate": header } });
  try {
    await oauth.processRevocationResponse(probe);
  } catch (error) {
    if (!(error instanceof oauth.WWWAuthenticateChallengeError)) return challenge;
    // A server taking both schemes may send both challenges; their parameters are alike.
    const chosen =
      error.cause.find((c) => c.scheme === "bearer") ??
      error.cause.find((c) => c.scheme === "dpop");
    const { error: code, scope, resource_metadata } = chosen?.parameters ?? {};
    if (code) challenge.error = code;
    if (scope) challenge.scopes = scope.split(" ").filter(Boolean);
    if (resource_metadata) challenge.resourceMetadata = resource_metadata;
    const nonce = response.headers.get("dpop-nonce");
    const nonceAsked = error.cause.some(
      (c) => c.scheme === "dpop" && c.parameters.error === "use_dpop_nonce",
    );
    if (nonceAsked && nonce !== null) {
      challenge.error = "use_dpop_nonce";
      challenge.dpopNonce = nonce;
    }
  }
  return challenge;
}

/** Protected Resource Metadata, as far as the client uses it. */
export interface ResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
}

/**
 * Whether `resource` identifies the MCP server at `serverUrl`: same origin, and a path that is
 * the server's or one of its parents (RFC 9728 section 3.3 and 7.3: a client must not use
 * metadata published for another resource; 2026-07-28 basic/authorization "Canonical Server URI").
 */
export function resourceMatches(resource: string, serverUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== serverUrl.origin || url.hash !== "" || url.search !== "") return false;
  const base = url.pathname.replace(/\/+$/, "");
  const path = serverUrl.pathname.replace(/\/+$/, "");
  return base === "" || path === base || path.startsWith(`${base}/`);
}

/** A body that is not JSON reads as undefined; one over the size cap stays an error. */
export function unlessTooLarge(error: unknown): undefined {
  const cause = authorizationCause(error);
  if (cause) throw cause;
  return undefined;
}

/** GETs a metadata document; undefined when the server has none there (any non-200). */
async function getJson(http: Http, url: URL): Promise<Response | undefined> {
  oauth.checkProtocol(url, !http.insecure(url));
  const response = await http.fetch(url, {
    headers: { accept: "application/json" },
    redirect: "manual",
    ...(http.signal ? { signal: http.signal } : {}),
  });
  if (response.status === 200) return response;
  await response.body?.cancel().catch(() => undefined);
  return undefined;
}

/**
 * The challenge's `resource_metadata` URL, checked before anything is fetched: on the MCP
 * server's own origin, where RFC 9728 (section 3) publishes a resource's metadata, and
 * without credentials. A server could otherwise have the client request any URL, on any
 * host its network reaches (issue 27).
 */
function challengedMetadataUrl(value: string, serverUrl: URL): URL {
  const url = URL.canParse(value, serverUrl) ? new URL(value, serverUrl) : undefined;
  if (url?.origin !== serverUrl.origin || url.username !== "" || url.password !== "")
    throw new AuthorizationError(
      "the challenge's resource_metadata URL is not on the MCP server's origin: refused",
    );
  return url;
}

/**
 * The server's Protected Resource Metadata: from the challenge's `resource_metadata` when
 * given, else (or when nothing is there) the path-specific well-known URI, then the root one.
 * Undefined when there is none (a 2025-03-26 server); refused when it names another resource.
 */
export async function discoverResource(
  http: Http,
  serverUrl: URL,
  challenge: Challenge,
): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (challenge.resourceMetadata !== undefined)
    candidates.push(challengedMetadataUrl(challenge.resourceMetadata, serverUrl));
  const path = serverUrl.pathname.replace(/\/+$/, "");
  if (path !== "")
    candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl));
  candidates.push(new URL("/.well-known/oauth-protected-resource", serverUrl));
  for (const url of candidates) {
    const response = await getJson(http, url);
    if (!response) continue;
    const peek = (await response.clone().json().catch(unlessTooLarge)) as
      { resource?: unknown } | undefined;
    if (typeof peek?.resource !== "string" || !resourceMatches(peek.resource, serverUrl))
      throw new AuthorizationError(
        "the protected resource metadata is for another resource than this server",
      );
    const metadata = await oauth.processResourceDiscoveryResponse(new URL(peek.resource), response);
    const servers = metadata.authorization_servers;
    if (!Array.isArray(servers) || servers.length === 0)
      throw new AuthorizationError("the protected resource metadata names no authorization server");
    return {
      resource: peek.resource,
      authorizationServers: servers,
      ...(metadata.scopes_supported ? { scopesSupported: metadata.scopes_supported } : {}),
    };
  }
  return undefined;
}

/**
 * The well-known URLs of an issuer's metadata, in the order the spec gives: with a path, RFC
 * 8414 path insertion, OpenID Connect path insertion, OpenID Connect path appending; without
 * one, RFC 8414 then OpenID Connect.
 */
export function metadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, "");
  const at = (p: string) => new URL(p, issuer.origin);
  if (path === "")
    return [at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * The authorization server metadata of `issuer`: the first document found, validated by
 * oauth4webapi, whose `issuer` must also be the identical string (no normalization). PKCE
 * support is the authorization code grant's to check (grant.ts): the other grants never
 * visit the authorization endpoint.
 */
export async function discoverAuthorizationServer(
  http: Http,
  issuer: string,
): Promise<oauth.AuthorizationServer | undefined> {
  const issuerUrl = new URL(issuer);
  for (const url of metadataUrls(issuerUrl)) {
    const response = await getJson(http, url);
    if (!response) continue;
    const as = await oauth.processDiscoveryResponse(issuerUrl, response);
    if (as.issuer !== issuer)
      throw new AuthorizationError("the authorization server metadata is for another issuer");
    return as;
  }
  return undefined;
}

/**
 * 2025-03-26 basic/authorization: a server without resource metadata is its own authorization
 * server at its origin (the "authorization base URL"): RFC 8414 metadata there, else the
 * default endpoints /authorize, /token and /register (that revision requires PKCE).
 */
export async function legacyAuthorizationServer(
  http: Http,
  serverUrl: URL,
): Promise<oauth.AuthorizationServer> {
  const issuer = serverUrl.origin;
  const response = await getJson(http, new URL("/.well-known/oauth-authorization-server", issuer));
  if (response) return oauth.processDiscoveryResponse(new URL(issuer), response);
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    code_challenge_methods_supported: ["S256"],
  };
}
