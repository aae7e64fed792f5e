// Legacy Streamable HTTP sessions (2025-03-26 .. 2025-11-25 basic/transports, "Session
// Management"): an `Mcp-Session-Id` minted on initialize and required after it. The id maps
// to a channel object, which is how the dispatcher finds the session's state. Modern
// (2026-07-28) requests never create one.

/**
 * Where sessions live. The default keeps them in memory, bounded; a deployment with several
 * instances either pins clients to one (sticky on Mcp-Session-Id) or supplies its own store.
 */
export interface SessionStore {
  /** Records a new session; may evict others (each evicted channel is passed to `onEvict`). */
  add(id: string, channel: object): void;
  /** The session's channel, refreshing its idle timer; undefined when unknown or expired. */
  get(id: string): object | undefined;
  delete(id: string): object | undefined;
  readonly size: number;
}

export interface MemorySessionStoreOptions {
  /** Most sessions kept at once; adding one more evicts the least recently used (default 10,000). */
  maxSessions?: number;
  /** A session unused this long is gone (default 30 minutes). */
  idleTimeoutMs?: number;
  /** Told about every session dropped by eviction or expiry, to release its state. */
  onEvict?: (channel: object) => void;
  /** The clock (default Date.now), for tests. */
  now?: () => number;
}

/** An in-memory store: least recently used first out, idle sessions expire. */
export class MemorySessionStore implements SessionStore {
  private readonly entries = new Map<string, { channel: object; seen: number }>();
  private readonly max: number;
  private readonly idle: number;
  private readonly onEvict: (channel: object) => void;
  private readonly now: () => number;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.max = options.maxSessions ?? 10_000;
    this.idle = options.idleTimeoutMs ?? 30 * 60_000;
    this.onEvict = options.onEvict ?? (() => undefined);
    this.now = options.now ?? Date.now;
    if (!Number.isSafeInteger(this.max) || this.max < 1)
      throw new TypeError("maxSessions must be a positive integer");
  }

  get size(): number {
    return this.entries.size;
  }

  add(id: string, channel: object): void {
    this.sweep();
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value as string;
      this.onEvict(this.delete(oldest)!);
    }
    this.entries.set(id, { channel, seen: this.now() });
  }

  get(id: string): object | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.seen > this.idle) {
      this.entries.delete(id);
      this.onEvict(entry.channel);
      return undefined;
    }
    // Re-inserting keeps the map ordered by last use.
    this.entries.delete(id);
    entry.seen = this.now();
    this.entries.set(id, entry);
    return entry.channel;
  }

  delete(id: string): object | undefined {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry?.channel;
  }

  /** Drops expired sessions from the least recently used end. */
  private sweep(): void {
    const limit = this.now() - this.idle;
    for (const [id, entry] of this.entries) {
      if (entry.seen >= limit) break;
      this.entries.delete(id);
      this.onEvict(entry.channel);
    }
  }
}

/** A session id: 128 random bits, visible ASCII as the spec requires. */
export function newSessionId(): string {
  return globalThis.crypto.randomUUID();
}
