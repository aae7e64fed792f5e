import { McpGenError } from "./diagnostics.js";
import { hasTag, tagText, type Doc, type SchemaModel, type TypeExpr } from "./model.js";
import { Resolver } from "./resolve.js";
import { buildCapabilities, gatingCapability } from "./capabilities.js";
import { findConventions } from "./conventions.js";
import type {
  CapabilityGate,
  CapabilityRef,
  Direction,
  Envelopes,
  ErrorCodeInfo,
  InputRequestInfo,
  MethodInfo,
  ProtocolModel,
} from "./protocol-model.js";

export type * from "./protocol-model.js";

const REQUIRED_UNIONS = [
  "ClientRequest",
  "ClientNotification",
  "ClientResult",
  "ServerNotification",
  "ServerResult",
];
const OPTIONAL_UNIONS = ["ServerRequest", "InputRequest", "InputResponse", "JSONRPCMessage"];

// Which side sends each union's messages.
const MESSAGE_UNIONS: { union: string; kind: MethodInfo["kind"]; direction: Direction }[] = [
  { union: "ClientRequest", kind: "request", direction: "client->server" },
  { union: "ServerRequest", kind: "request", direction: "server->client" },
  { union: "ClientNotification", kind: "notification", direction: "client->server" },
  { union: "ServerNotification", kind: "notification", direction: "server->client" },
];

// JSON-RPC 2.0 reserves this range for protocol errors; MCP's codes all live in it.
const ERROR_CODE_RANGE = { min: -32768, max: -32000 };

/** Derives the protocol from the schema model alone: no per-revision knowledge. */
export function buildProtocol(model: SchemaModel): ProtocolModel {
  const r = new Resolver(model);
  const unions: Record<string, string[]> = {};
  for (const name of [...REQUIRED_UNIONS, ...OPTIONAL_UNIONS]) {
    const decl = r.declaration(name);
    if (!decl) {
      if (REQUIRED_UNIONS.includes(name)) {
        throw new McpGenError(
          "protocol",
          `the schema has no '${name}' type, which every MCP revision declares`,
          {
            file: model.file,
            line: 1,
            column: 1,
          },
        );
      }
      continue;
    }
    const members =
      decl.kind === "alias"
        ? r.unionMembers(decl.type)
        : [{ kind: "ref" as const, name, loc: decl.loc }];
    unions[name] = members.map((m) => memberName(m, name));
  }

  const inputRequiredResult = r.declaration("InputRequiredResult")
    ? "InputRequiredResult"
    : undefined;
  const capabilities = {
    client: buildCapabilities(r, "ClientCapabilities"),
    server: buildCapabilities(r, "ServerCapabilities"),
  };

  const methods = new Map<string, MethodInfo>();
  for (const { union, kind, direction } of MESSAGE_UNIONS) {
    for (const type of unions[union] ?? []) {
      const method = methodOf(r, type);
      const existing = methods.get(method);
      if (existing) {
        if (existing.type !== type) {
          const loc = r.declaration(type)?.loc;
          throw new McpGenError(
            "protocol",
            `method '${method}' is declared by both ${existing.type} and ${type}`,
            loc,
          );
        }
        if (!existing.directions.includes(direction)) existing.directions.push(direction);
      } else {
        const params = paramsOf(r, type);
        methods.set(method, {
          method,
          kind,
          directions: [direction],
          type,
          params: params?.name,
          paramsOptional: params?.optional ?? true,
          result: kind === "request" ? resultOf(r, type) : undefined,
          inputRequired:
            kind === "request" && inputRequired(r, type, params?.name, inputRequiredResult),
          capabilities: {},
          deprecated: deprecation(r.declaration(type)?.doc),
        });
      }
      const info = methods.get(method);
      const gate = info && gatingCapability(method, kind, direction, capabilities);
      if (info && gate) info.capabilities[direction] = gate;
    }
  }

  const inputRequests = (unions["InputRequest"] ?? []).map((type): InputRequestInfo => {
    const method = methodOf(r, type);
    const params = paramsOf(r, type);
    return {
      method,
      type,
      params: params?.name,
      paramsOptional: params?.optional ?? true,
      result: resultOf(r, type),
      deprecated: deprecation(r.declaration(type)?.doc),
      capability: inputCapability(
        gatingCapability(method, "request", "server->client", capabilities),
      ),
    };
  });

  return {
    protocolVersion: stringConst(model, "LATEST_PROTOCOL_VERSION"),
    jsonrpcVersion: stringConst(model, "JSONRPC_VERSION"),
    unions,
    methods: [...methods.values()],
    inputRequests,
    inputRequiredResult,
    capabilities,
    errors: errorCodes(model, r),
    envelopes: envelopes(r, unions["JSONRPCMessage"] ?? []),
    conventions: findConventions(model, r),
    constants: model.declarations.flatMap((d) =>
      d.kind === "const" ? [{ name: d.name, value: d.value }] : [],
    ),
  };
}

