import type { RequestContext } from "./context.js";
import { hasCapability, JSONRPC_ERRORS, McpError } from "../core/errors.js";
import {
  capabilityObject,
  isObject,
  own,
  type Capability,
  type ProtocolDescriptor,
} from "../core/protocol.js";

// The client capabilities a request declared, checked where the server would rely on one:
// by a handler (requireClientCapability), and for every input request an input_required
// result asks for, whether inputRequired() built it or the handler wrote it itself.

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
 * Throws, as requireClientCapability does, for the first of `inputRequests` (an
 * input_required result's) whose method needs a capability the request did not declare:
 * "Servers MUST NOT send an inputRequests that the client has not declared support for"
 * (2026-07-28 basic/patterns/mrtr, "Server Requirements"). Entries of another shape are the
 * result validation's to refuse.
 */
export function requireInputCapabilities(
  protocol: ProtocolDescriptor,
  ctx: Pick<RequestContext, "clientCapabilities">,
  inputRequests: unknown,
): void {
  if (!isObject(inputRequests)) return;
  for (const request of Object.values(inputRequests)) {
    const method = isObject(request) ? request["method"] : undefined;
    const capability =
      typeof method === "string" ? own(protocol.inputRequests, method)?.capability : undefined;
    if (capability) requireClientCapability(protocol, ctx, capability);
  }
}
