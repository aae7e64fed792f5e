import { AuthorizationError } from "./http-auth.js";

// The OAuth client's own network limits (issue 27): every document an OAuth peer serves
// (metadata, registration, token and IdP responses) is read up to a cap, as a stream that
// stops at the cap, so a hostile server cannot make the client buffer a body of any size.

/** Default for `maxResponseBytes`: 1 MiB, far above any real metadata or token response. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Statuses whose Response has no body (the Response constructor refuses one for them). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

const tooLarge = (url: URL, limit: number) =>
  new AuthorizationError(`the response of ${url.origin} exceeds maxResponseBytes (${limit} bytes)`);

/**
 * `response` with a body that errors once more than `limit` bytes arrive, cancelling the
 * transfer there (a declared Content-Length over the limit errors before anything is read).
 * The body is only read when a consumer asks: an unread 404 is cancelled as it is.
 */
export function cappedResponse(response: Response, url: URL, limit: number): Response {
  const source = response.body;
  if (source === null || NULL_BODY.has(response.status)) return response;
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const reader = source.getReader();
  let received = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (declared > limit) {
        await reader.cancel().catch(() => undefined);
        return controller.error(tooLarge(url, limit));
      }
      const { done, value } = await reader.read();
      if (done) return controller.close();
      received += value.byteLength;
      if (received > limit) {
        await reader.cancel().catch(() => undefined);
        return controller.error(tooLarge(url, limit));
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

/** The URL a fetch is for, whichever form it was given in. */
export function urlOf(input: string | URL | Request): URL {
  return new URL(input instanceof Request ? input.url : input);
}

/**
 * `fetchImpl` for OAuth peers: `check` runs before anything is sent (it throws to refuse a
 * URL), and every response comes back capped at `limit` bytes.
 */
export function limitedFetch(
  fetchImpl: typeof fetch,
  limit: number,
  check: (url: URL) => void = () => undefined,
): typeof fetch {
  return async (input, init) => {
    const url = urlOf(input);
    check(url);
    return cappedResponse(await fetchImpl(input, init), url, limit);
  };
}

/** The AuthorizationError among `error`'s causes (oauth4webapi wraps a body's read error). */
export function authorizationCause(error: unknown): AuthorizationError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof AuthorizationError) return e;
  return undefined;
}

/** Throws unless `value` (an option named `name`) is undefined or a positive integer. */
export function checkLimit(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
    throw new TypeError(`createOAuthClient: ${name} must be a positive integer`);
}
