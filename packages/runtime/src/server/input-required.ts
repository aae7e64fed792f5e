import type { RequestContext } from "./context.js";
import { hasCapability, JSONRPC_ERRORS, McpError } from "../core/errors.js";
import {
  capabilityObject,
  own,
  type Capability,
  type ProtocolDescriptor,
} from "../core/protocol.js";

// Server-side helpers of multi round-trip: ask for input the client can give, and refuse
// work that needs a capability the request did not declare.

/**
 * Throws the error for a capability this request did not declare (missing-capability code, else
 * invalid params); its `requiredCapabilities` declare it as the schema types it (`true` or `{}`).
 */
export function requireClientCapability(
  protocol: ProtocolDescriptor,
  ctx: Pick<RequestContext, "clientCapabilities">,
  capability: string | readonly string[] | Capability,
): void {
  const { path, leaf } =
    typeof capability === "string" || Array.isArray(capability)
      ? clientCapability(protocol, typeof capability === "string" ? [capability] : capability)
      : (capability as Capability);
  if (!hasCapability(ctx.clientCapabilities, path)) {
    const code = protocol.errorCodes.missingClientCapability ?? JSONRPC_ERRORS.INVALID_PARAMS;
    throw new McpError(code, `this request needs the client capability ${path.join(".")}`, {
      requiredCapabilities: capabilityObject(path, leaf),
    });
  }
}

/** A client capability named by its path, declared as the input request or method it gates declares it. */
function clientCapability(protocol: ProtocolDescriptor, path: readonly string[]): Capability {
  const same = (c: Capability | null | undefined) =>
    c && c.path.length === path.length && c.path.every((key, i) => key === path[i]) ? c : undefined;
  for (const request of Object.values(protocol.inputRequests)) {
    const found = same(request.capability);
    if (found) return found;
  }
  for (const entry of Object.values(protocol.methods)) {
    for (const gate of Object.values(entry.capabilities)) {
      const found = gate?.side === "client" ? same(gate) : undefined;
      if (found) return found;
    }
  }
  return { path, leaf: "object" };
}

/**
 * Builds the interim answer of a multi round-trip request. Refuses to ask for an input the
 * request's client capabilities do not declare; needs `inputRequests` or `requestState`.
 */
export function inputRequired(
  protocol: ProtocolDescriptor,
  ctx: Pick<RequestContext, "clientCapabilities">,
  input: {
    inputRequests?: { readonly [key: string]: { method: string; params?: unknown } };
    requestState?: string;
  },
): { resultType: "input_required"; inputRequests?: object; requestState?: string } {
  if (!protocol.features.mrtr)
    throw new TypeError(`revision ${protocol.revision} has no multi round-trip requests`);
  const requests = input.inputRequests;
  const asked = requests !== undefined && Object.keys(requests).length > 0;
  if (!asked && input.requestState === undefined)
    throw new TypeError("inputRequired needs inputRequests or requestState");
  for (const request of Object.values(requests ?? {})) {
    const capability = own(protocol.inputRequests, request.method)?.capability;
    if (capability) requireClientCapability(protocol, ctx, capability);
  }
  return {
    resultType: "input_required",
    ...(asked ? { inputRequests: requests } : {}),
    ...(input.requestState !== undefined ? { requestState: input.requestState } : {}),
  };
}
