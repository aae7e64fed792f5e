import {
  capFor,
  parseSessionRecord,
  sessionLimits,
  type SessionChange,
  type SessionLimits,
  type SessionRecord,
  type SessionRefusal,
  type SessionStore,
} from "../../transport/http/server/sessions.js";
import type { LocalSessions } from "../../transport/http/server/local-sessions.js";

// The HTTP server's default session store: one instance's legacy sessions in memory, behind
// the SessionStore contract of transport/http/server/sessions.ts (RedisSessionStore,
// stores/redis/, is the shared one).

export interface MemorySessionStoreOptions extends SessionLimits {
  /** The clock (default Date.now), for tests. */
  now?: () => number;
}

/**
 * A session in memory: what never changes as JSON text, what requests change beside it (what
 * a shared store would hold), so that a change costs what it changes.
 */
interface MemoryEntry {
  /** The record without logLevel, initialized and subscriptions, as JSON. */
  fixed: string;
  logLevel: string | undefined;
  initialized: boolean;
  subscriptions: Set<string>;
  /** Its principal, whose bucket it counts in. */
  readonly principal: string | undefined;
  /** When it was last used. */
  seen: number;
}

/** `entry` as a record (a copy: the caller may change it). */
function recordOfEntry(entry: MemoryEntry): SessionRecord | undefined {
  const record = JSON.parse(entry.fixed) as SessionRecord;
  record.session.initialized = entry.initialized;
  record.session.subscriptions = [...entry.subscriptions];
  if (entry.logLevel !== undefined) record.session.logLevel = entry.logLevel;
  return parseSessionRecord(record);
}

/** Applies `change` to the fields of a session that requests change. */
function applyChange(
  target: { logLevel?: string | undefined; initialized: boolean; subscriptions: Set<string> },
  change: SessionChange,
): void {
  if (change.logLevel !== undefined) target.logLevel = change.logLevel;
  if (change.initialized !== undefined) target.initialized = change.initialized;
  for (const uri of change.subscribed ?? []) target.subscriptions.add(uri);
  for (const uri of change.unsubscribed ?? []) target.subscriptions.delete(uri);
}

/** Each store's sessions read and written in place (see localSessionsOf). */
const inPlace = new WeakMap<object, LocalSessions>();

/**
 * The sessions of `store`, read and written in place when it is a MemorySessionStore: for
 * the server that made it its default store, and so holds it alone (store-defaults.ts).
 */
export const localSessionsOf = (store: object): LocalSessions | undefined => inPlace.get(store);

/** An in-memory store: one instance's sessions; idle ones expire, full means refused. */
export class MemorySessionStore implements SessionStore {
  /** Least recently used first. */
  private readonly entries = new Map<string, MemoryEntry>();
  private readonly buckets = new Map<string | undefined, number>();
  private readonly limits: Required<SessionLimits>;
  private readonly now: () => number;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.limits = sessionLimits(options);
    this.now = options.now ?? Date.now;
    inPlace.set(this, {
      find: (id) => this.live(id),
      update: (id, change) => this.updateNow(id, change),
      touch: (id) => this.touchNow(id),
    });
  }

  /** Live sessions, expired ones not counted. */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  async create(id: string, record: SessionRecord): Promise<"created" | SessionRefusal> {
    this.sweep();
    const { principal } = record;
    if ((this.buckets.get(principal) ?? 0) >= capFor(this.limits, principal))
      return "principal-full";
    if (this.entries.size >= this.limits.maxSessions) return "store-full";
    const { logLevel, initialized, subscriptions, ...fixed } = record.session;
    this.entries.delete(id);
    this.entries.set(id, {
      fixed: JSON.stringify({ ...record, session: fixed }),
      logLevel,
      initialized,
      subscriptions: new Set(subscriptions),
      principal,
      seen: this.now(),
    });
    this.buckets.set(principal, (this.buckets.get(principal) ?? 0) + 1);
    return "created";
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const entry = this.live(id);
    return entry && recordOfEntry(entry);
  }

  async update(id: string, change: SessionChange): Promise<boolean> {
    return this.updateNow(id, change);
  }

  async touch(id: string): Promise<boolean> {
    return this.touchNow(id);
  }

  async delete(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.remove(id, entry);
    return true;
  }

  async count(principal: string | undefined): Promise<number> {
    this.sweep();
    return this.buckets.get(principal) ?? 0;
  }

  private updateNow(id: string, change: SessionChange): boolean {
    const entry = this.live(id);
    if (!entry) return false;
    applyChange(entry, change);
    this.refresh(id, entry);
    return true;
  }

  private touchNow(id: string): boolean {
    const entry = this.live(id);
    if (entry) this.refresh(id, entry);
    return entry !== undefined;
  }

  /** The entry of `id` unless it expired (then it is dropped). */
  private live(id: string): MemoryEntry | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.seen <= this.limits.idleTimeoutMs) return entry;
    this.remove(id, entry);
    return undefined;
  }

  /** Marks `entry` used now; re-inserting keeps the map ordered by last use. */
  private refresh(id: string, entry: MemoryEntry): void {
    this.entries.delete(id);
    entry.seen = this.now();
    this.entries.set(id, entry);
  }

  private remove(id: string, entry: MemoryEntry): void {
    this.entries.delete(id);
    const left = (this.buckets.get(entry.principal) ?? 1) - 1;
    if (left > 0) this.buckets.set(entry.principal, left);
    else this.buckets.delete(entry.principal);
  }

  /** Drops expired sessions from the least recently used end. */
  private sweep(): void {
    const limit = this.now() - this.limits.idleTimeoutMs;
    for (const [id, entry] of this.entries) {
      if (entry.seen >= limit) break;
      this.remove(id, entry);
    }
  }
}
