import type { IncomingMessage, ServerResponse } from "node:http";

// The resource server's public contract (re-exported by resource-server.ts, where the
// behaviour is described): its options and hooks, the principal a token speaks for, the
// errors hooks throw, and the challenge a refused request gets.

/** Who a verified access token speaks for. */
export interface Principal {
  /** The resource owner (`sub`). */
  subject: string;
  /** The scopes the token grants. */
  scopes: readonly string[];
  /** The authorization server that issued the token (`iss`). */
  issuer?: string;
  /** The client the token was issued to (`client_id` or `azp`). */
  clientId?: string;
  /** The resources the token is for (`aud`): must name this server (RFC 8707). */
  audience: string | readonly string[];
  /** Expiry, in seconds since the epoch (`exp`). */
  expiresAt?: number;
  /** Every claim, for handlers that need more. */
  claims?: Readonly<Record<string, unknown>>;
}

/**
 * Thrown by a `verifyToken` hook for a token that is not valid here: answered with 401
 * `error="invalid_token"` and this description (which must not contain the token).
 */
export class InvalidTokenError extends Error {
  override readonly name = "InvalidTokenError";
}

/** Thrown by `dpop.verifyProof` for a proof not valid here: 401 `error="invalid_dpop_proof"`. */
export class InvalidDPoPProofError extends Error {
  override readonly name = "InvalidDPoPProofError";
}

/** What a DPoP proof must match: this request (RFC 9449 section 4.3) and its token (`ath`). */
export interface DPoPProofCheck {
  method: string;
  /** This server's resource identifier: the `htu` clients sign (without query or fragment). */
  url: string;
  accessToken: string;
  /**
   * The principal key (`principalKey`) of the token's principal, which the resource server
   * passes: replay caches count proofs per principal with it.
   */
  principal?: string;
}

/** DPoP-bound access tokens (RFC 9449 section 7), beside bearer tokens. */
export interface DPoPOptions {
  /**
   * Checks a proof (signature, `typ`, `alg`, `htm`, `htu`, `iat`, `ath`, replay: see
   * createDPoPProofVerifier's limits) and answers
   * its key's JWK SHA-256 thumbprint; throws InvalidDPoPProofError to refuse it.
   * dpop-proof.ts has one (jose).
   */
  verifyProof(proof: string, expected: DPoPProofCheck): Promise<string>;
  /** The proof algorithms accepted, for the metadata and the challenge's `algs` (default ES256). */
  algorithms?: readonly string[];
  /** Refuse bearer tokens altogether (`dpop_bound_access_tokens_required`; default false). */
  required?: boolean;
}

export interface ResourceServerOptions {
  /** This server's resource identifier, its canonical URI (RFC 8707), e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** The authorization servers whose tokens this server accepts (their issuer identifiers). */
  authorizationServers: readonly string[];
  /**
   * Checks a bearer token (signature, issuer, expiry, audience); throw (preferably an
   * InvalidTokenError) to refuse it with 401.
   */
  verifyToken(token: string, request: IncomingMessage): Promise<Principal>;
  /** Scopes every request needs (a token without them gets 403); also the 401 challenge's `scope`. */
  requiredScopes?: readonly string[];
  /** `scopes_supported` of the metadata (default: requiredScopes). Never `offline_access`. */
  scopesSupported?: readonly string[];
  /** Extra scopes by JSON-RPC method, e.g. `{ "resources/read": ["files:read"] }`. */
  methodScopes?: Readonly<Record<string, readonly string[]>>;
  /** Extra scopes by tool name (tools/call), e.g. `{ deploy: ["mcp:deploy"] }`. */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** Whether granted scopes satisfy a needed one, for scope hierarchies (default: it is among them). */
  scopeSatisfies?: (granted: readonly string[], needed: string) => boolean;
  /** More protected resource metadata (`resource_name`, `resource_documentation`, ...). */
  metadata?: Readonly<Record<string, unknown>>;
  /** The key binding sessions, request state and cancellation (default: issuer and subject). */
  principalKey?: (principal: Principal) => string;
  /** Accept DPoP-bound tokens (RFC 9449); a bound token is then never accepted as a bearer one. */
  dpop?: DPoPOptions;
}

/** A refusal with its HTTP status and `WWW-Authenticate` challenge. */
export class AuthChallenge extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    message: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/** How `ResourceServer.authenticate` treats one request. */
export interface AuthenticateOptions {
  /**
   * Leave the required-scope check to `authorize` (default false): for a request whose
   * message is read after authentication, so that the 403 names every scope it needs.
   */
  deferScopeCheck?: boolean;
}

export interface ResourceServer {
  /** The absolute URL of the metadata document, as named in challenges. */
  readonly metadataUrl: string;
  /**
   * The request's principal key; throws AuthChallenge: 400 or 401, or 403 when the token lacks
   * the required scopes. With `deferScopeCheck`, that 403 is left to `authorize`, which the
   * caller must then call once the request's message is read: its challenge names the
   * required scopes with the method's and the tool's, all the operation needs, so a client
   * steps up once (2026-07-28 authorization, Scope Challenge Handling).
   */
  authenticate(request: IncomingMessage, options?: AuthenticateOptions): Promise<string>;
  /**
   * The refusal (403) when the request's token lacks a scope `message` needs (the required
   * ones, its method's, its tool's), naming all of them; undefined when it has them.
   */
  authorize(request: IncomingMessage, message: Record<string, unknown>): AuthChallenge | undefined;
  /** The principal `authenticate` verified for `request`, or undefined. */
  principal(request: IncomingMessage): Principal | undefined;
  /**
   * The 403 for `message` refused elsewhere (a `requireScopes` middleware) for want of
   * `scopes`: its challenge names them with those `authorize` would (the required scopes, the
   * method's, the tool's), all the operation needs.
   */
  refuseScopes(
    request: IncomingMessage,
    message: Record<string, unknown>,
    scopes: readonly string[],
  ): AuthChallenge;
  /** Serves the metadata document when `pathname` is one of its well-known paths. */
  serveMetadata(pathname: string, request: IncomingMessage, response: ServerResponse): boolean;
}
