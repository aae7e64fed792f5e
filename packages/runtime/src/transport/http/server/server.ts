import type { ProtocolDescriptor } from "../../../core/protocol.js";
import { MEMORY_STORES } from "../../../stores/memory/defaults.js";
import {
  nodeHttpHandler,
  serveNodeHttp,
  type HttpHandlerOptions,
  type NodeHttpHandler,
  type ServedHttp,
  type ServeHttpOptions,
} from "./node-host.js";
import type { MessageHandler } from "./options.js";

// `@mcp-gen/runtime/node/http`, an entry module: the node:http host of the Streamable HTTP
// server (node-host.ts) with its default stores, in memory (stores/memory/). Wired here, so
// the transport's own modules import no store: stores sit above transports.

export {
  pathnameOf,
  type HttpHandlerOptions,
  type NodeHttpHandler,
  type ServedHttp,
  type ServeHttpOptions,
} from "./node-host.js";
export type { CorsOptions, LegacyServingOptions, MessageHandler } from "./options.js";
export type { CancellationWatch } from "../../../core/cancellation.js";
export type { BackChannelUse, HandlerBackChannel } from "../../../server/back-channel-uses.js";
export type { MessageBus } from "../../../server/message-bus.js";

/** A node:http request listener serving MCP at `options.path` (default /mcp). */
export function createHttpHandler(
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: HttpHandlerOptions = {},
): NodeHttpHandler {
  return nodeHttpHandler(MEMORY_STORES, protocol, dispatcher, options);
}

/** Starts an HTTP server for `dispatcher`; resolves once it listens. */
export function serveHttp(
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: ServeHttpOptions = {},
): Promise<ServedHttp> {
  return serveNodeHttp(MEMORY_STORES, protocol, dispatcher, options);
}
