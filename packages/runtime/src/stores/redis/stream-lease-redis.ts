import { positiveInteger } from "../../transport/http/server/event-store.js";
import type { RedisCommandClient } from "./redis-connection.js";

// Leases on the POST streams of a RedisEventStore (issue 35: a call whose replica died must
// end with an error the client sees). The instance writing a stream records itself as its
// holder (`<stream>:owner`, with the stream's ending: the error response it gets if that
// instance dies) and keeps a liveness key of its own (`<prefix>lease:<instance>`) alive with
// a timer: one key per instance, not one per call. An instance that a client's resumption
// reaches, and that does not write the stream, settles it: held while the holder's liveness
// key exists, over once the holder finished it; otherwise the holder died, and the ending is
// appended as the stream's last event by a script that compares and sets the owner key, so
// that two instances settling at once append it once.

/** How long an instance's lease lasts and how often it is renewed (see RedisEventStoreOptions). */
export interface StreamLeaseOptions {
  /**
   * An instance that stopped renewing its lease this long ago is taken for dead: the calls it
   * was running end with an error on the client's next resumption (default 15,000 ms).
   */
  leaseMs?: number;
  /** How often a live instance renews its lease; less than leaseMs (default 5,000 ms). */
  leaseRefreshMs?: number;
}

export const DEFAULT_LEASE: Readonly<Required<StreamLeaseOptions>> = {
  leaseMs: 15_000,
  leaseRefreshMs: 5_000,
};

/** What became of a stream no instance serving the caller writes (see EventStore.settle). */
export type StreamFate = "held" | "over" | "ended" | "unknown";

/** The owner key's value once the stream is over. */
const OVER = "-";

// KEYS: the stream, the store's per-stream sizes hash and its total bytes
// (event-store-redis-scripts.ts), the stream's owner key. ARGV: the owner key's value the caller
// read (`<instance>|<ending JSON>`), the stream's maxAgeMs, the stream's id. Appends the ending
// once: only while the owner key still holds what the caller read (no finish, no other settle
// since), and counts its bytes against the store's bounds as an append does.
const SETTLE = `
if redis.call('GET', KEYS[4]) ~= ARGV[1] then return false end
local text = string.sub(ARGV[1], string.find(ARGV[1], '|', 1, true) + 1)
local id = redis.call('XADD', KEYS[1], '*', 'm', text)
redis.call('HINCRBY', KEYS[2], ARGV[3], #text)
redis.call('INCRBY', KEYS[3], #text)
redis.call('SET', KEYS[4], '${OVER}', 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return id
`;

function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Options with their defaults; throws a TypeError on a bad one. */
export function resolveLease(options: StreamLeaseOptions): Required<StreamLeaseOptions> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE.leaseMs;
  const leaseRefreshMs = options.leaseRefreshMs ?? DEFAULT_LEASE.leaseRefreshMs;
  positiveInteger("leaseMs", leaseMs);
  positiveInteger("leaseRefreshMs", leaseRefreshMs);
  if (leaseRefreshMs >= leaseMs)
    throw new TypeError(
      `leaseRefreshMs (${leaseRefreshMs}) must be less than leaseMs (${leaseMs}): a lease renewed after it lapsed looks dead in between`,
    );
  return { leaseMs, leaseRefreshMs };
}

/** The leases of one RedisEventStore (one instance of the server). */
export class RedisStreamLeases {
  /** This instance's name in owner keys. */
  private readonly instance = randomHex(12);
  private readonly lease: Required<StreamLeaseOptions>;
  private renewing: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly client: RedisCommandClient,
    private readonly prefix: string,
    /** A stream's key (the owner key is `<key>:owner`, in its Redis Cluster slot). */
    private readonly keyOf: (streamId: string) => string,
    private readonly maxAgeMs: number,
    options: StreamLeaseOptions,
  ) {
    this.lease = resolveLease(options);
  }

  async hold(streamId: string, ending: object): Promise<void> {
    await this.renew();
    const value = `${this.instance}|${JSON.stringify(ending)}`;
    const owner = `${this.keyOf(streamId)}:owner`;
    await this.client.sendCommand(["SET", owner, value, "PX", String(this.maxAgeMs)]);
  }

  async finish(streamId: string): Promise<void> {
    const owner = `${this.keyOf(streamId)}:owner`;
    await this.client.sendCommand(["SET", owner, OVER, "PX", String(this.maxAgeMs), "XX"]);
  }

  async settle(streamId: string): Promise<StreamFate> {
    const key = this.keyOf(streamId);
    const value = await this.client.sendCommand(["GET", `${key}:owner`]);
    if (typeof value !== "string") return "unknown";
    if (value === OVER) return "over";
    const holder = value.slice(0, value.indexOf("|"));
    if (holder === this.instance && this.timer !== undefined) return "held";
    const alive = await this.client.sendCommand(["EXISTS", this.aliveKey(holder)]);
    if (Number(alive) > 0) return "held";
    const keys = [key, `${this.prefix}sizes`, `${this.prefix}total`, `${key}:owner`];
    const args = [value, String(this.maxAgeMs), streamId];
    const id = await this.client.sendCommand(["EVAL", SETTLE, "4", ...keys, ...args]);
    return id === null || id === undefined ? "over" : "ended";
  }

  /** Stops renewing this instance's lease: the streams it holds look dead once it lapses. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.renewing = undefined;
  }

  private aliveKey(instance: string): string {
    return `${this.prefix}lease:${instance}`;
  }

  /** Renews the lease now the first time, then every leaseRefreshMs (a failure is retried then). */
  private renew(): Promise<void> {
    const set = () =>
      this.client.sendCommand([
        "SET",
        this.aliveKey(this.instance),
        "1",
        "PX",
        String(this.lease.leaseMs),
      ]);
    if (this.renewing === undefined) {
      this.renewing = set().then(() => undefined);
      this.renewing.catch(() => (this.renewing = undefined));
      this.timer ??= setInterval(
        () => void set().catch(() => undefined),
        this.lease.leaseRefreshMs,
      );
      (this.timer as { unref?: () => void }).unref?.();
    }
    return this.renewing;
  }
}
