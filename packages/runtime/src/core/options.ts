// Checks of the numeric options runtime modules take (the client engine's timeouts and
// limits, the task store's bounds): one rule and one message for all of them.

export function positiveInteger(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** The longest delay setTimeout keeps: Node and browsers fire a longer one at once (after 1 ms). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * A timeout option in ms. Refused above MAX_TIMEOUT_MS (about 24.8 days) rather than clamped:
 * a clamped value would silently differ from the one asked for, and Node would otherwise fire
 * the timer after 1 ms.
 */
export function timeoutOption(value: number | undefined, name: string, fallback: number): number {
  const ms = positiveInteger(value, name, fallback);
  if (ms > MAX_TIMEOUT_MS)
    throw new TypeError(
      `${name} must be at most ${MAX_TIMEOUT_MS} ms (setTimeout's limit), got ${ms}`,
    );
  return ms;
}
