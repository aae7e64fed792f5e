import { AuthorizationError } from "./http-auth.js";

// How often one MCP server may have the OAuth client authorize again (issue 27): a server
// that refuses every token, or asks for a new scope each time (403 insufficient_scope), would
// otherwise send the user to the authorization server on every call. A few re-authorizations
// come at once (a step-up per new tool); past them, each waits twice as long as the last.

/** Default for `maxReauthorizations`: re-authorizations that come at once. */
export const DEFAULT_MAX_REAUTHORIZATIONS = 3;
/** Default for `reauthorizationBackoffMs`: the first wait past them, doubled each time. */
export const DEFAULT_REAUTHORIZATION_BACKOFF_MS = 60_000;
/** Default for `maxScopes`: the scopes one authorization may ask for. */
export const DEFAULT_MAX_SCOPES = 64;
/** Re-authorizations are remembered this long: a quiet hour starts afresh, and no wait is longer. */
export const REAUTHORIZATION_MEMORY_MS = 3_600_000;

export interface ReauthorizationPolicy {
  max: number;
  backoffMs: number;
}

/**
 * When the next re-authorization may start (epoch ms), after those at `past` (oldest first):
 * now while fewer than `max` were in the last hour, else `backoffMs`, doubled for each one
 * past `max`, after the last (at most an hour).
 */
export function nextReauthorizationAt(
  past: readonly number[],
  now: number,
  policy: ReauthorizationPolicy,
): number {
  const recent = past.filter((at) => now - at < REAUTHORIZATION_MEMORY_MS);
  if (recent.length < policy.max) return now;
  const wait = policy.backoffMs * 2 ** (recent.length - policy.max);
  return recent.at(-1)! + Math.min(wait, REAUTHORIZATION_MEMORY_MS);
}

/**
 * Records a re-authorization about to start in `past` (kept to the last hour), or throws an
 * AuthorizationError when it must wait.
 */
export function startReauthorization(past: number[], policy: ReauthorizationPolicy): void {
  const now = Date.now();
  past.splice(0, past.length, ...past.filter((at) => now - at < REAUTHORIZATION_MEMORY_MS));
  const at = nextReauthorizationAt(past, now, policy);
  if (at > now)
    throw new AuthorizationError(
      `re-authorization refused: this server asked for ${past.length} in the last hour (maxReauthorizations); the next is possible in ${Math.ceil((at - now) / 1000)} s`,
    );
  past.push(now);
}
