import type { HttpAuth } from "../../../auth/http-auth.js";
import { MAX_TIMEOUT_MS, positiveInteger, timeoutOption } from "../../../core/options.js";

// The options of the HTTP client transport (client.ts), apart from it so that its parts
// (client-endpoint.ts, client-session.ts) can name them without importing the assembly.

export interface HttpTransportOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** Extra headers on every request (authorization, ...). */
  headers?: Record<string, string>;
  /**
   * A fetch implementation. Default: on Node.js, requests over node:http / node:https (their
   * global keep-alive agents), a fraction of the built-in fetch's CPU time per request;
   * elsewhere globalThis.fetch. Pass `globalThis.fetch` to use Node's built-in fetch (undici:
   * its dispatcher, its proxy settings).
   */
  fetch?: typeof fetch;
  /** Largest JSON response body, and largest single SSE event, in bytes (default 16 MiB). */
  maxMessageBytes?: number;
  /** Notifications not tied to a request in flight. */
  onNotification?: (notification: Record<string, unknown>) => void;
  /** Authorization (e.g. the OAuth client of `auth.ts`): headers on every request, and challenges (http-auth.ts). */
  auth?: HttpAuth;
  /**
   * How a legacy session's standalone GET stream is reopened after it closes or drops (see
   * ReconnectOptions); `false`: it is not.
   */
  reconnect?: ReconnectOptions | false;
  /**
   * How long a call's resumed event stream may bring nothing new before the call is given up,
   * in ms (default 30,000), and never before 5 such resumptions in a row. Longer than a
   * replicated server's lease (RedisEventStore `leaseMs`, 15 s by default): a live replica
   * answers a call whose replica died with an error once that lease lapses, and the client
   * must still be listening then.
   */
  resumeQuietMs?: number;
}

export const DEFAULT_RESUME_QUIET_MS = 30_000;

/** `options.resumeQuietMs` checked (a TypeError for a bad value, as the client's other options). */
export function resumeQuietMs(value: number | undefined): number {
  return timeoutOption(value, "resumeQuietMs", DEFAULT_RESUME_QUIET_MS);
}

/**
 * Reopening a legacy session's standalone GET stream (2025-11-25 basic/transports, "Listening
 * for Messages from the Server"; "Resumability and Redelivery"). After a stream that carried
 * an event (or stayed open `maxDelayMs`) ends, the next GET waits the server's `retry` delay;
 * after a GET that fails, or a stream that ends at once, the wait doubles from the server's
 * `retry` (else `initialDelayMs`) with each failure, up to `maxDelayMs`, with jitter (a random half of it at
 * most is taken off, so that clients of a replica that stopped do not all come back at once).
 */
export interface ReconnectOptions {
  /** The first wait when the server named no `retry` (default 1000 ms). */
  initialDelayMs?: number;
  /** The longest wait (default 30,000 ms). */
  maxDelayMs?: number;
  /**
   * Reopenings in a row that fail before the client stops reopening (default 10), until the
   * server answers a call: one GET is then tried again.
   */
  maxAttempts?: number;
}

/** ReconnectOptions checked and completed; undefined when reopening is off. */
export type ReconnectSettings = Required<ReconnectOptions> | undefined;

export const RECONNECT_DEFAULTS: Required<ReconnectOptions> = Object.freeze({
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  maxAttempts: 10,
});

/** `options.reconnect` checked (a TypeError for a bad value, as the client's other options). */
export function reconnectSettings(
  reconnect: ReconnectOptions | false | undefined,
): ReconnectSettings {
  if (reconnect === false) return undefined;
  const given = reconnect ?? {};
  const defaults = RECONNECT_DEFAULTS;
  const initialDelayMs = timeoutOption(
    given.initialDelayMs,
    "reconnect.initialDelayMs",
    defaults.initialDelayMs,
  );
  const maxDelayMs = timeoutOption(given.maxDelayMs, "reconnect.maxDelayMs", defaults.maxDelayMs);
  if (maxDelayMs < initialDelayMs)
    throw new TypeError(
      `reconnect.maxDelayMs must be at least reconnect.initialDelayMs (${initialDelayMs}), got ${maxDelayMs}`,
    );
  const maxAttempts = positiveInteger(
    given.maxAttempts,
    "reconnect.maxAttempts",
    defaults.maxAttempts,
  );
  return { initialDelayMs, maxDelayMs, maxAttempts };
}

/**
 * How long to wait before reopening after `failures` failed reopenings in a row: the server's
 * `retry` as it is after a stream that lasted (the spec: the client SHOULD respect it), else
 * the doubled wait, capped, with up to half of it taken off at random.
 */
export function reopenDelay(
  failures: number,
  retryMs: number | undefined,
  settings: Required<ReconnectOptions>,
  random: () => number = Math.random,
): number {
  if (failures === 0 && retryMs !== undefined) return Math.min(retryMs, MAX_TIMEOUT_MS);
  const base = retryMs ?? settings.initialDelayMs;
  const full = Math.min(settings.maxDelayMs, base * 2 ** Math.min(Math.max(failures - 1, 0), 30));
  return Math.round(full - (full / 2) * random());
}
