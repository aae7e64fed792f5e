import type { IncomingMessage } from "node:http";
import {
  authenticateRequest,
  type Authentication,
  type AuthenticationSettings,
} from "./request-authentication.js";
import { protectedResourceMetadata, serveProtectedResourceMetadata } from "./resource-metadata.js";
import { resolveResourceServerConfig } from "./resource-server-config.js";
import type { ResourceServer, ResourceServerOptions } from "./resource-server-types.js";
import { insufficientScope, scopeChallenge, scopesNeeded } from "./scope-policy.js";
import { challenge, scopeParam, type ChallengeSettings } from "./www-authenticate.js";

// The Streamable HTTP server as an OAuth 2.1 resource server (2026-07-28 basic/authorization,
// and 2025-11-25 basic/authorization): protected resource metadata (RFC 9728) at the
// well-known paths, bearer challenges (RFC 6750 section 3) on 401 and 403, audience binding
// (RFC 8707), and per-method or per-tool scopes. Token verification itself is a hook
// (`verifyToken`); jwt.ts is a ready one for JWTs against a JWKS. The verified
// principal becomes the request's principal, which binds legacy sessions, sealed request
// state and cancellation (see `authenticate` in transport/http/options.ts). Tokens are never logged,
// and never echoed in a response.

// The parts, each in its own module: the options checked (resource-server-config.ts), the
// metadata (resource-metadata.ts), challenges (www-authenticate.ts), a request's
// authentication (request-authentication.ts, with dpop-binding.ts and audience.ts) and its
// scopes (scope-policy.ts). The public types are in resource-server-types.ts.

export { audienceIncludes, canonicalResource } from "./audience.js";
export {
  AuthChallenge,
  InvalidDPoPProofError,
  InvalidTokenError,
  type AuthenticateOptions,
  type DPoPOptions,
  type DPoPProofCheck,
  type Principal,
  type ResourceServer,
  type ResourceServerOptions,
} from "./resource-server-types.js";

/** Builds a resource server from options; throws one clear error for a bad option. */
export function createResourceServer(
  options: ResourceServerOptions,
  endpointPath = "/mcp",
): ResourceServer {
  const config = resolveResourceServerConfig(options);
  const { requiredScopes, challengeScopes, satisfies, principalKey } = config;
  const metadata = protectedResourceMetadata(
    options,
    config.resourceUrl,
    endpointPath,
    config.supportedScopes,
    config.dpopAlgorithms,
  );
  const challenges: ChallengeSettings = {
    metadataUrl: metadata.url,
    dpopAlgorithms: options.dpop ? config.dpopAlgorithms : undefined,
  };
  const authentication: AuthenticationSettings = {
    options,
    acceptsDPoP: Boolean(options.dpop),
    requiredScopes,
    challengeScopes,
    satisfies,
    challenges,
    principalKey,
  };
  const principals = new WeakMap<IncomingMessage, Authentication>();

  return {
    metadataUrl: metadata.url,

    async authenticate(request, { deferScopeCheck = false } = {}) {
      const authenticated = await authenticateRequest(authentication, request, !deferScopeCheck);
      principals.set(request, authenticated);
      return principalKey(authenticated.principal);
    },

    authorize(request, message) {
      const known = principals.get(request);
      if (!known)
        return challenge(challenges, 401, "Unauthorized", scopeParam(challengeScopes), "any");
      const needed = scopesNeeded(message, requiredScopes, options);
      return insufficientScope(challenges, satisfies, known.principal, known.scheme, needed);
    },

    principal: (request) => principals.get(request)?.principal,

    refuseScopes(request, message, scopes) {
      const needed = new Set([...scopesNeeded(message, requiredScopes, options), ...scopes]);
      return scopeChallenge(challenges, principals.get(request)?.scheme ?? "any", [...needed]);
    },

    serveMetadata: (pathname, request, response) =>
      serveProtectedResourceMetadata(metadata, pathname, request, response),
  };
}
