import { extensionTable, type ExtensionTable } from "./extensions.js";
import { servedHandlers } from "./handler-marks.js";
import { InFlightRequests } from "./in-flight-requests.js";
import { middlewareList, type Middleware } from "./middleware.js";
import type { DispatcherOptions, Handlers } from "./router-types.js";
import type { Direction, MessageValidators, ProtocolDescriptor } from "../core/protocol.js";
import { positiveInteger } from "../core/options.js";

// What the router's parts share, fixed when the router is made and handed to each part
// explicitly, so each part reads (and is tested) on its own.

/** Messages in one JSON-RPC batch (revisions with batching, 2025-03-26) at most, by default. */
const DEFAULT_MAX_BATCH_LENGTH = 100;

export interface RouterState {
  readonly protocol: ProtocolDescriptor;
  readonly validators: MessageValidators;
  /** The side whose received messages are routed. */
  readonly direction: Direction;
  /** The handlers given, without the skeleton's placeholders. */
  readonly handlers: Handlers;
  /** As given: onError, serverInfo and the server/discover fields are read when used. */
  readonly options: DispatcherOptions;
  readonly validateResults: boolean;
  readonly validation: { readonly firstError: boolean };
  readonly maxBatchLength: number;
  readonly supportedVersions: string[];
  /** Extensions: their requests (methods the revision lacks) and their results. */
  readonly extensions: ExtensionTable;
  readonly inFlight: InFlightRequests;
  /** The hooks around handlers, outermost first. */
  readonly middleware: readonly Middleware[];
}

/** The state of a router of `direction`; throws on invalid options (as createRouter does). */
export function routerState(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  direction: Direction,
  allHandlers: Handlers,
  options: DispatcherOptions,
): RouterState {
  const handlers = servedHandlers(allHandlers);
  const validateResults = options.validateResults ?? true;
  const validation = { firstError: options.allErrors !== true };
  const maxBatchLength = positiveInteger(
    options.maxBatchLength,
    "maxBatchLength",
    DEFAULT_MAX_BATCH_LENGTH,
  );
  const supportedVersions =
    options.supportedVersions ??
    (protocol.protocolVersion === null ? [] : [protocol.protocolVersion]);
  const extensions = extensionTable(protocol.methods, options.extensions ?? []);
  return {
    protocol,
    validators,
    direction,
    handlers,
    options,
    validateResults,
    validation,
    maxBatchLength,
    supportedVersions,
    extensions,
    inFlight: new InFlightRequests(),
    middleware: middlewareList(options.middleware),
  };
}

/** Tells the dispatcher's `onError` about `error`. */
export function report(
  state: Pick<RouterState, "options">,
  error: unknown,
  method: string,
  id: string | number | undefined,
): void {
  try {
    state.options.onError?.(error, { method, id });
  } catch {
    // A failing error hook must not break the reply.
  }
}
