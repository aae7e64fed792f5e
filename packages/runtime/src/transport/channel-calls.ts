import { serverRequests } from "./server-requests.js";
import type { ServerRequestHandler, TransportRequestOptions } from "../core/transport.js";

// The messages of a client transport over a message channel (channel.ts; stdio's lines): its
// calls in flight, settled by the responses the server sends, and the server's own messages
// on the same channel: its requests (legacy sessions), answered on the channel, and its
// notifications.

type Json = Record<string, unknown>;
type NotificationListener = (notification: Json) => void;

/** How much of the last text the server sent that was not JSON an exit's error quotes. */
const NOISE_CHARS = 200;

interface Pending {
  resolve: (response: object) => void;
  reject: (error: unknown) => void;
  onNotification: NotificationListener | undefined;
  /** Which notifications are about a call (progress, log), as the call's revision names them. */
  callNotifications: TransportRequestOptions["callNotifications"];
}

export class ChannelCalls {
  /** Who answers the server's requests (the legacy session's handler). */
  handler: ServerRequestHandler | undefined = undefined;
  /** Who hears the notifications no call claims, after the transport's listener. */
  sessionListener: NotificationListener | undefined = undefined;
  // Legacy sessions: the server's own requests (elicitation, sampling, roots, ping) being
  // answered, which the server may cancel.
  readonly answering = serverRequests();
  // By the JSON of the request's id.
  readonly #pending = new Map<string, Pending>();
  readonly #options: { onNotification?: NotificationListener };
  readonly #send: (message: unknown) => Promise<void>;
  #noise: string | undefined = undefined;

  /** `send` writes a message to the server; `options.onNotification` hears what no call owns. */
  constructor(
    options: { onNotification?: NotificationListener },
    send: (message: unknown) => Promise<void>,
  ) {
    this.#options = options;
    this.#send = send;
  }

  /** The last text the server sent that was not JSON, quoted (and cut): for the error of an exit. */
  get noise(): string | undefined {
    return this.#noise;
  }

  /** How many calls are in flight. */
  get size(): number {
    return this.#pending.size;
  }

  /** Sends the request `message`; settles with its response, or the failure of the transport. */
  call(message: object, requestOptions: TransportRequestOptions): Promise<object> {
    return new Promise<object>((resolve, reject) => {
      const key = JSON.stringify((message as { id: unknown }).id);
      const signal = requestOptions.signal;
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#pending.delete(key);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => signal?.removeEventListener("abort", onAbort);
      this.#pending.set(key, {
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
        onNotification: requestOptions.onNotification,
        callNotifications: requestOptions.callNotifications,
      });
      this.#send(message).catch((error) => {
        this.#pending.delete(key);
        reject(error);
      });
    });
  }

  /** Fails every call in flight with `error`, and abandons the server's requests being answered. */
  failAll(error: Error): void {
    for (const p of this.#pending.values()) p.reject(error);
    this.#pending.clear();
    this.answering.abandonAll(error);
  }

  /** Takes one message the server sent, as its JSON text (stdio: a line of its stdout). */
  receive(text: string): void {
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not a message: servers may print other lines (stdio); nothing to answer. The last is
      // kept for the error of an exit.
      this.#noise = JSON.stringify(
        text.length > NOISE_CHARS ? `${text.slice(0, NOISE_CHARS)}...` : text,
      );
      return;
    }
    if (typeof parsed !== "object" || parsed === null) return;
    const message = parsed as Json & { method?: unknown; id?: unknown };
    if (("result" in message || "error" in message) && message.id !== undefined) {
      const key = JSON.stringify(message.id);
      const p = this.#pending.get(key);
      this.#pending.delete(key);
      p?.resolve(message);
    } else if (typeof message.method === "string" && message.id !== undefined) {
      this.answering.answer(message, this.handler, this.#send);
    } else if (typeof message.method === "string" && message.id === undefined) {
      this.#notify(message as Json & { method: string });
    }
  }

  #notify(message: Json & { method: string }): void {
    // A cancellation of a request being answered stops it; the notification still goes on.
    this.answering.cancel(message);
    // A channel has no per-request stream: a notification goes to every request in flight
    // (the client matches progress by token) and to the transport's listener; but a log
    // message, which names no request, goes to the calls only when one runs: with several,
    // each would show the others' messages as its own.
    const about = this.#aboutCalls(message.method);
    const claimed = about === "log" ? this.#pending.size === 1 : about === "progress";
    if (claimed || about === undefined)
      for (const p of this.#pending.values()) p.onNotification?.(message);
    this.#options.onNotification?.(message);
    // What no call claims (all but progress and log messages while calls run) is the session's.
    if (!claimed) this.sessionListener?.(message);
  }

  /**
   * Whether `method` is a progress or log notification, by the methods the calls in flight
   * name (their revision's protocol descriptor, TransportRequestOptions.callNotifications).
   */
  #aboutCalls(method: string): "progress" | "log" | undefined {
    for (const { callNotifications: names } of this.#pending.values()) {
      if (names?.progress === method) return "progress";
      if (names?.log === method) return "log";
    }
    return undefined;
  }
}
