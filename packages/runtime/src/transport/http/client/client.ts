import type { ProtocolDescriptor } from "../../../core/protocol.js";
import type { Transport, TransportRequestOptions } from "../../../core/transport.js";
import { boundedText, HttpTransportError } from "./body.js";
import { HttpEndpoint } from "./client-endpoint.js";
import type { HttpTransportOptions } from "./client-options.js";
import { InflightRequests } from "./client-inflight.js";
import { exchange } from "./client-response.js";
import { legacySessionSupport, SessionStreams } from "./client-session.js";

export { TransportError, type TransportErrorKind } from "../../../core/transport-error.js";
export { HttpTransportError } from "./body.js";
export type { HttpTransportOptions, ReconnectOptions } from "./client-options.js";

// The client side of Streamable HTTP: every message is its own POST to one endpoint; a
// request's reply is a JSON body, or an SSE stream of related notifications that ends
// with the response. Uses fetch, so it runs in Node.js, browsers and edge runtimes. In a
// legacy session (2025-xx) the streams also carry the server's requests, answered by POSTs,
// and a stream that closes (or drops) before its response is resumed with Last-Event-ID.
// Failures that are no answer (unreachable, dropped, closed) are TransportErrors.
//
// The steps are in sibling files: client-endpoint.ts (the HTTP requests and the session's
// headers), client-response.ts (a response: JSON, or a stream resumed when it breaks),
// client-session.ts (the server's messages, the standalone stream, the session's start and
// end) and client-inflight.ts (the requests under way, aborted by the end or the close).

export function createHttpTransport(
  protocol: ProtocolDescriptor,
  options: HttpTransportOptions,
): Transport {
  const endpoint = new HttpEndpoint(protocol, options);
  // Set by close(): later messages are refused. The requests under way (their own
  // controllers) are aborted when the session ends or the transport closes: no stream of
  // theirs can answer any more.
  const inflight = new InflightRequests();
  const limit = options.maxMessageBytes ?? 16 * 1024 * 1024;
  const streams = new SessionStreams(endpoint, inflight, limit, options);
  const legacy = legacySessionSupport(endpoint, inflight, streams);

  return {
    legacy,
    closesStreamOnAbort: true,
    async request(message, requestOptions: TransportRequestOptions = {}) {
      const { signal, release } = inflight.link(requestOptions.signal);
      try {
        const response = await exchange(message, { ...requestOptions, signal }, streams);
        // The server is reachable: a standalone stream given up is worth another try.
        streams.listenAgain();
        return response;
      } catch (error) {
        throw signal.aborted ? signal.reason : error;
      } finally {
        release();
      }
    },
    async notify(message) {
      if (inflight.closed) throw inflight.closed;
      const response = await endpoint.post(message as { method: string }, undefined);
      if (!response.ok) {
        const body = await boundedText(response, 64 * 1024, endpoint.posting);
        throw new HttpTransportError(response.status, body, endpoint.posting);
      }
      await response.body?.cancel();
    },
    async close() {
      inflight.close();
      await legacy.end();
    },
  };
}
