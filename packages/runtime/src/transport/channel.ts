import { ChannelCalls } from "./channel-calls.js";
import { TransportError } from "../core/transport-error.js";
import type { Transport } from "../core/transport.js";

// The seam of every transport that carries JSON-RPC messages as JSON texts on one connection
// (stdio's lines; a WebSocket's text frames would be another): a transport folder supplies the
// connection, these supply the rest. Client side: the calls in flight and the legacy session
// (channelClient); server side: the serve loop (serveChannel). HTTP is not one: each request
// is its own exchange (transport/http/).

/** The client's end of a channel, as its transport supplies it. */
export interface ClientChannel {
  /** Sends one message; rejects when the channel cannot carry it (closed, broken). */
  send(message: unknown): Promise<void>;
  /** Closes the connection (stdio: ends the server process); the calls in flight have failed. */
  close(): Promise<void>;
}

/** A client transport over a channel, and what its connection feeds it. */
export interface ChannelClient {
  readonly transport: Transport;
  /** Takes one message the server sent, as its JSON text. */
  receive(text: string): void;
  /** The connection failed or closed: every call in flight fails with the first such error. */
  fail(error: Error): void;
  /** The last text the server sent that was not JSON, quoted: for the error of a failure. */
  readonly noise: string | undefined;
}

/**
 * The transport over `channel`: requests settle with the responses the server sends, the
 * server's requests (legacy sessions) are answered on the channel, notifications reach the
 * calls in flight (progress, log) and `options.onNotification`. close() fails the calls in
 * flight with a TransportError of kind "closed", then closes the channel.
 */
export function channelClient(
  channel: ClientChannel,
  options: { onNotification?: (notification: Record<string, unknown>) => void },
): ChannelClient {
  const calls = new ChannelCalls(options, (message) => channel.send(message));
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    calls.failAll(failure);
  };
  const transport: Transport = {
    // The connection is the session: nothing to carry on messages, nothing to end but it.
    legacy: {
      reset: () => calls.answering.abandonAll(new Error("a new session began")),
      begin: () => undefined,
      listen: async () => undefined,
      end: async () => calls.answering.abandonAll(new Error("the session ended")),
      onServerRequest: (handler) => void (calls.handler = handler),
      onNotification: (listener) => void (calls.sessionListener = listener),
    },
    request: (message, requestOptions = {}) => calls.call(message, requestOptions),
    notify: (message) => channel.send(message),
    async close() {
      fail(new TransportError("closed", "the transport was closed"));
      await channel.close();
    },
  };
  return {
    transport,
    receive: (text) => calls.receive(text),
    fail,
    get noise() {
      return calls.noise;
    },
  };
}

/** What serveChannel needs of a dispatcher. */
export interface TextHandler {
  handleText(
    text: string,
    context: {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any dispatcher's notification type
      notify: (notification: any) => void;
      channel?: object;
      signal?: AbortSignal;
    },
  ): Promise<unknown>;
  /** Ends the legacy session on `channel`, if the dispatcher keeps sessions (EraDispatcher). */
  endSession?(channel: object): void;
}

/** The server's end of a channel, as its transport supplies it. */
export interface ServerChannel {
  /** Sends one message to the client (dropped once the client is gone). */
  send(message: unknown): void;
  /** Aborts when the client can receive nothing more: the requests in flight are cancelled. */
  readonly gone: AbortSignal;
}

/** The serve loop's handle: `receive` each text the client sends, `end` when it sends no more. */
export interface ChannelServer {
  receive(text: string): void;
  /** The client sends nothing more; settles when the requests in flight have. */
  end(): Promise<void>;
}

/**
 * Serves `dispatcher` on one channel: each message is handled as it arrives (so cancellation
 * can overtake a slow request), replies and related notifications are sent on the channel.
 * The channel is one session (legacy eras): its end ends it, so what the server still awaits
 * from the client fails at once instead of holding its request until it times out.
 */
export function serveChannel(dispatcher: TextHandler, channel: ServerChannel): ChannelServer {
  // The connection is one channel: the client's notifications/cancelled reach its requests.
  const session = {};
  const inFlight = new Set<Promise<void>>();
  const notify = (message: unknown) => channel.send(message);
  return {
    receive(text) {
      if (text.trim() === "") return;
      const task: Promise<void> = dispatcher
        .handleText(text, { notify, channel: session, signal: channel.gone })
        .then((reply) => {
          if (reply !== undefined) channel.send(reply);
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    },
    async end() {
      dispatcher.endSession?.(session);
      await Promise.allSettled([...inFlight]);
    },
  };
}
