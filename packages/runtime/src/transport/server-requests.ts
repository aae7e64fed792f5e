import { JSONRPC_ERRORS } from "../core/errors.js";
import { isObject } from "../core/protocol.js";
import type { ServerRequestHandler } from "../core/transport.js";

// The requests a server sent on a legacy session that the client is answering, kept by a
// transport so that the server can cancel them. 2025-11-25 basic/utilities/cancellation:
// the receiver of notifications/cancelled SHOULD stop processing the request, free what it
// holds and send no response; a cancellation of an unknown or finished request MAY be, and
// a malformed one SHOULD be, ignored. The handler's signal aborts, its entry is dropped at
// once (a handler that never settles holds nothing here), and whatever it answers later is
// not sent.

type Json = Record<string, unknown>;

const CANCELLED = "notifications/cancelled";
/** Server requests answered at once at most; beyond it, a new one is refused with an error. */
export const MAX_SERVER_REQUESTS = 1024;

export interface ServerRequests {
  /**
   * Answers `request` with `handler` (Method not found without one) and passes the response
   * to `reply`, unless the server cancelled the request or the session ended first.
   */
  answer(
    request: Json,
    handler: ServerRequestHandler | undefined,
    reply: (response: Json) => Promise<unknown>,
  ): void;
  /** Takes a notifications/cancelled for a request being answered: true when it was one. */
  cancel(message: Json): boolean;
  /** The session ended: every answer under way is abandoned, its handler's signal aborted. */
  abandonAll(reason: unknown): void;
  /** How many requests are being answered. */
  readonly size: number;
}

export function serverRequests(limit = MAX_SERVER_REQUESTS): ServerRequests {
  // Keyed by the id's JSON: 1 and "1" are different requests.
  const running = new Map<string, AbortController>();

  return {
    get size() {
      return running.size;
    },
    answer(request, handler, reply) {
      const id = request["id"];
      const fail = (code: number, message: string) =>
        void reply({ jsonrpc: "2.0", id, error: { code, message } }).catch(() => undefined);
      if (!handler) return fail(JSONRPC_ERRORS.METHOD_NOT_FOUND, "Method not found");
      if (running.size >= limit)
        return fail(JSONRPC_ERRORS.INTERNAL_ERROR, "the client is answering too many requests");
      const key = JSON.stringify(id);
      const controller = new AbortController();
      running.set(key, controller);
      let answered: Promise<Json>;
      try {
        answered = handler(request, { signal: controller.signal });
      } catch (error) {
        answered = Promise.reject(error);
      }
      answered
        .then((response) => {
          if (controller.signal.aborted) return;
          return reply(response);
        })
        .catch(() => undefined)
        .finally(() => {
          // A request the server sent again under the same id is the newer one's entry.
          if (running.get(key) === controller) running.delete(key);
        });
    },
    cancel(message) {
      if (message["method"] !== CANCELLED) return false;
      const params = message["params"];
      if (!isObject(params)) return false;
      const requestId = params["requestId"];
      if (typeof requestId !== "string" && typeof requestId !== "number") return false;
      const key = JSON.stringify(requestId);
      const controller = running.get(key);
      if (!controller) return false;
      running.delete(key);
      const reason = params["reason"];
      controller.abort(
        new Error(typeof reason === "string" ? reason : "the server cancelled the request"),
      );
      return true;
    },
    abandonAll(reason) {
      const all = [...running.values()];
      running.clear();
      for (const controller of all) controller.abort(reason);
    },
  };
}
