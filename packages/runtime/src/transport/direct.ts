import type { Transport } from "../core/transport.js";

/**
 * A transport that hands messages straight to a dispatcher's `handle` (same process):
 * for tests, and for embedding a server in its client.
 */
export function createDirectTransport(
  handle: (
    message: unknown,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any notification type of the caller's
    context: { notify: (n: any) => void; signal?: AbortSignal },
  ) => Promise<unknown>,
): Transport {
  return {
    async request(message, options = {}) {
      const response = await handle(message, {
        notify: (n) => options.onNotification?.(n),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (typeof response !== "object" || response === null)
        throw options.signal?.reason ?? new Error("the request got no response");
      return response;
    },
    async notify(message) {
      await handle(message, { notify: () => undefined });
    },
  };
}
