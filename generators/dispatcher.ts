import type { LoadedRevision } from "../schema/index.js";
import type { Direction, MethodInfo } from "../schema/protocol.js";
import { McpGenError } from "../schema/diagnostics.js";
import type { EmittedFile, Generator } from "./plugin.js";
import { httpView } from "./http.js";
import { renderTemplate } from "./render.js";

// Methods the router knows by name, used only when the schema has them.
const WELL_KNOWN = {
  ping: "ping",
  discover: "server/discover",
  cancelled: "notifications/cancelled",
  progress: "notifications/progress",
  log: "notifications/message",
} as const;

const SIDES: { name: string; side: string; direction: Direction }[] = [
  { name: "Server", side: "server", direction: "client->server" },
  { name: "Client", side: "client", direction: "server->client" },
];

function paramsType(m: MethodInfo): string {
  const type = m.params ? `T.${m.params}` : "undefined";
  return m.paramsOptional && m.params ? `${type} | undefined` : type;
}

/** The sides that receive requests in this revision, with their handler entries. */
export function receivingSides(loaded: LoadedRevision) {
  const { methods } = loaded.protocol;
  return SIDES.map((s) => ({
    ...s,
    requests: methods.filter((m) => m.kind === "request" && m.directions.includes(s.direction)),
    notifications: methods.filter((m) => m.kind === "notification" && m.directions.includes(s.direction)),
  })).filter((s) => s.requests.length > 0);
}

export function dispatcherView(loaded: LoadedRevision, header: string) {
  const { protocol } = loaded;
  const { envelopes } = protocol;
  if (!envelopes.notification || !envelopes.resultResponse || !envelopes.errorResponse) {
    throw new McpGenError(
      "protocol",
      "the dispatcher needs JSONRPCMessage with notification, result response and error response members; use --generators to leave it out",
      { file: loaded.model.file, line: 1, column: 1 },
    );
  }
  const has = (method: string) => protocol.methods.some((m) => m.method === method);
  const paramsOf = (method: string) => {
    const m = protocol.methods.find((x) => x.method === method);
    return m?.params ? `T.${m.params}` : "unknown";
  };
  const code = (name: string) => (protocol.errors.some((e) => e.name === name) ? `ERROR_CODES.${name}` : undefined);
  const meta = protocol.conventions.requestMeta;
  const unsupportedVersionCode = code("UNSUPPORTED_PROTOCOL_VERSION");
  const missingCapabilityCode = code("MISSING_REQUIRED_CLIENT_CAPABILITY") ?? "$JSONRPC.INVALID_PARAMS";
  return {
    header,
    protocolVersion: protocol.protocolVersion ?? null,
    mrtr: protocol.inputRequiredResult !== undefined && meta.clientCapabilities !== undefined,
    resultType: protocol.conventions.resultType,
    resultTypeRequired: protocol.conventions.resultTypeRequired,
    resultEnvelope: protocol.envelopes.resultResponse,
    errorEnvelope: protocol.envelopes.errorResponse,
    notificationEnvelope: protocol.envelopes.notification,
    errorIdOptional: protocol.envelopes.errorIdOptional,
    batch: protocol.envelopes.batch,
    // The version check needs both the _meta key and the error code to answer with.
    versionKey: unsupportedVersionCode ? meta.protocolVersion : undefined,
    unsupportedVersionCode,
    capabilitiesKey: meta.clientCapabilities,
    missingCapabilityCode,
    usesSchemaCodes: [unsupportedVersionCode, missingCapabilityCode].some((c) => c?.startsWith("ERROR_CODES.")),
    clientInfoKey: meta.clientInfo,
    logLevelKey: meta.logLevel,
    progressKey: meta.progressToken,
    serverInfoKey: protocol.conventions.resultMeta.serverInfo,
    loggingLevels: protocol.conventions.loggingLevels,
    pingMethod: has(WELL_KNOWN.ping) ? WELL_KNOWN.ping : undefined,
    discoverMethod: has(WELL_KNOWN.discover) ? WELL_KNOWN.discover : undefined,
    cancelledMethod: has(WELL_KNOWN.cancelled) ? WELL_KNOWN.cancelled : undefined,
    progressMethod: has(WELL_KNOWN.progress) && meta.progressToken ? WELL_KNOWN.progress : undefined,
    logMethod: has(WELL_KNOWN.log) ? WELL_KNOWN.log : undefined,
    progressParams: paramsOf(WELL_KNOWN.progress),
    logParams: paramsOf(WELL_KNOWN.log),
    sides: receivingSides(loaded).map((s) => ({
      name: s.name,
      side: s.side,
      direction: s.direction,
      requests: s.requests.map((m) => ({
        method: m.method,
        params: paramsType(m),
        result: `T.${m.result}`,
        inputRequired: m.inputRequired,
        deprecated: m.deprecated !== undefined,
      })),
      notifications: s.notifications.map((m) => ({ method: m.method, params: paramsType(m) })),
    })),
  };
}

/** dispatcher.ts (always regenerated) and handlers.ts (a skeleton, written only when missing). */
export const dispatcherGenerator: Generator = {
  name: "dispatcher",
  description: "dispatcher.ts: typed handler interfaces and a JSON-RPC router; handlers.ts skeleton (once)",
  emit({ loaded, header }) {
    const view = dispatcherView(loaded, header);
    const files: EmittedFile[] = [
      { path: "dispatcher.ts", kind: "generated", code: renderTemplate("dispatcher.ts.hbs", view) },
      { path: "handlers.ts", kind: "scaffold", code: renderTemplate("handlers.ts.hbs", skeletonView(view, loaded.revision.name)) },
    ];
    // Stateless Streamable HTTP: requests carry their protocol version in _meta.
    if (view.versionKey) {
      files.push({
        path: "http-server.ts",
        kind: "generated",
        code: renderTemplate("http-server.ts.hbs", { ...view, ...httpView(loaded.protocol) }),
        nodeOnly: true,
      });
    }
    return files;
  },
};

/** The skeleton leaves out what the dispatcher answers by itself (ping, server/discover). */
function skeletonView(view: ReturnType<typeof dispatcherView>, revision: string) {
  const builtIn: string[] = [];
  for (const method of [view.pingMethod, view.discoverMethod]) if (method !== undefined) builtIn.push(method);
  return {
    ...view,
    revision,
    builtIn,
    sides: view.sides.map((s) => ({ ...s, requests: s.requests.filter((r) => !builtIn.includes(r.method)) })),
  };
}
