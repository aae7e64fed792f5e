// Audience binding (RFC 8707): a token is accepted only for the resource it names, compared
// in the canonical form of resource URIs.

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
