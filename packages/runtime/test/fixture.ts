import type { MessageValidators, ProtocolDescriptor } from "../src/core/protocol.js";

// A small revision for unit-testing the runtime without generating anything: two requests,
// the notifications the runtime knows, and validators that check only the envelope.

export const PROTOCOL: ProtocolDescriptor = {
  revision: "test",
  protocolVersion: "2099-01-01",
  methods: {
    ping: {
      kind: "request",
      directions: ["client->server", "server->client"],
      inputRequired: false,
      capabilities: {},
    },
    "tools/call": {
      kind: "request",
      directions: ["client->server"],
      inputRequired: true,
      capabilities: { "client->server": { side: "server", path: ["tools"], leaf: "object" } },
    },
    "tools/list": {
      kind: "request",
      directions: ["client->server"],
      inputRequired: false,
      capabilities: { "client->server": { side: "server", path: ["tools"], leaf: "object" } },
    },
    "notifications/cancelled": {
      kind: "notification",
      directions: ["client->server", "server->client"],
      inputRequired: false,
      capabilities: {},
    },
    "notifications/progress": {
      kind: "notification",
      directions: ["client->server", "server->client"],
      inputRequired: false,
      capabilities: {},
    },
  },
  inputRequests: {
    "elicitation/create": { capability: { path: ["elicitation"], leaf: "object" } },
  },
  requestMeta: {
    protocolVersion: "v",
    clientCapabilities: "caps",
    clientInfo: null,
    logLevel: null,
    progressToken: "progressToken",
  },
  serverInfoKey: null,
  loggingLevels: ["debug", "info", "error"],
  resultType: true,
  resultTypeRequired: false,
  errorIdOptional: true,
  batch: false,
  wellKnown: {
    ping: "ping",
    discover: null,
    cancelled: "notifications/cancelled",
    progress: "notifications/progress",
    log: null,
    toolsCall: "tools/call",
    toolsList: "tools/list",
    subscriptionsListen: "subscriptions/listen",
    complete: "completion/complete",
  },
  errorCodes: {
    unsupportedProtocolVersion: -32022,
    missingClientCapability: -32021,
    headerMismatch: -32020,
  },
  features: { mrtr: true, perRequestVersion: true, toolHeaders: true, discoverCacheHints: true },
  http: {
    versionHeader: "MCP-Protocol-Version",
    methodHeader: "Mcp-Method",
    nameHeader: "Mcp-Name",
    nameParams: { "tools/call": "name" },
    badRequestCodes: [-32020, -32022, -32021],
  },
};

const ok = (value: unknown) => ({ ok: true as const, value });
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const VALIDATORS: MessageValidators = {
  classifyMessage(value) {
    if (!isObject(value)) return undefined;
    if (typeof value["method"] === "string")
      return { kind: "id" in value ? "request" : "notification" };
    if ("result" in value) return { kind: "result" };
    if ("error" in value) return { kind: "error" };
    return undefined;
  },
  isRequestId: (value) =>
    typeof value === "string" || (typeof value === "number" && Number.isInteger(value)),
  validateRequestMessage: ok,
  validateNotificationMessage: ok,
  validateMethodResult: (_method, value) => ok(value),
  validateInputResult: (_method, value) => ok(value),
  validateInputRequiredResult: ok,
};

export const request = (
  method: string,
  id: number | string = 1,
  params: Record<string, unknown> = {},
) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { _meta: { v: "2099-01-01", caps: {} }, ...params },
});

/** An initialize-based revision beside the fixture's stateless one (for era and session tests). */
export const LEGACY_PROTOCOL: ProtocolDescriptor = {
  ...PROTOCOL,
  revision: "legacy",
  protocolVersion: "2098-01-01",
  methods: {
    ...PROTOCOL.methods,
    initialize: {
      kind: "request",
      directions: ["client->server"],
      inputRequired: false,
      capabilities: {},
    },
    "tools/call": { ...PROTOCOL.methods["tools/call"]!, inputRequired: false },
  },
  requestMeta: {
    protocolVersion: null,
    clientCapabilities: null,
    clientInfo: null,
    logLevel: null,
    progressToken: "progressToken",
  },
  resultType: false,
  features: {
    mrtr: false,
    perRequestVersion: false,
    toolHeaders: false,
    discoverCacheHints: false,
  },
};

/**
 * The fixture's two eras for an era dispatcher: its stateless revision, and `legacy`
 * (initialize-based; default LEGACY_PROTOCOL) beside it.
 */
export const dualEras = (legacy: ProtocolDescriptor = LEGACY_PROTOCOL) => ({
  modern: { protocol: PROTOCOL, validators: VALIDATORS },
  legacy: [{ protocol: legacy, validators: VALIDATORS, adapters: {} }],
});

/** The initialize request that opens a session of LEGACY_PROTOCOL. */
export const LEGACY_INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: LEGACY_PROTOCOL.protocolVersion,
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  },
};
