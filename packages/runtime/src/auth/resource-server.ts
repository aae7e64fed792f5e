import type { IncomingMessage, ServerResponse } from "node:http";

// The Streamable HTTP server as an OAuth 2.1 resource server (2026-07-28 basic/authorization,
// and 2025-11-25 basic/authorization): protected resource metadata (RFC 9728) at the
// well-known paths, bearer challenges (RFC 6750 section 3) on 401 and 403, audience binding
// (RFC 8707), and per-method or per-tool scopes. Token verification itself is a hook
// (`verifyToken`); runtime/auth-jwt.ts is a ready one for JWTs against a JWKS. The verified
// principal becomes the request's principal, which binds legacy sessions, sealed request
// state and cancellation (see `authenticate` in http-server.ts). Tokens are never logged,
// and never echoed in a response.

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
}

/** DPoP-bound access tokens (RFC 9449 section 7), beside bearer tokens. */
export interface DPoPOptions {
  /**
   * Checks a proof (signature, `typ`, `alg`, `htm`, `htu`, `iat`, `ath`, replay) and answers
   * its key's JWK SHA-256 thumbprint; throws InvalidDPoPProofError to refuse it.
   * runtime/auth-dpop-proof.ts has one (jose).
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

export interface ResourceServer {
  /** The absolute URL of the metadata document, as named in challenges. */
  readonly metadataUrl: string;
  /** The request's principal key; throws AuthChallenge (401, or 403 for missing required scopes). */
  authenticate(request: IncomingMessage): Promise<string>;
  /** The refusal (403) when the request's token lacks a scope `message` needs. */
  authorize(request: IncomingMessage, message: Record<string, unknown>): AuthChallenge | undefined;
  /** Serves the metadata document when `pathname` is one of its well-known paths. */
  serveMetadata(pathname: string, request: IncomingMessage, response: ServerResponse): boolean;
}

const WELL_KNOWN = "/.well-known/oauth-protected-resource";
type Scheme = "Bearer" | "DPoP";
/** RFC 6750 section 2.1 (and RFC 9449 section 7.1): a credential's scheme and b64token. */
const CREDENTIAL = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The canonical form of a resource URI for comparison: scheme and host lowercased (the URL
 * parser does it), no trailing slash on an empty path (2026-07-28 authorization, Canonical
 * Server URI; the empty path and "/" are the same resource). Not a URL: returned as it is, so it only ever equals itself.
 */
export function canonicalResource(uri: string): string {
  try {
    const url = new URL(uri);
    return url.pathname === "/" && !url.search ? url.href.slice(0, -1) : url.href;
  } catch {
    return uri;
  }
}

/** Whether a token's audience (`aud`) names `resource`. */
export function audienceIncludes(audience: string | readonly string[], resource: string): boolean {
  const wanted = canonicalResource(resource);
  const list = typeof audience === "string" ? [audience] : audience;
  return list.some((a) => typeof a === "string" && canonicalResource(a) === wanted);
}

/** A quoted-string auth-param value (RFC 9110 section 11.2), reduced to RFC 6750's safe characters. */
const quoted = (value: string) => `"${value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "")}"`;

