// The message bus on Redis pub/sub (see server/message-bus.ts): the same node-redis client
// the session store uses publishes; a duplicate of it, in subscriber mode as Redis requires,
// receives. The duplicate is the bus's own connection, so the bus gives it an 'error' listener
// (redis-connection.ts): without one, a Redis restart ends the process.
import type { MessageBus } from "../../server/message-bus.js";
import {
  connectRedis,
  watchRedisConnection,
  type RedisErrorListener,
  type RedisEvents,
} from "./redis-connection.js";

/** What RedisMessageBus uses of a connected node-redis (6) client. */
export interface RedisPubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisPubSubClient;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
  close(): Promise<unknown>;
  /** node-redis's events: the bus listens for its subscriber connection's errors. */
  on?: RedisEvents["on"];
}

export interface RedisMessageBusOptions {
  /** A connected node-redis client; yours to close. The bus subscribes on a duplicate of it. */
  client: RedisPubSubClient;
  /**
   * Told once per outage of the subscriber connection (which reconnects, and resubscribes,
   * by itself); default: one line on console.error per outage.
   */
  onError?: RedisErrorListener;
  /**
   * The longest message published, in characters; a longer one is refused (publish rejects
   * with a RangeError) rather than sent to every instance. Default 2,097,152 (2 MiB), above
   * the largest answer forwarded by default (maxForwardedAnswerChars, 1 MiB) with its envelope.
   */
  maxMessageChars?: number;
}

/** The default bound on a published message, in characters. */
export const DEFAULT_MAX_BUS_MESSAGE_CHARS = 2 * 1024 * 1024;

/**
 * A MessageBus on Redis pub/sub: every instance of a server on the same Redis gets what any
 * publishes (at most once; an instance not connected at that moment misses it). `close()`
 * ends the subscriber connection it made; `client` stays yours.
 */
export class RedisMessageBus implements MessageBus {
  readonly #client: RedisPubSubClient;
  readonly #onError: RedisErrorListener | undefined;
  readonly #maxMessageChars: number;
  #subscriber: Promise<RedisPubSubClient> | undefined;

  constructor(options: RedisMessageBusOptions) {
    if (typeof options?.client?.duplicate !== "function")
      throw new TypeError("RedisMessageBus needs a connected node-redis client (`client`)");
    const max = options.maxMessageChars ?? DEFAULT_MAX_BUS_MESSAGE_CHARS;
    if (!Number.isSafeInteger(max) || max < 1)
      throw new TypeError("RedisMessageBus: maxMessageChars must be a positive integer");
    this.#client = options.client;
    this.#onError = options.onError;
    this.#maxMessageChars = max;
  }

  async publish(channel: string, message: string): Promise<void> {
    if (message.length > this.#maxMessageChars)
      throw new RangeError(
        `RedisMessageBus: a message of ${message.length} characters is over maxMessageChars (${this.#maxMessageChars})`,
      );
    await this.#client.publish(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void) {
    this.#subscriber ??= this.#connectSubscriber();
    const subscriber = await this.#subscriber;
    const own = (message: string) => listener(message);
    await subscriber.subscribe(channel, own);
    return async () => {
      await subscriber.unsubscribe(channel, own);
    };
  }

  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber) await (await subscriber.catch(() => undefined))?.close();
  }

  /**
   * The subscriber connection: a duplicate of the client (its options, so its reconnection
   * policy), listened to before it connects. node-redis subscribes it again to every channel
   * after it reconnects. Not kept when it could not connect: the next subscribe tries again.
   */
  async #connectSubscriber(): Promise<RedisPubSubClient> {
    const subscriber = this.#client.duplicate();
    if (typeof subscriber.on === "function")
      watchRedisConnection(subscriber as RedisEvents, "message bus subscriber", this.#onError);
    try {
      await subscriber.connect();
      return subscriber;
    } catch (error) {
      this.#subscriber = undefined;
      throw error;
    }
  }
}

/**
 * A RedisMessageBus on a connection of its own to `url` (redis://...), made with the `redis`
 * package, which must be installed; `close()` ends both its connections. Both reconnect by
 * themselves and tell `onError` once per outage (redis-connection.ts).
 */
export async function connectRedisMessageBus(
  options: Omit<RedisMessageBusOptions, "client"> & { url: string },
): Promise<RedisMessageBus & { close(): Promise<void> }> {
  const { url, ...rest } = options;
  const onError = rest.onError ? { onError: rest.onError } : {};
  const client = await connectRedis({ url, ...onError, name: "message bus" });
  const bus = new RedisMessageBus({ ...rest, client });
  const closeSubscriber = bus.close.bind(bus);
  return Object.assign(bus, {
    async close() {
      await closeSubscriber();
      await client.close();
    },
  });
}
