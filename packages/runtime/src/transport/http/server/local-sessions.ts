import type { LegacySessionState } from "../../../server/legacy-session.js";
import type { SessionChange } from "./sessions.js";

// The in-process side of the legacy session store: what the HTTP server reads and writes
// without a round trip when the store is its own default. Internal: not re-exported by the
// package's entry points (sessions.ts is).

/**
 * A session store's sessions read and written in place, with no round trip: the default
 * store's, which lives in this process and which only the server that made it uses
 * (store-defaults.ts). Its records hold nothing the sessions open here do not: a request to
 * a session held here needs no record read.
 */
export interface LocalSessions {
  /** Session `id` (who opened it) if it is live; undefined when unknown or expired. */
  find(id: string): { readonly principal: string | undefined } | undefined;
  /** SessionStore.update, done at once. */
  update(id: string, change: SessionChange): boolean;
  /** SessionStore.touch, done at once. */
  touch(id: string): boolean;
}

/** What a request changed of a session's state, or undefined when nothing. */
export function sessionChange(
  before: LegacySessionState,
  after: LegacySessionState,
): SessionChange | undefined {
  const logLevel = after.logLevel !== before.logLevel && after.logLevel !== undefined;
  const initialized = after.initialized !== before.initialized;
  if (!logLevel && !initialized && sameList(before.subscriptions, after.subscriptions))
    return undefined;
  const change: SessionChange = {};
  if (logLevel) change.logLevel = after.logLevel!;
  if (initialized) change.initialized = after.initialized;
  const [was, is] = [new Set(before.subscriptions), new Set(after.subscriptions)];
  const subscribed = after.subscriptions.filter((uri) => !was.has(uri));
  const unsubscribed = before.subscriptions.filter((uri) => !is.has(uri));
  if (subscribed.length > 0) change.subscribed = subscribed;
  if (unsubscribed.length > 0) change.unsubscribed = unsubscribed;
  return Object.keys(change).length > 0 ? change : undefined;
}

/** Whether `a` and `b` hold the same items in the same order (most requests change none). */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
