// The HTTP client transport's authorization hook. The OAuth client that implements it
// (oauth-client.ts, with its oauth4webapi dependency) is emitted only on request.

/**
 * The transport's authorization hook, free of any OAuth machinery: `headers()` goes on every
 * request to the endpoint (POST, GET streams, DELETE); a `401`, or a `403` whose challenge is
 * `insufficient_scope` (2026-07-28 basic/authorization "Scope Challenge Handling"), goes to
 * `onChallenge`, which may (re)authorize and ask for the request to be sent again. Retries are
 * bounded per request; a refused or exhausted challenge fails the request with AuthorizationError.
 */
export interface HttpAuth {
  /** `request` is the request the headers go on (a DPoP proof is bound to its method and URL). */
  headers(request: AuthorizedRequest): Promise<Record<string, string>> | Record<string, string>;
  onChallenge(response: Response, context: ChallengeContext): Promise<"retry" | "fail">;
}

export interface AuthorizedRequest {
  method: string;
  url: URL;
}

export interface ChallengeContext {
  /** The authorization headers the refused request carried (a newer token may exist since). */
  sent: Record<string, string>;
  signal?: AbortSignal;
}

/** The server refused this client's authorization (a 401 or 403 challenge it could not answer). */
export class AuthorizationError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = "AuthorizationError";
    this.status = status;
  }
}

/** Authorizations one request may trigger: a 401 then a step-up 403 (then it fails). */
const MAX_AUTH_RETRIES = 2;

/** A response that asks for (more) authorization: 401, or 403 `insufficient_scope` (RFC 6750 3.1). */
function isChallenge(response: Response): boolean {
  if (response.status === 401) return true;
  const header = response.headers.get("www-authenticate") ?? "";
  return response.status === 403 && /\berror\s*=\s*"?insufficient_scope\b/i.test(header);
}

/**
 * One HTTP request with the hook's headers; a challenge goes to the hook, and the request is
 * sent again when it says so, at most MAX_AUTH_RETRIES times. `onAuthorizing` tells the caller
 * when an authorization (maybe a user at a browser) is under way, so its timeout can pause.
 */
export async function authorizedFetch(
  fetchImpl: typeof fetch,
  url: string | URL,
  auth: HttpAuth | undefined,
  init: RequestInit & { headers: Record<string, string> },
  onAuthorizing?: (active: boolean) => void,
): Promise<Response> {
  const request = { method: init.method ?? "GET", url: new URL(url) };
  for (let attempt = 0; ; attempt++) {
    const sent = auth ? await auth.headers(request) : {};
    const response = await fetchImpl(url, { ...init, headers: { ...init.headers, ...sent } });
    if (!auth || !isChallenge(response)) return response;
    await response.body?.cancel().catch(() => undefined);
    if (attempt >= MAX_AUTH_RETRIES)
      throw new AuthorizationError(
        `the server still refuses the authorization after ${attempt} attempts (HTTP ${response.status})`,
        response.status,
      );
    onAuthorizing?.(true);
    let verdict: "retry" | "fail";
    try {
      const signal = init.signal ?? undefined;
      verdict = await auth.onChallenge(response, { sent, ...(signal ? { signal } : {}) });
    } finally {
      onAuthorizing?.(false);
    }
    if (verdict !== "retry")
      throw new AuthorizationError(
        `the server refused the authorization (HTTP ${response.status})`,
        response.status,
      );
  }
}
