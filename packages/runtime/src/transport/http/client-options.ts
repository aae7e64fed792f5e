import type { HttpAuth } from "../../auth/http-auth.js";

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
}
