// The message bus on Redis pub/sub (see server/message-bus.ts): the same node-redis client
// the session store uses publishes; a duplicate of it, in subscriber mode as Redis requires,
// receives.
import type { MessageBus } from "../../server/message-bus.js";

/** What RedisMessageBus uses of a connected node-redis (6) client. */
export interface RedisPubSubClient {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisPubSubClient;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
  close(): Promise<unknown>;
}

/**
 * A MessageBus on Redis pub/sub: every instance of a server on the same Redis gets what any
 * publishes (at most once; an instance not connected at that moment misses it). `close()`
 * ends the subscriber connection it made; `client` stays yours.
 */
export class RedisMessageBus implements MessageBus {
  readonly #client: RedisPubSubClient;
  #subscriber: Promise<RedisPubSubClient> | undefined;

  constructor(options: { client: RedisPubSubClient }) {
    if (typeof options?.client?.duplicate !== "function")
      throw new TypeError("RedisMessageBus needs a connected node-redis client (`client`)");
    this.#client = options.client;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#client.publish(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void) {
    this.#subscriber ??= (async () => {
      const subscriber = this.#client.duplicate();
      await subscriber.connect();
      return subscriber;
    })();
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
    if (subscriber) await (await subscriber).close();
  }
}

/**
 * A RedisMessageBus on a connection of its own to `url` (redis://...), made with the `redis`
 * package, which must be installed; `close()` ends both its connections.
 */
export async function connectRedisMessageBus(options: {
  url: string;
}): Promise<RedisMessageBus & { close(): Promise<void> }> {
  let redis: typeof import("redis");
  try {
    redis = await import("redis");
  } catch {
    throw new Error("RedisMessageBus needs the `redis` package: npm install redis");
  }
  const client = await redis.createClient({ url: options.url }).connect();
  const bus = new RedisMessageBus({ client: client as unknown as RedisPubSubClient });
  const closeSubscriber = bus.close.bind(bus);
  return Object.assign(bus, {
    async close() {
      await closeSubscriber();
      await client.close();
    },
  });
}
