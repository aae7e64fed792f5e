import type { ProtocolDescriptor } from "@mcp-gen/runtime/core";
import type { LoadedRevision } from "./index.js";
import type { ProtocolModel } from "./protocol.js";
import { Resolver } from "./resolve.js";

// The facts the runtime reads, derived from the protocol model: what differs between
// revisions is this data (printed into protocol.ts), never code left in or out.

/**
 * Methods the runtime serves or sends by itself. The spec names them in prose, not in a
 * convention of schema.ts; each is used only where the revision's method table has it.
 */
export const WELL_KNOWN_METHODS = {
  ping: "ping",
  discover: "server/discover",
  cancelled: "notifications/cancelled",
  progress: "notifications/progress",
  log: "notifications/message",
  toolsCall: "tools/call",
  toolsList: "tools/list",
  subscriptionsListen: "subscriptions/listen",
  complete: "completion/complete",
} as const;

/**
 * Streamable HTTP repeats routing facts of the body in headers. The transport spec defines
 * them, not schema.ts, so they are kept here: the header names, and for methods acting on a
 * named thing, the param that names it (2026-07-28 transports/streamable-http, "Standard Headers").
 */
export const HTTP_HEADERS = {
  versionHeader: "MCP-Protocol-Version",
  methodHeader: "Mcp-Method",
  nameHeader: "Mcp-Name",
  nameParams: { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" } as Record<
    string,
    string
  >,
};

/**
 * The caching hints a server/discover result may carry (2026-07-28 `CacheableResult`); the
 * router adds them only where the revision's result type declares them all.
 */
const DISCOVER_CACHE_HINTS = ["ttlMs", "cacheScope"];

/**
 * The server/discover result fields the runtime's server/router.ts fills by itself (from its options and
 * handlers); with the cache hints where the revision has them all, and the base `Result`'s
 * fields (`resultType`, `_meta`). A draft's other fields come from the `discoverFields` option.
 */
const DISCOVER_FILLED = ["supportedVersions", "capabilities", "instructions"];

/** The server/discover result's fields the router does not fill: the dispatcher's `discoverFields`. */
export function discoverFields(
  loaded: Pick<LoadedRevision, "model" | "protocol">,
): { name: string; optional: boolean }[] {
  const r = new Resolver(loaded.model);
  const result = loaded.protocol.methods.find(
    (m) => m.method === WELL_KNOWN_METHODS.discover,
  )?.result;
  const fields = result ? r.objectOf(result)?.properties : undefined;
  if (!fields) return [];
  const hints = DISCOVER_CACHE_HINTS.every((f) => fields.has(f)) ? DISCOVER_CACHE_HINTS : [];
  const filled = new Set([
    ...DISCOVER_FILLED,
    ...hints,
    ...(r.objectOf("Result")?.properties.keys() ?? []),
  ]);
  return [...fields.values()]
    .filter((p) => !filled.has(p.name))
    .map((p) => ({ name: p.name, optional: p.optional }));
}

/** Schema error codes the HTTP transport answers with 400 Bad Request, where the schema has them. */
const BAD_REQUEST_ERRORS = [
  "HEADER_MISMATCH",
  "UNSUPPORTED_PROTOCOL_VERSION",
  "MISSING_REQUIRED_CLIENT_CAPABILITY",
];

/** The descriptor without `methods` and `inputRequests`, which protocol.ts takes from methods.ts. */
export type RuntimeFacts = Omit<ProtocolDescriptor, "methods" | "inputRequests">;

export function runtimeFacts(
  loaded: Pick<LoadedRevision, "revision" | "model" | "protocol">,
): RuntimeFacts {
  const { protocol } = loaded;
  const revision = loaded.revision.name;
  const has = (method: string) => protocol.methods.some((m) => m.method === method);
  const wellKnown = (method: string) => (has(method) ? method : null);
  const code = (name: string) => protocol.errors.find((e) => e.name === name)?.code ?? null;
  const meta = protocol.conventions.requestMeta;
  const unsupportedProtocolVersion = code("UNSUPPORTED_PROTOCOL_VERSION");
  const perRequestVersion = isStateless(protocol);
  const progress = meta.progressToken !== undefined ? wellKnown(WELL_KNOWN_METHODS.progress) : null;
  const discoverResult = protocol.methods.find(
    (m) => m.method === WELL_KNOWN_METHODS.discover,
  )?.result;
  const discoverFields = discoverResult
    ? new Resolver(loaded.model).objectOf(discoverResult)?.properties
    : undefined;
  return {
    revision,
    protocolVersion: protocol.protocolVersion ?? null,
    requestMeta: {
      protocolVersion: meta.protocolVersion ?? null,
      clientCapabilities: meta.clientCapabilities ?? null,
      clientInfo: meta.clientInfo ?? null,
      logLevel: meta.logLevel ?? null,
      progressToken: meta.progressToken ?? null,
    },
    serverInfoKey: protocol.conventions.resultMeta.serverInfo ?? null,
    loggingLevels: protocol.conventions.loggingLevels,
    resultType: protocol.conventions.resultType,
    resultTypeRequired: protocol.conventions.resultTypeRequired,
    errorIdOptional: protocol.envelopes.errorIdOptional,
    batch: protocol.envelopes.batch,
    wellKnown: {
      ping: wellKnown(WELL_KNOWN_METHODS.ping),
      discover: wellKnown(WELL_KNOWN_METHODS.discover),
      cancelled: wellKnown(WELL_KNOWN_METHODS.cancelled),
      progress,
      log: wellKnown(WELL_KNOWN_METHODS.log),
      toolsCall: wellKnown(WELL_KNOWN_METHODS.toolsCall),
      toolsList: wellKnown(WELL_KNOWN_METHODS.toolsList),
      subscriptionsListen: wellKnown(WELL_KNOWN_METHODS.subscriptionsListen),
      complete: wellKnown(WELL_KNOWN_METHODS.complete),
    },
    errorCodes: {
      unsupportedProtocolVersion,
      missingClientCapability: code("MISSING_REQUIRED_CLIENT_CAPABILITY"),
      headerMismatch: code("HEADER_MISMATCH"),
    },
    features: {
      mrtr: protocol.inputRequiredResult !== undefined && meta.clientCapabilities !== undefined,
      perRequestVersion,
      toolHeaders:
        perRequestVersion && has(WELL_KNOWN_METHODS.toolsCall) && has(WELL_KNOWN_METHODS.toolsList),
      discoverCacheHints:
        discoverFields !== undefined && DISCOVER_CACHE_HINTS.every((f) => discoverFields.has(f)),
    },
    ...deprecations(protocol),
    http: {
      ...HTTP_HEADERS,
      nameParams: Object.fromEntries(
        Object.entries(HTTP_HEADERS.nameParams).filter(([m]) => has(m)),
      ),
      badRequestCodes: BAD_REQUEST_ERRORS.map(code).filter((c): c is number => c !== null),
    },
  };
}

/** `deprecated`: methods and input requests with a `@deprecated` text, where there are any. */
function deprecations(protocol: ProtocolModel): Pick<RuntimeFacts, "deprecated"> {
  const entries = [...protocol.methods, ...protocol.inputRequests]
    .filter((m) => m.deprecated !== undefined)
    .map((m) => [m.method, m.deprecated!.replace(/\s+/g, " ")] as const);
  return entries.length > 0 ? { deprecated: Object.fromEntries(entries) } : {};
}

/**
 * Stateless: requests carry their protocol version in `_meta` (2026-07-28 on), and the schema
 * has the error that refuses a version (without it the runtime could not answer one). The one
 * predicate for both the config check (which revisions may be served together) and the
 * generators (whether the era router is emitted), so a draft with only half of it is refused
 * up front instead of silently generating a modern-only output.
 */
export function isStateless(protocol: ProtocolModel): boolean {
  return (
    protocol.conventions.requestMeta.protocolVersion !== undefined &&
    protocol.errors.some((e) => e.name === "UNSUPPORTED_PROTOCOL_VERSION")
  );
}

/** Initialize-based (legacy): opens with `initialize` and carries no per-request version. */
export function isInitializeBased(protocol: ProtocolModel): boolean {
  return !isStateless(protocol) && protocol.methods.some((m) => m.method === "initialize");
}
