import { positiveInteger, timeoutOption } from "../../../core/options.js";
import { isObject } from "../../../core/protocol.js";
import type { LegacySessionState } from "../../../server/legacy-session.js";

export type { LegacySessionState };

// Legacy Streamable HTTP sessions (2025-03-26 .. 2025-11-25 basic/transports, "Session
// Management"): an `Mcp-Session-Id` minted on initialize and required after it. What a
// session is lives in a store as data (JSON), so that any instance sharing the store can
// serve it; the live parts (its streams, requests awaiting the client) stay with the
// instance that holds them (live-sessions.ts). Modern (2026-07-28) requests never create one.

/** A legacy session as a store keeps it: JSON, the same for every instance. */
export interface SessionRecord {
  /**
   * Who opened the session (the request's principal, from `authenticate` or `auth`): only
   * they may use or end it. Absent without authentication: such sessions share one
   * "anonymous" bucket, whose own cap is `maxAnonymousSessions`.
   */
  principal?: string;
  /** The session as the dispatcher serves it. */
  session: LegacySessionState;
}

/**
 * What one request changed of a session, written field by field (never the whole record):
 * a store keeps subscriptions as a set, so one more costs one URI, whatever the session holds.
 */
export interface SessionChange {
  /** Set by logging/setLevel. */
  logLevel?: string;
  /** Set by notifications/initialized. */
  initialized?: boolean;
  /** URIs subscribed to (resources/subscribe). */
  subscribed?: readonly string[];
  /** URIs unsubscribed from (resources/unsubscribe). */
  unsubscribed?: readonly string[];
}

/** Why a store refused a new session. */
export type SessionRefusal = "principal-full" | "store-full";

/**
 * Where legacy sessions live: in memory (the default, one instance), or in a store every
 * instance shares (`RedisSessionStore` from `@mcp-gen/runtime/redis`). A session unused for
 * the store's idle timeout expires; `touch` restarts that clock.
 */
export interface SessionStore {
  /**
   * Adds a new session, unless its principal already holds the most sessions allowed, or the
   * store is full: then nothing is added (no other session is evicted to make room).
   */
  create(id: string, record: SessionRecord): Promise<"created" | SessionRefusal>;
  /** The session's record; undefined when unknown or expired. */
  get(id: string): Promise<SessionRecord | undefined>;
  /**
   * Applies `change` to a session's record (its state changed), the fields it names only,
   * and restarts its idle clock; false when gone. The principal never changes.
   */
  update(id: string, change: SessionChange): Promise<boolean>;
  /** Restarts the session's idle clock; false when gone. */
  touch(id: string): Promise<boolean>;
  /** Ends the session; false when it was gone already. */
  delete(id: string): Promise<boolean>;
  /** The live sessions `principal` holds (undefined: the anonymous bucket). */
  count(principal: string | undefined): Promise<number>;
}

/** The bounds of a session store; each a positive integer. */
export interface SessionLimits {
  /** Most sessions kept at once; a new one beyond it is refused (default 10,000). */
  maxSessions?: number;
  /** Most sessions one authenticated principal holds at once (default 100). */
  maxSessionsPerPrincipal?: number;
  /**
   * Most sessions opened without a principal (no `authenticate`/`auth`, or it returned
   * undefined): they all share this one bucket (default 1,000). The client's address is not
   * used: behind a load balancer it is the balancer's.
   */
  maxAnonymousSessions?: number;
  /** A session unused this long expires (default 30 minutes). */
  idleTimeoutMs?: number;
}

/** `limits` checked, with their defaults. */
export function sessionLimits(limits: SessionLimits = {}): Required<SessionLimits> {
  return {
    maxSessions: positiveInteger(limits.maxSessions, "maxSessions", 10_000),
    maxSessionsPerPrincipal: positiveInteger(
      limits.maxSessionsPerPrincipal,
      "maxSessionsPerPrincipal",
      100,
    ),
    maxAnonymousSessions: positiveInteger(
      limits.maxAnonymousSessions,
      "maxAnonymousSessions",
      1_000,
    ),
    idleTimeoutMs: timeoutOption(limits.idleTimeoutMs, "idleTimeoutMs", 30 * 60_000),
  };
}

/** The cap on the sessions `principal` may hold. */
export const capFor = (limits: Required<SessionLimits>, principal: string | undefined) =>
  principal === undefined ? limits.maxAnonymousSessions : limits.maxSessionsPerPrincipal;

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
  bucket: string | undefined;
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
  }

  /** Live sessions, expired ones not counted. */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  async create(id: string, record: SessionRecord): Promise<"created" | SessionRefusal> {
    this.sweep();
    const bucket = record.principal;
    if ((this.buckets.get(bucket) ?? 0) >= capFor(this.limits, bucket)) return "principal-full";
    if (this.entries.size >= this.limits.maxSessions) return "store-full";
    const { logLevel, initialized, subscriptions, ...fixed } = record.session;
    this.entries.delete(id);
    this.entries.set(id, {
      fixed: JSON.stringify({ ...record, session: fixed }),
      logLevel,
      initialized,
      subscriptions: new Set(subscriptions),
      bucket,
      seen: this.now(),
    });
    this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + 1);
    return "created";
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const entry = this.live(id);
    return entry && recordOfEntry(entry);
  }

  async update(id: string, change: SessionChange): Promise<boolean> {
    const entry = this.live(id);
    if (!entry) return false;
    applyChange(entry, change);
    this.refresh(id, entry);
    return true;
  }

  async touch(id: string): Promise<boolean> {
    const entry = this.live(id);
    if (entry) this.refresh(id, entry);
    return entry !== undefined;
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
    const left = (this.buckets.get(entry.bucket) ?? 1) - 1;
    if (left > 0) this.buckets.set(entry.bucket, left);
    else this.buckets.delete(entry.bucket);
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

/**
 * A record read from a store, checked: a shared store is written by other processes, and a
 * record of another shape (an older release's, or damaged) is no session: undefined.
 */
export function parseSessionRecord(value: unknown): SessionRecord | undefined {
  if (!isObject(value) || !isObject(value["session"])) return undefined;
  const principal = value["principal"];
  const s = value["session"];
  const strings = (v: unknown): v is string[] =>
    Array.isArray(v) && v.every((item) => typeof item === "string");
  const valid =
    (principal === undefined || typeof principal === "string") &&
    typeof s["version"] === "string" &&
    isObject(s["clientCapabilities"]) &&
    (s["clientInfo"] === undefined || isObject(s["clientInfo"])) &&
    (s["logLevel"] === undefined || typeof s["logLevel"] === "string") &&
    typeof s["initialized"] === "boolean" &&
    strings(s["subscriptions"]);
  return valid ? (value as unknown as SessionRecord) : undefined;
}

/** A session id: 128 random bits, visible ASCII as the spec requires. */
export function newSessionId(): string {
  return globalThis.crypto.randomUUID();
}
