import { AuthorizationError } from "./http-auth.js";

// The pluggable pieces of the OAuth client (oauth-client.ts) with their safe defaults: where
// tokens and registrations are kept (in memory unless the app gives a store), and how the
// user agent is sent to the authorization server (the app opens a browser; tests and
// unattended clients follow the redirect headlessly).

/** Tokens for one MCP server (resource), bound to the authorization server that issued them. */
export interface StoredTokens {
  /** The `issuer` of the authorization server that issued them: they never go to another. */
  issuer: string;
  /** The resource indicator they were obtained for (none for 2025-03-26 servers). */
  resource?: string;
  accessToken: string;
  refreshToken?: string;
  /** When the access token expires (epoch ms), if the server said. */
  expiresAt?: number;
  /** The scopes granted (as the token response said, else as requested). */
  scopes: string[];
  /**
   * `"dpop"` when the token is bound to the client's DPoP key (RFC 9449: sent with the DPoP
   * scheme and a proof, and useless without the key); absent for a bearer token.
   */
  tokenType?: "dpop";
}

/** A client registered with one authorization server (Dynamic Client Registration). */
export interface RegisteredClient {
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: string;
}

/**
 * Where tokens (per MCP server URL) and registrations (per authorization server `issuer`, as
 * 2026-07-28 basic/authorization/client-registration "Authorization Server Binding" asks) are
 * kept. Persist it (encrypted, as OAuth 2.1 section 4.3 asks of refresh tokens) to stay signed
 * in across runs.
 */
export interface TokenStore {
  getTokens(resource: string): Promise<StoredTokens | undefined> | StoredTokens | undefined;
  setTokens(resource: string, tokens: StoredTokens | undefined): Promise<void> | void;
  getClient(issuer: string): Promise<RegisteredClient | undefined> | RegisteredClient | undefined;
  setClient(issuer: string, client: RegisteredClient | undefined): Promise<void> | void;
}

/** The default store: this process's memory. */
export function memoryTokenStore(): TokenStore {
  const tokens = new Map<string, StoredTokens>();
  const clients = new Map<string, RegisteredClient>();
  function put<T>(map: Map<string, T>, key: string, value: T | undefined): void {
    if (value === undefined) map.delete(key);
    else map.set(key, value);
  }
  return {
    getTokens: (resource) => tokens.get(resource),
    setTokens: (resource, value) => put(tokens, resource, value),
    getClient: (issuer) => clients.get(issuer),
    setClient: (issuer, value) => put(clients, issuer, value),
  };
}

/** Sends the user agent to the authorization server and hands back where it was redirected. */
export interface RedirectHandler {
  /** The redirect URI the client is registered with (a loopback `http` URL, or `https`). */
  readonly redirectUri: string;
  /**
   * Has the user agent visit `authorizationUrl` (open a browser, ...); resolves to the URL the
   * authorization server redirected back to, with its query (`code`, `state`, `iss`).
   */
  authorize(authorizationUrl: URL, signal?: AbortSignal): Promise<URL | string>;
}

/**
 * A redirect handler without a browser: fetches the authorization URL and reads the redirect
 * from its `Location`. For tests, and authorization servers that approve without a user.
 */
export function headlessRedirect(
  redirectUri: string,
  options: { fetch?: typeof fetch } = {},
): RedirectHandler {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    redirectUri,
    async authorize(authorizationUrl, signal) {
      const response = await fetchImpl(authorizationUrl, {
        redirect: "manual",
        ...(signal ? { signal } : {}),
      });
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null)
        throw new AuthorizationError(
          `the authorization endpoint did not redirect back (HTTP ${response.status})`,
        );
      const back = new URL(location, authorizationUrl);
      const expected = new URL(redirectUri);
      if (back.origin !== expected.origin || back.pathname !== expected.pathname)
        throw new AuthorizationError("the authorization server redirected elsewhere");
      return back;
    },
  };
}
