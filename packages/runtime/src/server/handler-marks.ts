import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import type { Handlers } from "./router-types.js";

// What the router needs to know about handlers beyond calling them: the skeleton's
// placeholder (served as no handler at all) and which error responses a handler raised.

/** Marks a placeholder; a registry symbol, so two copies of the runtime agree on it. */
const PLACEHOLDER = Symbol.for("mcp-gen.notImplemented");

/**
 * The placeholder of a handlers.ts skeleton: a method mapped to it is served as if it had no
 * handler (method not found, and no capability advertised for it) until it is replaced, so a
 * fresh skeleton does not offer clients what it cannot do.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assignable to every handler type
export const notImplemented: (...args: any[]) => never = Object.assign(
  (): never => {
    throw new McpError(JSONRPC_ERRORS.METHOD_NOT_FOUND, "Method not found");
  },
  { [PLACEHOLDER]: true },
);

const isPlaceholder = (handler: unknown) =>
  typeof handler === "function" &&
  (handler as unknown as Record<symbol, unknown>)[PLACEHOLDER] === true;

/** `handlers` without the skeleton's placeholders (the same object when it has none). */
export function servedHandlers(handlers: Handlers): Handlers {
  const entries = Object.entries(handlers);
  if (!entries.some(([, h]) => isPlaceholder(h))) return handlers;
  // fromEntries defines own properties, so even a "__proto__" key stays a key.
  return Object.fromEntries(entries.filter(([, h]) => h !== undefined && !isPlaceholder(h)));
}

/**
 * Error responses built from an McpError a handler (or the request's capability check) threw,
 * as opposed to the router's own refusals (malformed request, invalid params, unknown method,
 * unsupported version). Streamable HTTP sends a handler's -32602 (2026-07-28 uses it for
 * "resource not found") in the body with 200, as the SDK servers do, where a malformed request
 * gets 400 (2026-07-28 basic, Request Metadata): a client probing the era could otherwise read a
 * handler's 400 as "legacy server" (streamable-http, Backward Compatibility).
 */
const handlerErrors = new WeakSet<object>();

/** Records `reply` as raised by a handler; returns it. */
export function markRaisedByHandler<R extends object>(reply: R): R {
  handlerErrors.add(reply);
  return reply;
}

/** Whether `reply` is an error response a handler raised (see handlerErrors). */
export function raisedByHandler(reply: unknown): boolean {
  return typeof reply === "object" && reply !== null && handlerErrors.has(reply);
}