function inputCapability(gate: CapabilityGate | undefined): CapabilityRef | undefined {
  return gate && { path: gate.path, leaf: gate.leaf };
}

function memberName(member: TypeExpr, union: string): string {
  if (member.kind !== "ref") {
    throw new McpGenError(
      "protocol",
      `every member of '${union}' must be a named type`,
      member.loc,
    );
  }
  return member.name;
}

function methodOf(r: Resolver, type: string): string {
  const prop = r.propertyOf(type, "method");
  const value = prop && r.literal(prop.type);
  if (typeof value !== "string") {
    throw new McpGenError(
      "protocol",
      `'${type}' is a message type but its 'method' is not a string literal`,
      prop?.loc ?? r.declaration(type)?.loc,
    );
  }
  return value;
}

function paramsOf(r: Resolver, type: string): { name: string; optional: boolean } | undefined {
  const prop = r.propertyOf(type, "params");
  if (!prop) return undefined;
  const name = prop.type.kind === "ref" ? prop.type.name : `${type}["params"]`;
  return { name, optional: prop.optional };
}

/** `CallToolRequest` answers `CallToolResult`; a request with no such type answers the empty result. */
function resultOf(r: Resolver, type: string): string {
  const named = type.replace(/Request$/, "Result");
  if (named !== type && r.declaration(named)) return named;
  return r.declaration("EmptyResult") ? "EmptyResult" : "Result";
}

/**
 * A method may answer `input_required` when its `<Name>ResultResponse` includes
 * `InputRequiredResult`, or its params extend `InputResponseRequestParams`.
 */
function inputRequired(
  r: Resolver,
  type: string,
  params: string | undefined,
  inputRequiredResult: string | undefined,
): boolean {
  if (!inputRequiredResult) return false;
  const response = type.replace(/Request$/, "ResultResponse");
  const result = r.propertyOf(response, "result");
  if (
    result &&
    r.unionMembers(result.type).some((m) => m.kind === "ref" && m.name === inputRequiredResult)
  )
    return true;
  return (
    params !== undefined &&
    r.declaration(params) !== undefined &&
    r.ancestors(params).has("InputResponseRequestParams")
  );
}

function deprecation(doc: Doc | undefined): string | undefined {
  if (!doc || !hasTag(doc, "deprecated")) return undefined;
  return tagText(doc, "deprecated") || "deprecated";
}

function stringConst(model: SchemaModel, name: string): string | undefined {
  const d = model.byName.get(name);
  return d?.kind === "const" && typeof d.value === "string" ? d.value : undefined;
}

function errorCodes(model: SchemaModel, r: Resolver): ErrorCodeInfo[] {
  const errors: ErrorCodeInfo[] = [];
  for (const d of model.declarations) {
    if (d.kind !== "const" || typeof d.value !== "number" || !Number.isInteger(d.value)) continue;
    if (d.value < ERROR_CODE_RANGE.min || d.value > ERROR_CODE_RANGE.max) continue;
    errors.push({ name: d.name, code: d.value, types: [] });
  }
  const byConst = new Map(errors.map((e) => [e.name, e]));
  // An error type fixes `code` (or `error.code`, for whole error responses) to `typeof CONST`.
  for (const d of model.declarations) {
    if (d.kind === "const") continue;
    const direct = r.propertyOf(d.name, "code");
    const nestedError = r.propertyOf(d.name, "error");
    const code = direct ?? (nestedError && r.property(nestedError.type, "code"));
    const constName = code ? typeofName(code.type) : undefined;
    const entry = constName ? byConst.get(constName) : undefined;
    if (entry) entry.types.push(d.name);
  }
  return errors;
}

function typeofName(t: TypeExpr): string | undefined {
  if (t.kind === "typeof") return t.name;
  if (t.kind === "intersection") return t.members.map(typeofName).find((n) => n !== undefined);
  return undefined;
}

/** Sorts `JSONRPCMessage`'s members (aliases of unions expanded) by the properties they require. */
function envelopes(r: Resolver, members: string[]): Envelopes {
  const out: Envelopes = {
    request: undefined,
    notification: undefined,
    resultResponse: undefined,
    errorResponse: undefined,
    errorIdOptional: false,
    batch: false,
  };
  const visit = (name: string): void => {
    const decl = r.declaration(name);
    if (!decl) return;
    if (decl.kind === "alias" && decl.type.kind === "union") {
      for (const m of decl.type.members) if (m.kind === "ref") visit(m.name);
      return;
    }
    if (decl.kind === "alias" && decl.type.kind === "array") {
      out.batch = true;
      return;
    }
    const obj = r.objectOf(name);
    const has = (p: string) => obj?.properties.get(p)?.optional === false;
    if (has("method") && has("id")) out.request ??= name;
    else if (has("method")) out.notification ??= name;
    else if (has("result")) out.resultResponse ??= name;
    else if (has("error")) out.errorResponse ??= name;
  };
  members.forEach(visit);
  if (out.errorResponse) {
    out.errorIdOptional = r.propertyOf(out.errorResponse, "id")?.optional ?? true;
  }
  return out;
}
