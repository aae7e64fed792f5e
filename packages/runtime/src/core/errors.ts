// What the dispatcher and the client share: the JSON-RPC error type, JSON-RPC's own codes,
// and capability paths.

import { capabilityObject, mergeCapabilities, type Capability } from "./protocol.js";

/** The error codes JSON-RPC 2.0 itself defines (the same in every MCP revision). */
export const JSONRPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** A JSON-RPC error: thrown by a handler to answer with it, or by the client when a server answered with it. */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }
}

/**
 * A thrown value's JSON-RPC error, read once: its code, message and data when it is an
 * McpError whose parts make a valid JSON-RPC error (an integer code, a string message);
 * otherwise undefined, also when reading it throws (a revoked Proxy, a throwing getter), so
 * that the caller answers it as any other failure and never throws itself.
 */
export function jsonRpcErrorOf(
  error: unknown,
): { code: number; message: string; data?: unknown } | undefined {
  try {
    if (!(error instanceof McpError)) return undefined;
    const { code, message, data } = error;
    if (!Number.isInteger(code) || typeof message !== "string") return undefined;
    return data === undefined ? { code, message } : { code, message, data };
  } catch {
    return undefined;
  }
}

/**
 * A thrown value's text, never throwing: an Error's message, anything else as String() makes
 * it (a Symbol too); `fallback` for a value that throws while being read (a revoked Proxy, a
 * `message` getter or a toString that throws, an object without toString).
 */
export function errorText(error: unknown, fallback: string): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return fallback;
  }
}

/** The longest validation detail an error's message repeats (its data or `.errors` has it all). */
const DETAIL_CHARS = 300;

/** `message: /path: what is wrong (and N more)`: the first error, bounded, in the message. */
export function withDetail(
  message: string,
  errors: readonly { readonly path: string; readonly message: string }[],
): string {
  const first = errors[0];
  if (first === undefined) return message;
  let detail = `${first.path === "" ? "/" : first.path}: ${first.message}`;
  if (detail.length > DETAIL_CHARS) detail = `${detail.slice(0, DETAIL_CHARS - 3)}...`;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return `${message}: ${detail}${more}`;
}

/**
 * Whether a capabilities object declares the capability at `path` (["sampling", "tools"]):
 * present, and not `false` (a boolean capability declared false is not declared).
 */
export function hasCapability(capabilities: unknown, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (
      typeof node !== "object" ||
      node === null ||
      !Object.prototype.hasOwnProperty.call(node, key)
    )
      return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined && node !== null && node !== false;
}

/** `declared` capabilities, with each of `implied` added where they do not say more already. */
export function withCapabilities(
  declared: Record<string, unknown>,
  implied: readonly Capability[],
): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const c of implied) merged = mergeCapabilities(merged, capabilityObject(c.path, c.leaf));
  return mergeCapabilities(merged, declared);
}
