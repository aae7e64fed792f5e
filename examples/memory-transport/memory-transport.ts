// A transport of its own, written against the runtime's public contract: the client's side is
// a `Transport`, the server's is the dispatcher's `handleText`. This one joins a client and a
// server in one process, each message carried as JSON text as a connection would carry it.
// Replace the two function calls by a socket's send and receive and it is a network transport.
import type { TextHandler } from "@mcp-gen/runtime/node/stdio";
import { TransportError, type Transport } from "@mcp-gen/runtime/transport";

// #region transport
/** A client transport whose server is `server` (a generated dispatcher) in this process. */
export function createMemoryTransport(server: TextHandler): Transport {
  // The connection, which is one legacy session for a dispatcher that keeps them; aborted
  // when the client closes it, which cancels the server's requests in flight.
  const session = {};
  const connection = new AbortController();
  // What crosses the connection is text: nothing is shared by reference.
  const carried = (message: unknown): Record<string, unknown> =>
    JSON.parse(JSON.stringify(message));
  return {
    async request(message, options = {}) {
      if (connection.signal.aborted) throw connection.signal.reason;
      const signal = options.signal
        ? AbortSignal.any([options.signal, connection.signal])
        : connection.signal;
      const reply = await server.handleText(JSON.stringify(message), {
        // The server's notifications about this request (progress, log messages).
        notify: (notification) => options.onNotification?.(carried(notification)),
        channel: session,
        signal,
      });
      // A cancelled request gets no response: the call fails with why it was cancelled.
      if (reply === undefined)
        throw signal.reason ?? new TransportError("dropped", "the request got no response");
      return carried(reply);
    },
    async notify(message) {
      if (connection.signal.aborted) throw connection.signal.reason;
      await server.handleText(JSON.stringify(message), {
        notify: () => undefined,
        channel: session,
      });
    },
    async close() {
      connection.abort(new TransportError("closed", "the transport was closed"));
      server.endSession?.(session);
    },
  };
}
// #endregion transport
