import { isObject, type MessageValidators, type ProtocolDescriptor } from "../core/protocol.js";

/** A JSON-RPC error response to request `id` (which may be unknown). */
export function errorResponse(
  protocol: Pick<ProtocolDescriptor, "errorIdOptional">,
  id: unknown,
  code: number,
  message: string,
  data?: unknown,
): Record<string, unknown> {
  const error = data === undefined ? { code, message } : { code, message, data };
  if (typeof id === "string" || typeof id === "number") return { jsonrpc: "2.0", id, error };
  // Revisions whose schema requires an id get null, as JSON-RPC answers when it is unknown.
  return protocol.errorIdOptional ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id: null, error };
}

/** The id of `message`, when it has a valid one, to answer it by. */
export function requestIdOf(
  validators: Pick<MessageValidators, "isRequestId">,
  message: unknown,
): string | number | undefined {
  const id = isObject(message) ? message["id"] : undefined;
  return validators.isRequestId(id) ? (id as string | number) : undefined;
}
