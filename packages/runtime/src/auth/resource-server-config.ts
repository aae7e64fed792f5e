import type { Principal, ResourceServerOptions } from "./resource-server-types.js";
import { grantedIncludes, type ScopeSatisfies } from "./scope-policy.js";

// A resource server's options checked (one clear error for a bad one) and completed with
// their defaults, once, when the server is built.

/** The options as a resource server uses them. */
export interface ResourceServerConfig {
  /** options.resource, parsed. */
  readonly resourceUrl: URL;
  /** Scopes every request needs. */
  readonly requiredScopes: readonly string[];
  /** The metadata's `scopes_supported`. */
  readonly supportedScopes: readonly string[];
  /** The `scope` of a 401 challenge: the required scopes, else the supported ones. */
  readonly challengeScopes: readonly string[];
  /** The DPoP proof algorithms accepted (used only when options.dpop is set). */
  readonly dpopAlgorithms: readonly string[];
  readonly satisfies: ScopeSatisfies;
  readonly principalKey: (principal: Principal) => string;
}

/** The default principal key: issuer and subject. */
const issuerAndSubject = (p: Principal) =>
  p.issuer === undefined ? p.subject : `${p.issuer} ${p.subject}`;

/** Checks `options` and completes them with their defaults; throws one clear error for a bad option. */
export function resolveResourceServerConfig(options: ResourceServerOptions): ResourceServerConfig {
  let resourceUrl: URL;
  try {
    resourceUrl = new URL(options.resource);
  } catch {
    throw new Error(
      `auth.resource must be an absolute URL, not ${JSON.stringify(options.resource)}`,
    );
  }
  if (
    !/^https?:$/.test(resourceUrl.protocol) ||
    resourceUrl.hash ||
    options.resource.includes("#")
  ) {
    throw new Error("auth.resource must be an http(s) URL without a fragment");
  }
  if (options.authorizationServers.length === 0) {
    // 2026-07-28 authorization-server-discovery: at least one authorization server.
    throw new Error("auth.authorizationServers must name at least one authorization server");
  }
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const supportedScopes = [...(options.scopesSupported ?? requiredScopes)];
  // Refresh tokens are not a resource requirement (2026-07-28 authorization, Refresh Tokens).
  if ([...requiredScopes, ...supportedScopes].includes("offline_access")) {
    throw new Error("offline_access is not a resource scope: leave it out of auth scopes");
  }
  return {
    resourceUrl,
    requiredScopes,
    supportedScopes,
    challengeScopes: requiredScopes.length > 0 ? requiredScopes : supportedScopes,
    dpopAlgorithms: [...(options.dpop?.algorithms ?? ["ES256"])],
    satisfies: options.scopeSatisfies ?? grantedIncludes,
    principalKey: options.principalKey ?? issuerAndSubject,
  };
}
