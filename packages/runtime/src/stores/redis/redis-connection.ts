// The one policy for every Redis connection the runtime makes (the connect*() helpers, and the
// subscriber RedisMessageBus duplicates from any client): an 'error' listener, so that a lost
// connection is never an unhandled 'error' event that ends the process; reconnection with a
// bounded backoff; commands sent while disconnected refused at once (not queued until Redis
// is back), so a request that needs Redis fails promptly; one report per outage.
//
// Node-redis (`redis`, an optional peer dependency) is imported only when a connection is made.

/** What the Redis stores need of a client: node-redis's `sendCommand` (v5 and later). */
export interface RedisCommandClient {
  /** Sends one command (its name and arguments) and resolves to Redis's reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** Told once per outage (the first error after the connection was ready), not per retry. */
export type RedisErrorListener = (error: Error) => void;

/** What the policy needs of a node-redis client: its events. */
export interface RedisEvents {
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "ready", listener: () => void): unknown;
}

/** A connected node-redis client, as the Redis stores and the bus use it. */
export interface RedisConnection extends RedisEvents {
  get(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisConnection;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
  close(): Promise<unknown>;
}

export interface ConnectRedisOptions {
  /** redis://[user:password@]host:port[/db], or rediss:// for TLS. */
  url: string;
  /**
   * Told once per outage when the connection is lost or cannot be made (it keeps
   * reconnecting); default: one line on console.error per outage.
   */
  onError?: RedisErrorListener;
  /** The connection's name in what `onError` is told (`Redis (name): ...`); default "connection". */
  name?: string;
}

/** Attempts to make the first connection before `connect*()` gives up and rejects. */
export const FIRST_CONNECT_ATTEMPTS = 5;
/** The longest wait between reconnection attempts, in ms. */
export const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * The wait before reconnection attempt `retries` (0 first): 100 ms doubling up to
 * MAX_RECONNECT_DELAY_MS (100, 200, 400, 800, 1600, 2000, 2000, ...), plus up to 10% at random
 * so that replicas do not all reconnect in step. Once connected, it never gives up: a replica
 * that stopped trying would stay down after Redis came back.
 */
export function reconnectDelay(retries: number): number {
  const delay = Math.min(100 * 2 ** Math.min(retries, 16), MAX_RECONNECT_DELAY_MS);
  return Math.round(delay * (1 + Math.random() * 0.1));
}

/**
 * Listens for `client`'s errors, telling `onError` (default: console.error) about the first of
 * each outage, as "<what>: <cause>"; the next 'ready' ends the outage.
 */
export function watchRedisConnection(
  client: RedisEvents,
  what: string,
  onError: RedisErrorListener | undefined,
): void {
  const report =
    onError ?? ((error: Error) => console.error(`mcp-gen: ${error.message}; reconnecting`));
  let down = false;
  client.on("error", (error: Error) => {
    if (down) return;
    down = true;
    try {
      report(new Error(`Redis (${what}): ${describe(error)}`, { cause: error }));
    } catch {
      // a listener that throws must not take the connection's error path down with it
    }
  });
  client.on("ready", () => void (down = false));
}

/**
 * A connected node-redis client on `url` with the policy above: reconnects on the schedule of
 * reconnectDelay, refuses commands while disconnected, reports once per outage. The first
 * connection is tried FIRST_CONNECT_ATTEMPTS times (about 1.5 s), then it rejects: a server
 * starting without its Redis fails at once rather than waiting unseen. Needs `redis`.
 */
export async function connectRedis(options: ConnectRedisOptions): Promise<RedisConnection> {
  const what = options?.name ?? "connection";
  let redis: typeof import("redis");
  try {
    redis = await import("redis");
  } catch {
    throw new Error("Redis needs the `redis` package: npm install redis");
  }
  if (typeof options?.url !== "string") throw new TypeError("Redis needs a `url` (redis://...)");
  let connected = false;
  const client = redis.createClient({
    url: options.url,
    // Refused at once while disconnected (ClientOfflineError): the request that sent it
    // fails promptly instead of waiting, queued, for Redis to come back.
    disableOfflineQueue: true,
    socket: {
      reconnectStrategy: (retries: number, cause: Error) =>
        connected || retries < FIRST_CONNECT_ATTEMPTS - 1
          ? reconnectDelay(retries)
          : new Error(`Redis (${what}) unreachable: ${describe(cause)}`, { cause }),
    },
  });
  const connection = client as unknown as RedisConnection;
  watchRedisConnection(connection, what, options.onError);
  client.on("ready", () => void (connected = true));
  await client.connect();
  return connection;
}

/** An error's message with its code (ECONNREFUSED ...), for one line of report. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message || error.name;
}
