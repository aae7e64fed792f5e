import type { Generator } from "./plugin.js";
import { renderTemplate } from "./render.js";

/** `"a" | "b"`, or `never` for none. */
function literalUnion(values: string[]): string {
  return values.length === 0 ? "never" : values.map((v) => JSON.stringify(v)).join(" | ");
}

/** A schema type as seen from methods.ts (`T.` prefix; `undefined` when absent). */
function typeRef(name: string | undefined): string {
  return name ? `T.${name}` : "undefined";
}

/** methods.ts: the method table as typed data, and method -> params/result type maps. */
export const methodsGenerator: Generator = {
  name: "methods",
  description: "methods.ts: the method table, directions, params/result maps, error codes",
  requires: ["types"],
  emit({ loaded, header }) {
    const { protocol } = loaded;
    const methods = protocol.methods;
    const requests = methods.filter((m) => m.kind === "request");
    const notifications = methods.filter((m) => m.kind === "notification");
    const sentBy = (list: typeof methods, direction: string) =>
      literalUnion(list.filter((m) => m.directions.includes(direction as never)).map((m) => m.method));
    const view = {
      header,
      protocolVersion: protocol.protocolVersion ?? null,
      methods: methods.map((m) => ({
        method: m.method,
        kind: m.kind,
        directions: m.directions,
        type: m.type,
        params: m.params ?? null,
        paramsOptional: m.paramsOptional,
        result: m.result ?? null,
        inputRequired: m.inputRequired,
        capabilities: m.capabilities,
        deprecated: m.deprecated !== undefined,
      })),
      clientRequests: sentBy(requests, "client->server"),
      serverRequests: sentBy(requests, "server->client"),
      clientNotifications: sentBy(notifications, "client->server"),
      serverNotifications: sentBy(notifications, "server->client"),
      inputRequiredMethods: literalUnion(requests.filter((m) => m.inputRequired).map((m) => m.method)),
      requests: requests.map((m) => ({ method: m.method, type: typeRef(m.type), params: typeRef(m.params), result: typeRef(m.result) })),
      notifications: notifications.map((m) => ({ method: m.method, type: typeRef(m.type), params: typeRef(m.params) })),
      inputRequests: protocol.inputRequests.map((r) => ({
        method: r.method,
        type: r.type,
        result: r.result,
        capability: r.capability ?? null,
        params: typeRef(r.params),
        resultType: typeRef(r.result),
      })),
      inputRequestMethods: literalUnion(protocol.inputRequests.map((r) => r.method)),
      errors: protocol.errors,
      unions: protocol.unions,
    };
    return [{ path: "methods.ts", kind: "generated", code: renderTemplate("methods.ts.hbs", view) }];
  },
};
