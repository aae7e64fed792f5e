import { channelClient, serveChannel, type TextHandler } from "../channel.js";
import { TransportError } from "../../core/transport-error.js";
import type { Transport } from "../../core/transport.js";

// A client and a server in one process, joined by a channel (../channel.ts) whose two ends
// hand each other JSON text: what crosses is what a connection would carry, so nothing is
// shared by reference and a result that does not survive JSON fails here as it would on the
// wire. The channel is one legacy session, as stdio's is: the server's own requests
// (elicitation, sampling, roots) reach the client's input handlers on it. Each message is
// delivered on a later microtask, as a connection would, never inside the sender's call.

/** A dispatcher, or what defineServer returns (its `dispatcher`). */
export type InMemoryServer = TextHandler | { readonly dispatcher: TextHandler };

/** The client's transport to a server in this process. */
export interface InMemoryTransport extends Transport {
  /**
   * Closes both ends: the calls in flight fail with a TransportError of kind "closed", the
   * server's handlers in flight see their signal abort, the legacy session ends. Resolves once
   * the server's handlers in flight have settled.
   */
  close(): Promise<void>;
  /** Settles when the connection is closed and the server has nothing in flight. */
  readonly closed: Promise<void>;
}

/** The dispatcher of `server`. */
export function dispatcherOf(server: InMemoryServer): TextHandler {
  return "handleText" in server ? server : server.dispatcher;
}

/** A client transport whose server is `server`, in this process: no port, no process. */
export function createInMemoryTransport(
  server: InMemoryServer,
  options: { onNotification?: (notification: Record<string, unknown>) => void } = {},
): InMemoryTransport {
  const gone = new AbortController();
  let ended: Promise<void> | undefined;
  let onClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const later = (deliver: () => void) => void Promise.resolve().then(deliver);
  const serving = serveChannel(dispatcherOf(server), {
    // Once the client is gone nothing reaches it (a late notification of a cancelled handler).
    send: (message) => {
      const text = JSON.stringify(message);
      if (!gone.signal.aborted) later(() => client.receive(text));
    },
    gone: gone.signal,
  });
  const client = channelClient(
    {
      async send(message) {
        if (gone.signal.aborted) throw new TransportError("closed", "the transport was closed");
        const text = JSON.stringify(message);
        later(() => serving.receive(text));
      },
      close() {
        if (!ended) {
          gone.abort(new TransportError("closed", "the transport was closed"));
          ended = serving.end().then(onClosed);
        }
        return ended;
      },
    },
    options,
  );
  return { ...client.transport, close: () => client.transport.close!(), closed };
}