/** Builds a resource server from options; throws one clear error for a bad option. */
export function createResourceServer(
  options: ResourceServerOptions,
  endpointPath = "/mcp",
): ResourceServer {
  let resource: URL;
  try {
    resource = new URL(options.resource);
  } catch {
    throw new Error(
      `auth.resource must be an absolute URL, not ${JSON.stringify(options.resource)}`,
    );
  }
  if (!/^https?:$/.test(resource.protocol) || resource.hash || options.resource.includes("#")) {
    throw new Error("auth.resource must be an http(s) URL without a fragment");
  }
  if (options.authorizationServers.length === 0) {
    // 2026-07-28 authorization-server-discovery: at least one authorization server.
    throw new Error("auth.authorizationServers must name at least one authorization server");
  }
  const required = [...(options.requiredScopes ?? [])];
  const supported = [...(options.scopesSupported ?? required)];
  // Refresh tokens are not a resource requirement (2026-07-28 authorization, Refresh Tokens).
  if ([...required, ...supported].includes("offline_access")) {
    throw new Error("offline_access is not a resource scope: leave it out of auth scopes");
  }
  const dpopAlgorithms = [...(options.dpop?.algorithms ?? ["ES256"])];
  /** The schemes this server takes credentials in. */
  const schemes = options.dpop ? /^(Bearer|DPoP)(\s|$)/i : /^Bearer(\s|$)/i;
  const path = resource.pathname === "/" ? "" : resource.pathname.replace(/\/$/, "");
  // RFC 9728 section 3.1: the well-known string goes between the host and the path.
  const metadataUrl = `${resource.origin}${WELL_KNOWN}${path}`;
  const metadataPaths = new Set([
    WELL_KNOWN,
    `${WELL_KNOWN}${path}`,
    `${WELL_KNOWN}${endpointPath}`,
  ]);
  const document = JSON.stringify({
    ...options.metadata,
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    ...(supported.length > 0 ? { scopes_supported: supported } : {}),
    bearer_methods_supported: ["header"],
    ...(options.dpop
      ? {
          dpop_signing_alg_values_supported: dpopAlgorithms,
          dpop_bound_access_tokens_required: options.dpop.required === true,
        }
      : {}),
  });
  const satisfies =
    options.scopeSatisfies ??
    ((granted: readonly string[], needed: string) => granted.includes(needed));
  const keyOf =
    options.principalKey ??
    ((p: Principal) => (p.issuer === undefined ? p.subject : `${p.issuer} ${p.subject}`));
  const principals = new WeakMap<IncomingMessage, { principal: Principal; scheme: Scheme }>();
  const challengeScope = required.length > 0 ? required : supported;

  /**
   * A challenge in the scheme the request used (its error goes there); to a request without
   * credentials a server taking DPoP offers both schemes, the DPoP one naming its `algs`
   * (RFC 9449 section 7.1).
   */
  const challenge = (
    status: 400 | 401 | 403,
    message: string,
    params: [string, string][],
    scheme: Scheme | "any",
  ) => {
    const render = (s: string, ps: [string, string][]) => {
      const all: [string, string][] = [...ps, ["resource_metadata", metadataUrl]];
      return `${s} ${all.map(([k, v]) => `${k}=${quoted(v)}`).join(", ")}`;
    };
    const algs: [string, string] = ["algs", dpopAlgorithms.join(" ")];
    const offered = !options.dpop
      ? [render("Bearer", params)]
      : scheme === "DPoP"
        ? [render("DPoP", [algs, ...params])]
        : scheme === "Bearer"
          ? [render("Bearer", params)]
          : [render("Bearer", params), render("DPoP", [algs])];
    return new AuthChallenge(status, message, { "www-authenticate": offered.join(", ") });
  };
  const scopeParam = (scopes: readonly string[]): [string, string][] =>
    scopes.length > 0 ? [["scope", scopes.join(" ")]] : [];
  const insufficient = (principal: Principal, scheme: Scheme, needed: readonly string[]) => {
    if (needed.every((scope) => satisfies(principal.scopes, scope))) return undefined;
    // Every scope the operation needs, in one challenge (2026-07-28 authorization, Scope
    // Challenge Handling), not just the missing ones.
    return challenge(
      403,
      "Forbidden: insufficient scope",
      [
        ["error", "insufficient_scope"],
        ...scopeParam(needed),
        ["error_description", "The access token lacks a scope this request needs"],
      ],
      scheme,
    );
  };
  const invalid = (description: string, scheme: Scheme) =>
    challenge(
      401,
      "Unauthorized: invalid token",
      [
        ["error", "invalid_token"],
        ["error_description", description],
      ],
      scheme,
    );
  const invalidProof = (description: string) =>
    challenge(
      401,
      "Unauthorized: invalid DPoP proof",
      [
        ["error", "invalid_dpop_proof"],
        ["error_description", description],
      ],
      "DPoP",
    );

  /** RFC 9449 section 7: a bound token only with the DPoP scheme and a proof by its key. */
  async function checkBinding(
    request: IncomingMessage,
    scheme: Scheme,
    token: string,
    principal: Principal,
  ): Promise<void> {
    const cnf = principal.claims?.["cnf"];
    const jkt =
      typeof cnf === "object" && cnf !== null ? (cnf as Record<string, unknown>)["jkt"] : undefined;
    if (scheme === "Bearer") {
      if (jkt !== undefined)
        throw invalid("A DPoP-bound token needs the DPoP scheme and a proof", scheme);
      return;
    }
    const proof = request.headers["dpop"];
    if (typeof proof !== "string" || proof === "" || proof.includes(","))
      throw invalidProof("Exactly one DPoP proof is needed");
    let thumbprint: string;
    try {
      thumbprint = await options.dpop!.verifyProof(proof, {
        method: request.method ?? "",
        url: options.resource,
        accessToken: token,
      });
    } catch (error) {
      const said = error instanceof InvalidDPoPProofError ? error.message : "";
      throw invalidProof(said && !said.includes(token) ? said : "The DPoP proof is not valid");
    }
    if (typeof jkt !== "string" || jkt !== thumbprint)
      throw invalid("The access token is not bound to the proof's key", "DPoP");
  }

  return {
    metadataUrl,

    async authenticate(request) {
      const header = request.headers.authorization;
      // RFC 6750 section 3.1: a request without credentials gets a challenge without an error code.
      if (header === undefined || !schemes.test(header)) {
        throw challenge(401, "Unauthorized", scopeParam(challengeScope), "any");
      }
      const [, given, token] = CREDENTIAL.exec(header) ?? [];
      const scheme: Scheme = given?.toLowerCase() === "dpop" ? "DPoP" : "Bearer";
      if (token === undefined) {
        throw challenge(
          400,
          "Bad request: malformed credentials",
          [["error", "invalid_request"]],
          scheme,
        );
      }
      if (scheme === "Bearer" && options.dpop?.required) {
        throw challenge(401, "Unauthorized", scopeParam(challengeScope), "DPoP");
      }
      let principal: Principal;
      try {
        principal = await options.verifyToken(token, request);
      } catch (error) {
        const said = error instanceof InvalidTokenError ? error.message : "";
        // A hook's message that quotes the token is not sent back.
        throw invalid(
          said && !said.includes(token) ? said : "The access token is not valid",
          scheme,
        );
      }
      // Even a server without DPoP refuses a bound token as a bearer one: whoever presents it
      // without the key is not who it was issued to.
      await checkBinding(request, scheme, token, principal);
      // The hook's audience check, checked again: a token for another resource is never
      // accepted (2026-07-28 authorization, Token Handling). Expiry is the hook's (with its
      // clock tolerance).
      if (!audienceIncludes(principal.audience, options.resource)) {
        throw invalid("The access token was not issued for this resource", scheme);
      }
      const refusal = insufficient(principal, scheme, required);
      if (refusal) throw refusal;
      principals.set(request, { principal, scheme });
      return keyOf(principal);
    },

    authorize(request, message) {
      const known = principals.get(request);
      if (!known) return challenge(401, "Unauthorized", scopeParam(challengeScope), "any");
      const method = typeof message["method"] === "string" ? message["method"] : "";
      const params = message["params"];
      const tool =
        method === "tools/call" && typeof params === "object" && params !== null
          ? (params as Record<string, unknown>)["name"]
          : undefined;
      const needed = new Set([
        ...required,
        ...(Object.hasOwn(options.methodScopes ?? {}, method)
          ? options.methodScopes![method]!
          : []),
        ...(typeof tool === "string" && Object.hasOwn(options.toolScopes ?? {}, tool)
          ? options.toolScopes![tool]!
          : []),
      ]);
      return insufficient(known.principal, known.scheme, [...needed]);
    },

    serveMetadata(pathname, request, response) {
      if (!metadataPaths.has(pathname)) return false;
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { allow: "GET, HEAD" }).end();
        return true;
      }
      response.writeHead(200, {
        "content-type": "application/json",
        // Public and the same for everyone: browser-based clients may read it.
        "access-control-allow-origin": "*",
      });
      response.end(request.method === "HEAD" ? undefined : document);
      return true;
    },
  };
}
