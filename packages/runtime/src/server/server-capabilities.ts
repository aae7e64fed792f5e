import {
  capabilitiesOf,
  mergeCapabilities,
  type Direction,
  type ProtocolDescriptor,
} from "../core/protocol.js";

// The capabilities a server declares, decided once for every era: what `server/discover`
// answers (modern) and what `initialize` answers (legacy sessions) come from here, so one
// set of handlers and options declares the same to clients of either era.

/** What decides a server's capabilities beside the revision. */
export interface CapabilityInputs {
  /** The registered handlers (placeholders left out). */
  readonly handlers: { readonly [method: string]: unknown };
  /** The `capabilities` option, laid over what is implied. */
  readonly declared: object | undefined;
  /** The side the handlers serve (a server's: client->server). */
  readonly direction?: Direction;
}

/**
 * The capabilities a server declares at `protocol`'s revision:
 * - those its handlers imply (capabilitiesOf: a handler for a gated method declares its gate);
 * - `logging`, where the revision has log levels: every handler's context has `ctx.log`, and
 *   a server that sends log messages MUST declare it (server/utilities/logging, in every
 *   revision); which handlers log cannot be known before they run, so it is always declared;
 * - `resources.subscribe` where the revision's sessions keep subscriptions
 *   (`subscriptions`: the legacy session answers resources/subscribe itself);
 * then the `capabilities` option laid over them, key by key (mergeCapabilities).
 */
export function serverCapabilities(
  protocol: ProtocolDescriptor,
  inputs: CapabilityInputs,
  subscriptions = false,
): Record<string, unknown> {
  const implied: Record<string, unknown> = capabilitiesOf(
    protocol.methods,
    inputs.handlers,
    inputs.direction ?? "client->server",
  );
  if (protocol.loggingLevels.length > 0) implied["logging"] = {};
  if (subscriptions && implied["resources"]) implied["resources"] = { subscribe: true };
  return mergeCapabilities(implied, inputs.declared);
}
