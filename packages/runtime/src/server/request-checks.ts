import { withContentNumbersDeferred } from "../core/elicitation-content.js";
import { JSONRPC_ERRORS, withDetail } from "../core/errors.js";
import { own, type ValidationError } from "../core/protocol.js";
import { errorResponse } from "./error-response.js";
import type { RouterState } from "./router-state.js";

// The router's refusals of a request it has a handler for, before the handler runs: a
// protocol version it does not serve, or a message its schema rejects.

/**
 * The refusal of a request whose `_meta` asks for a protocol version not served, or undefined.
 * Checked wherever the revision has the key; refused with its unsupported-version code, else
 * with invalid params (a draft may add the key before the code).
 */
export function unsupportedVersionReply(
  state: Pick<RouterState, "protocol" | "supportedVersions">,
  id: string | number,
  meta: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const { protocol, supportedVersions: supported } = state;
  const versionKey = protocol.requestMeta.protocolVersion;
  if (versionKey === null) return undefined;
  const requested = own(meta, versionKey);
  if (typeof requested !== "string" || supported.includes(requested)) return undefined;
  const unsupportedCode =
    protocol.errorCodes.unsupportedProtocolVersion ?? JSONRPC_ERRORS.INVALID_PARAMS;
  return errorResponse(
    protocol,
    id,
    unsupportedCode,
    `Unsupported protocol version: ${requested}`,
    {
      supported,
      requested,
    },
  );
}

/**
 * The refusal of a request the revision's schema rejects (-32600 for a wrong envelope, -32602
 * for wrong params), or undefined.
 */
export function invalidRequestReply(
  state: Pick<RouterState, "protocol" | "validators" | "direction" | "validation">,
  message: Record<string, unknown>,
  id: string | number,
  method: string,
): Record<string, unknown> | undefined {
  const { protocol, validators, direction, validation } = state;
  let checked = validators.validateRequestMessage(message, direction, validation);
  // Elicitation answers may hold fractional numbers schema.json reads as integers: their
  // form decides, when the handler reads them (checkInputAnswer). Only a failed check pays.
  const deferred = checked.ok ? undefined : withContentNumbersDeferred(message);
  if (deferred) checked = validators.validateRequestMessage(deferred, direction, validation);
  if (checked.ok) return undefined;
  // The message names the first error too: most clients show a user the message alone
  // (the v1 SDK: "MCP error -32602: ..."), not data.errors.
  return envelopeErrors(checked.errors)
    ? errorResponse(
        protocol,
        id,
        JSONRPC_ERRORS.INVALID_REQUEST,
        withDetail("Invalid request", checked.errors),
        { errors: checked.errors },
      )
    : errorResponse(
        protocol,
        id,
        JSONRPC_ERRORS.INVALID_PARAMS,
        withDetail(`Invalid params for ${method}`, checked.errors),
        { errors: checked.errors },
      );
}

/** Validation errors outside `/params` mean the envelope itself is wrong. */
function envelopeErrors(errors: readonly ValidationError[]): boolean {
  return errors.some(
    (e) => e.path !== "/params" && !e.path.startsWith("/params/") && e.path !== "/method",
  );
}
