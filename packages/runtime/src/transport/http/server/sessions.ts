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
 * Where legacy sessions live: in memory (the default, one instance: MemorySessionStore,
 * stores/memory/sessions.ts), or in a store every instance shares (`RedisSessionStore` from `@mcp-gen/runtime/redis`). A session unused for
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
