import { channelClient, serveChannel, type TextHandler } from "../channel.js";
import { TransportError } from "../../core/transport-error.js";
import type { Transport } from "../../core/transport.js";

// A client and a server in one process, joined by a channel (../channel.ts) whose two ends
// hand each other JSON text: what crosses is what a connection would carry, so nothing is
// shared by reference and a result that does not survive JSON fails here as it would on the
// wire. The channel is one legacy session, as stdio's is: the server's own requests
// (elicitation, sampling, roots) reach the client's input handlers on it. Each message is
// delivered on a later microtask, as a connection would, never inside the sender's call.

/** What the transport needs of a dispatcher (a generated one has it): handleText, whose context may name a principal. */
export interface InMemoryDispatcher extends TextHandler {
  handleText(
    text: string,
    context: Parameters<TextHandler["handleText"]>[1] & { principal?: string },
  ): Promise<unknown>;
}

/** A dispatcher, or what defineServer returns (its `dispatcher`). */
export type InMemoryServer = InMemoryDispatcher | { readonly dispatcher: InMemoryDispatcher };

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
export function dispatcherOf(server: InMemoryServer): InMemoryDispatcher {
  return "handleText" in server ? server : server.dispatcher;
}

/** createInMemoryTransport's options. */
export interface InMemoryTransportOptions {
  /** Notifications not tied to a call in flight. */
  onNotification?: (notification: Record<string, unknown>) => void;
  /**
   * The principal every request comes from, as if an HTTP transport had verified its token
   * (`ctx.principal` in handlers; it binds sealed request state). Default: none.
   */
  principal?: string;
}

/** A client transport whose server is `server`, in this process: no port, no process. */
export function createInMemoryTransport(
  server: InMemoryServer,
  options: InMemoryTransportOptions = {},
): InMemoryTransport {
  const dispatcher = dispatcherOf(server);
  const { principal } = options;
  const handler: TextHandler =
    principal === undefined
      ? dispatcher
      : {
          handleText: (text, context) => dispatcher.handleText(text, { ...context, principal }),
          endSession: (channel) => dispatcher.endSession?.(channel),
        };
  const gone = new AbortController();
  let ended: Promise<void> | undefined;
  let onClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const later = (deliver: () => void) => void Promise.resolve().then(deliver);
  const serving = serveChannel(handler, {
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
    options.onNotification ? { onNotification: options.onNotification } : {},
  );
  return { ...client.transport, close: () => client.transport.close!(), closed };
}
