import type { IncomingMessage, ServerResponse } from "node:http";
import type { ResourceServerOptions } from "./resource-server-types.js";

// Protected resource metadata (RFC 9728): the document that tells clients which authorization
// servers issue tokens for this resource, and the well-known paths it is served at.

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** The metadata document of one resource server, and where it is. */
export interface ProtectedResourceMetadata {
  /** The absolute URL of the document, as named in challenges. */
  readonly url: string;
  /** The request paths it is served at. */
  readonly paths: ReadonlySet<string>;
  /** The document itself, serialized once. */
  readonly document: string;
}

/**
 * The metadata of the resource `resource` (options.resource, parsed), served beside the MCP
 * endpoint at `endpointPath`; `supportedScopes` and `dpopAlgorithms` with their defaults.
 */
export function protectedResourceMetadata(
  options: ResourceServerOptions,
  resource: URL,
  endpointPath: string,
  supportedScopes: readonly string[],
  dpopAlgorithms: readonly string[],
): ProtectedResourceMetadata {
  const path = resource.pathname === "/" ? "" : resource.pathname.replace(/\/$/, "");
  // RFC 9728 section 3.1: the well-known string goes between the host and the path.
  const url = `${resource.origin}${WELL_KNOWN}${path}`;
  const paths = new Set([WELL_KNOWN, `${WELL_KNOWN}${path}`, `${WELL_KNOWN}${endpointPath}`]);
  const document = JSON.stringify({
    ...options.metadata,
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    ...(supportedScopes.length > 0 ? { scopes_supported: supportedScopes } : {}),
    bearer_methods_supported: ["header"],
    ...(options.dpop
      ? {
          dpop_signing_alg_values_supported: dpopAlgorithms,
          dpop_bound_access_tokens_required: options.dpop.required === true,
        }
      : {}),
  });
  return { url, paths, document };
}

/** Serves the document when `pathname` is one of its paths; answers whether it did. */
export function serveProtectedResourceMetadata(
  metadata: ProtectedResourceMetadata,
  pathname: string,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  if (!metadata.paths.has(pathname)) return false;
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD" }).end();
    return true;
  }
  response.writeHead(200, {
    "content-type": "application/json",
    // Public and the same for everyone: browser-based clients may read it.
    "access-control-allow-origin": "*",
  });
  response.end(request.method === "HEAD" ? undefined : metadata.document);
  return true;
}
