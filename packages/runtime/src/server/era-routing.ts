import type { HandleContext } from "./context.js";
import { JSONRPC_ERRORS } from "../core/errors.js";
import { isObject } from "../core/protocol.js";
import type { Dispatcher, DispatcherOptions, Reply } from "./router-types.js";
import { channelOf, type LegacySessionTable, type ReportError } from "./legacy-session-table.js";

// Which era serves a message: a channel with a legacy session open goes to that session
// (the client's answers to the server's requests, and its requests, at the negotiated
// revision); an initialize opens one; anything else is a modern request, served statelessly.

/** What routing a message to its era takes. */
export interface EraRouting {
  /** The router of every stateless revision. */
  readonly modern: Dispatcher;
  readonly sessions: LegacySessionTable;
  /** Whether a message is a legacy client's initialize. */
  readonly isInitialize: (message: unknown) => message is Record<string, unknown>;
  /** The answer to an initialize (see isInitialize). */
  readonly initialize: (message: Record<string, unknown>, context: HandleContext) => Reply;
  readonly reportError: ReportError;
}

/** The error hook of `onError`, which must not break the reply when it fails. */
export function errorReporter(onError: DispatcherOptions["onError"]): ReportError {
  return (error, method) => {
    try {
      onError?.(error, { method, id: undefined });
    } catch {
      // A failing error hook must not break the reply.
    }
  };
}

/** Whether `message` is a response (to a request the server sent), not a request. */
function isResponse(message: unknown): message is Record<string, unknown> {
  return (
    isObject(message) &&
    message["method"] === undefined &&
    ("result" in message || "error" in message)
  );
}

/**
 * The refusal of an initialize on a channel whose session is open: initialization is the
 * first interaction, once per connection (2025-11-25 basic/lifecycle, "Initialization"), so
 * a client cannot renegotiate the version mid-session; the session goes on as it was.
 */
function secondInitialize(message: Record<string, unknown>, version: string): Reply {
  const text = `Invalid request: initialize was already received on this connection (MCP ${version}); a new version needs a new connection`;
  return {
    jsonrpc: "2.0",
    id: message["id"] as string | number,
    error: { code: JSONRPC_ERRORS.INVALID_REQUEST, message: text },
  };
}

/** The reply to `message`, from the era that serves it. */
export async function routeByEra(
  message: unknown,
  context: HandleContext,
  routing: EraRouting,
): Promise<Reply> {
  const open = routing.sessions.get(channelOf(context));
  if (open) {
    // A response to a request the server sent on this session.
    if (isResponse(message)) {
      if (!open.session.resolve(message))
        routing.reportError(
          new Error(`a response with unknown id ${JSON.stringify(message["id"])}`),
          "",
        );
      return undefined;
    }
    if (routing.isInitialize(message)) return secondInitialize(message, open.session.version);
    return open.session.serving(message, context, () => open.router.handle(message, context));
  }
  if (routing.isInitialize(message)) return routing.initialize(message, context);
  // Awaited, not returned: a promise returned from an async function costs two turns more.
  return await routing.modern.handle(message, context);
}
