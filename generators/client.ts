import type { LoadedRevision } from "../schema/index.js";
import type { Direction, MethodInfo } from "../schema/protocol.js";
import { Resolver } from "../schema/resolve.js";
import type { EmittedFile, Generator } from "./plugin.js";
import { dispatcherView } from "./dispatcher.js";
import { notificationFunctionName, requestFunctionName, uniqueNames } from "./names.js";
import { renderTemplate } from "./render.js";
import { httpView } from "./http.js";

const SENDERS: { name: string; side: string; direction: Direction }[] = [
  { name: "Client", side: "client", direction: "client->server" },
  { name: "ServerRequester", side: "server", direction: "server->client" },
];

/** A list method: its params take a `cursor` and its result gives a `nextCursor`. */
function isPaginated(r: Resolver, m: MethodInfo): boolean {
  // Inline params (`Type["params"]`) name no declaration: not a list method.
  if (!m.params || !m.result || m.params.includes("[")) return false;
  return r.propertyOf(m.params, "cursor") !== undefined && r.propertyOf(m.result, "nextCursor") !== undefined;
}

/** client.ts: `createClient` (and, where servers send requests, `createServerRequester`). */
export const clientGenerator: Generator = {
  name: "client",
  description: "client.ts: typed request functions with multi round-trip retries, transports contract",
  emit({ loaded, header }) {
    const base = dispatcherView(loaded, header);
    const r = new Resolver(loaded.model);
    const senders = SENDERS.map((s) => senderView(loaded, r, s, base.mrtr)).filter((s) => s.requests.length > 0);
    const has = (method: string) => loaded.protocol.methods.some((m) => m.method === method);
    const view = {
      ...base,
      requestEnvelope: loaded.protocol.envelopes.request,
      senders,
      ...httpView(loaded.protocol),
      unsupportedVersionNumber: loaded.protocol.errors.find((e) => e.name === "UNSUPPORTED_PROTOCOL_VERSION")?.code,
      // Mcp-Param-* headers belong to stateless Streamable HTTP, for tools/call after tools/list.
      toolHeaders: base.versionKey !== undefined && has("tools/call") && has("tools/list"),
      toolsCallMethod: "tools/call",
      toolsListMethod: "tools/list",
    };
    const files: EmittedFile[] = [
      { path: "client.ts", kind: "generated", code: renderTemplate("client.ts.hbs", view) },
      { path: "stdio.ts", kind: "generated" as const, code: renderTemplate("stdio.ts.hbs", view), nodeOnly: true },
    ];
    // Stateless Streamable HTTP: requests carry their protocol version in _meta.
    if (base.versionKey) files.push({ path: "http-client.ts", kind: "generated", code: renderTemplate("http-client.ts.hbs", view) });
    return files;
  },
};

function senderView(loaded: LoadedRevision, r: Resolver, s: (typeof SENDERS)[number], mrtr: boolean) {
  const { methods } = loaded.protocol;
  const requests = methods.filter((m) => m.kind === "request" && m.directions.includes(s.direction));
  const notifications = methods.filter((m) => m.kind === "notification" && m.directions.includes(s.direction));
  const fns = uniqueNames(requests.map((m) => m.method), requestFunctionName);
  const notifyFns = uniqueNames(notifications.map((m) => m.method), notificationFunctionName);
  const paramsType = (m: MethodInfo) => (m.params ? `T.${m.params}` : "undefined");
  const paginated = requests.filter((m) => isPaginated(r, m)).map((m) => m.method);
  return {
    ...s,
    requests: requests.map((m) => ({
      method: m.method,
      fn: fns.get(m.method),
      params: `CallParams<${paramsType(m)}>`,
      paramsType: m.paramsOptional ? `${paramsType(m)} | undefined` : paramsType(m),
      paramsOptional: m.paramsOptional || isAllOptional(r, m),
      result: `T.${m.result}`,
      inputRequired: m.inputRequired && mrtr,
      paginated: paginated.includes(m.method),
      deprecated: m.deprecated !== undefined,
    })),
    notifications: notifications.map((m) => ({
      method: m.method,
      fn: notifyFns.get(m.method),
      params: paramsType(m),
      paramsOptional: m.paramsOptional,
    })),
    functions: Object.fromEntries(fns),
    notificationFunctions: Object.fromEntries(notifyFns),
    paginated,
  };
}

/** Params whose only required field is `_meta` (which the client fills) may be left out. */
function isAllOptional(r: Resolver, m: MethodInfo): boolean {
  if (!m.params || m.params.includes("[")) return false;
  const obj = r.objectOf(m.params);
  return obj !== undefined && [...obj.properties.values()].every((p) => p.optional || p.name === "_meta");
}
