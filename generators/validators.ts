import { buildValidationSchemas, type VSchema } from "../schema/validation.js";
import type { Direction } from "../schema/protocol.js";
import { McpGenError } from "../schema/diagnostics.js";
import type { Generator } from "./plugin.js";
import { renderTemplate } from "./render.js";
import { ValidatorWriter } from "./validator-code.js";

/** Names of the types that can reach themselves through references (they need a depth guard). */
export function recursiveTypes(schemas: ReadonlyMap<string, VSchema>): Set<string> {
  const refs = new Map<string, Set<string>>();
  const collect = (s: VSchema, into: Set<string>): void => {
    switch (s.kind) {
      case "ref":
        into.add(s.name);
        return;
      case "object":
        s.properties.forEach((p) => collect(p.schema, into));
        if (s.additional) collect(s.additional, into);
        return;
      case "array":
        return collect(s.items, into);
      case "anyOf":
      case "allOf":
        return s.members.forEach((m) => collect(m, into));
      case "constrained":
        return collect(s.schema, into);
      default:
        return;
    }
  };
  for (const [name, schema] of schemas) {
    const into = new Set<string>();
    collect(schema, into);
    refs.set(name, into);
  }
  const recursive = new Set<string>();
  for (const start of schemas.keys()) {
    const stack = [...(refs.get(start) ?? [])];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(refs.get(next) ?? []));
    }
  }
  return recursive;
}

/** Names the message section of validators.ts exports beside `validate<Type>`. */
const MESSAGE_ENTRY_POINTS = new Set([
  "validateRequestMessage",
  "validateNotificationMessage",
  "validateMethodResult",
  "validateInputResult",
  "validateMessage",
]);

/** validators.ts: `isT` / `validateT` for every schema type, and message entry points. */
export const validatorsGenerator: Generator = {
  name: "validators",
  requires: ["types", "methods"],
  description: "validators.ts: type guards and JSON-pointer validators for every schema type, message validation",
  emit({ loaded, header }) {
    const { model, protocol } = loaded;
    const schemas = buildValidationSchemas(model);
    const writer = new ValidatorWriter(schemas, recursiveTypes(schemas));
    const exported = model.declarations.filter((d) => d.kind !== "const" && d.exported).map((d) => d.name);
    for (const name of exported) {
      if (MESSAGE_ENTRY_POINTS.has(`validate${name}`)) {
        const d = model.byName.get(name)!;
        throw new McpGenError("unsupported-construct", `type '${name}' would give a validator named like the message entry point validate${name}`, d.loc);
      }
    }
    const functions: string[] = [];
    for (const name of schemas.keys()) {
      functions.push(writer.isFunction(name), writer.validateFunction(name));
    }
    functions.push(...writer.helpers);
    const messages = renderTemplate("validators-messages.ts.hbs", messagesView(loaded));
    return [
      {
        path: "validators.ts",
        kind: "generated",
        code: renderTemplate("validators.ts.hbs", { header, functions, types: exported.map((name) => ({ name })), messages }),
      },
    ];
  },
};

function messagesView({ protocol, model }: Parameters<Generator["emit"]>[0]["loaded"]) {
  const has = (name: string | undefined) => (name !== undefined && model.byName.has(name) ? name : undefined);
  const directions: Direction[] = ["client->server", "server->client"];
  const byDirection = (kind: "request" | "notification") =>
    directions.map((direction) => ({
      direction,
      entries: protocol.methods
        .filter((m) => m.kind === kind && m.directions.includes(direction))
        .map((m) => ({ method: m.method, type: m.type })),
    }));
  const union = (side: "Client" | "Server", kind: "Request" | "Notification", envelope: string | undefined) => {
    const name = `${side}${kind}`;
    if (!protocol.unions[name]) return "never";
    return envelope ? `T.${envelope} & T.${name}` : `T.${name}`;
  };
  const { envelopes } = protocol;
  return {
    requests: byDirection("request"),
    notifications: byDirection("notification"),
    results: protocol.methods.filter((m) => m.kind === "request").map((m) => ({ method: m.method, result: m.result, inputRequired: m.inputRequired })),
    inputResults: protocol.inputRequests.map((r) => ({ method: r.method, result: r.result })),
    inputRequiredResult: has(protocol.inputRequiredResult) ?? null,
    requestEnvelope: has(envelopes.request) ?? null,
    notificationEnvelope: has(envelopes.notification) ?? null,
    resultEnvelope: has(envelopes.resultResponse) ?? null,
    errorEnvelope: has(envelopes.errorResponse) ?? null,
    messageType: has("JSONRPCMessage") ? "T.JSONRPCMessage" : "unknown",
    clientRequest: union("Client", "Request", envelopes.request),
    serverRequest: union("Server", "Request", envelopes.request),
    clientNotification: union("Client", "Notification", envelopes.notification),
    serverNotification: union("Server", "Notification", envelopes.notification),
  };
}
