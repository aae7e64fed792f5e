import { defaultFetch } from "#default-fetch";
import { authorizedFetch } from "../../../auth/http-auth.js";
import type { ProtocolDescriptor } from "../../../core/protocol.js";
import {
  describeCause,
  SessionExpiredError,
  TransportError,
} from "../../../core/transport-error.js";
import { shownUrl, type HttpRequestLabel } from "./body.js";
import type { HttpTransportOptions } from "./client-options.js";
import { routingHeaders } from "../headers.js";

// The HTTP requests the client transport (client.ts) sends to its one endpoint: a POST per
// message, a GET per event stream it opens or resumes, a DELETE at the end of a session; and
// the legacy session (2025-xx Streamable HTTP) whose headers these carry once it began.

/** What the endpoint needs of the transport's options. */
export type EndpointOptions = Pick<HttpTransportOptions, "url" | "headers" | "fetch" | "auth">;

/** A legacy session: its id, from the initialize response, and the negotiated version. */
export interface LegacySessionIds {
  id: string | undefined;
  version: string | undefined;
}

/** Redirects followed within the server's origin before a request gives up. */
export const MAX_REDIRECTS = 5;

/**
 * `fetchImpl`, failing as a TransportError where fetch rejects with a TypeError because no
 * response came (refused, reset, DNS). An abort keeps its reason (the caller's, or the closing's).
 * Redirects are followed only within the server's origin (see followRedirects).
 */
export function guardedFetch(fetchImpl: typeof fetch, url: string | URL): typeof fetch {
  return async (input, init) => {
    try {
      if (typeof input !== "string" && !(input instanceof URL)) return await fetchImpl(input, init);
      return await followRedirects(fetchImpl, input, init ?? {});
    } catch (error) {
      if (init?.signal?.aborted) throw init.signal.reason;
      if (!(error instanceof TypeError)) throw error;
      const message = `could not reach ${shownUrl(url)}: ${describeCause(error)}`;
      throw new TransportError("unreachable", message, { cause: error });
    }
  };
}

/**
 * One request, following redirects by hand: fetch's own following would send the body (a
 * tool call's arguments) and headers such as DPoP to whatever origin the server names, and
 * take that origin's answer as the server's. Only 307 and 308 keep a POST a POST; anything
 * else that moves a request, or leaves the origin, is refused with a TransportError naming
 * where it led.
 */
async function followRedirects(
  fetchImpl: typeof fetch,
  input: string | URL,
  init: RequestInit,
): Promise<Response> {
  const start = new URL(input);
  let target = start;
  for (let hops = 0; ; hops++) {
    // The caller's own input first, as given (a custom fetch may expect a string).
    const response = await fetchImpl(hops === 0 ? input : target.href, {
      ...init,
      redirect: "manual",
    });
    // A browser's fetch hides where a manual redirect leads: nothing to check, so nothing followed.
    if (response.type === "opaqueredirect")
      throw new TransportError(
        "unreachable",
        `${shownUrl(target)} answered with a redirect, which MCP requests do not follow here: use the URL it redirects to`,
      );
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, target);
    const why =
      next.origin !== start.origin
        ? `to another origin (${next.origin})`
        : (init.method ?? "GET") !== "GET" && response.status !== 307 && response.status !== 308
          ? `with HTTP ${response.status}, which turns a ${init.method} into a GET`
          : hops >= MAX_REDIRECTS
            ? `more than ${MAX_REDIRECTS} times`
            : undefined;
    if (why !== undefined)
      throw new TransportError(
        "unreachable",
        `${shownUrl(start)} redirected ${why}; MCP requests follow redirects only within the server's origin: use the URL it redirects to`,
      );
    target = next;
  }
}

export class HttpEndpoint {
  readonly protocol: ProtocolDescriptor;
  readonly options: EndpointOptions;
  // What errors name: the request that failed, never the credentials a URL may carry.
  readonly posting: HttpRequestLabel;
  readonly resuming: HttpRequestLabel;
  // A legacy session (2025-xx Streamable HTTP): its id, from the initialize response, and
  // the negotiated version, both sent on every later message. Undefined: modern era.
  session: LegacySessionIds | undefined = undefined;
  readonly #fetch: typeof fetch;

  constructor(protocol: ProtocolDescriptor, options: EndpointOptions) {
    this.protocol = protocol;
    this.options = options;
    this.posting = { httpMethod: "POST", url: options.url };
    this.resuming = { httpMethod: "GET", url: options.url };
    this.#fetch = guardedFetch(options.fetch ?? defaultFetch, options.url);
  }

  /** One HTTP request to the endpoint, authorized when the transport has an auth hook. */
  send(
    init: RequestInit & { headers: Record<string, string> },
    onAuthorizing?: (active: boolean) => void,
  ): Promise<Response> {
    return authorizedFetch(this.#fetch, this.options.url, this.options.auth, init, onAuthorizing);
  }

  /** The headers that name the legacy session on a message: none outside one. */
  sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.session?.id !== undefined) headers["mcp-session-id"] = this.session.id;
    if (this.session?.version !== undefined)
      headers[this.protocol.http.versionHeader] = this.session.version;
    return headers;
  }

  /**
   * POSTs one message. In a legacy session, the first response names the session (its
   * Mcp-Session-Id), and a 404 once it is named means the server forgot it.
   */
  async post(
    message: { method?: unknown; params?: unknown },
    signal: AbortSignal | undefined,
    extra?: Record<string, string>,
    onAuthorizing?: (active: boolean) => void,
  ): Promise<Response> {
    // Routing headers are modern; a legacy session carries its id and version instead.
    const routing =
      this.session === undefined && typeof message.method === "string"
        ? routingHeaders(this.protocol, message as { method: string })
        : this.sessionHeaders();
    const response = await this.send(
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...routing,
          ...extra,
          ...this.options.headers,
        },
        body: JSON.stringify(message),
        ...(signal ? { signal } : {}),
      },
      onAuthorizing,
    );
    if (this.session !== undefined) {
      if (this.session.id === undefined)
        this.session.id = response.headers.get("mcp-session-id") ?? undefined;
      else if (response.status === 404) {
        await response.body?.cancel();
        throw new SessionExpiredError();
      }
    }
    return response;
  }

  /** GETs an event stream of the session: the standalone one, or one resumed after `lastEventId`. */
  getEventStream(
    lastEventId: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    return this.send({
      method: "GET",
      headers: {
        accept: "text/event-stream",
        ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}),
        ...this.sessionHeaders(),
        ...this.options.headers,
      },
      ...(signal ? { signal } : {}),
    });
  }

  /** DELETEs the session named by `headers` (its sessionHeaders()); never throws. */
  async deleteSession(headers: Record<string, string>): Promise<void> {
    // The server may refuse (405): the session then ends when it expires.
    await this.send({
      method: "DELETE",
      headers: { ...headers, ...this.options.headers },
    })
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
  }
}
