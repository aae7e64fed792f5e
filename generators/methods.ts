import type { SchemaModel } from "../schema/model.js";
import type { ErrorCodeInfo, InputRequestInfo, MethodInfo } from "../schema/protocol.js";
import type { Generator } from "./plugin.js";
import { CodeWriter, ident, json, literalUnion, propertyKey, str } from "./printer.js";

// methods.ts goes through prettier (it is small; its object literals mix quoted and bare
// keys, which prettier's quoteProps rules would have to be reimplemented for). What it
// prints still comes only from printer.ts: method strings and type names from the schema
// are escaped or rejected there.

type TypeRef = (name: string | undefined) => string;

/**
 * A schema type as seen from methods.ts: `T.Name`, `T.Name["params"]` for params declared
 * inline, `undefined` when absent. A name that cannot be one is an error at its declaration.
 */
function typeRefs(model: SchemaModel): TypeRef {
  const name = (n: string) => ident(n, "type name", model.byName.get(n)?.loc);
  return (type) => {
    if (type === undefined) return "undefined";
    const inline = /^(.*)\["([^"]*)"\]$/.exec(type);
    return inline ? `T.${name(inline[1]!)}[${str(inline[2]!)}]` : `T.${name(type)}`;
  };
}

const INTRO = `// The protocol's method table, derived from the schema: who sends what, with which
// params and which result.`;

const STATIC_DECLARATIONS = `/** Which way a message travels. */
export type Direction = "client->server" | "server->client";

/** A capability that gates a method: a path into ClientCapabilities or ServerCapabilities. */
export interface CapabilityGate {
  readonly side: "client" | "server";
  readonly path: readonly string[];
}

export interface MethodDescriptor {
  readonly kind: "request" | "notification";
  readonly directions: readonly Direction[];
  /** The request or notification type. */
  readonly type: string;
  readonly params: string | null;
  readonly paramsOptional: boolean;
  /** Requests only: the result type. */
  readonly result: string | null;
  /** Whether the method may answer with an InputRequiredResult (multi round-trip). */
  readonly inputRequired: boolean;
  readonly capabilities: { readonly [D in Direction]?: CapabilityGate };
  readonly deprecated: boolean;
}`;

/** methods.ts: the method table as typed data, and method -> params/result type maps. */
export const methodsGenerator: Generator = {
  name: "methods",
  description: "methods.ts: the method table, directions, params/result maps, error codes",
  requires: ["types"],
  emit({ loaded, header }) {
    const { protocol } = loaded;
    const w = new CodeWriter();
    w.import("./types.js", "* as T", true);
    for (const line of STATIC_DECLARATIONS.split("\n")) w.line(line);
    w.line();
    w.line("/** The schema's protocol version (LATEST_PROTOCOL_VERSION). */");
    w.line(`export const PROTOCOL_VERSION = ${json(protocol.protocolVersion ?? null)};`);
    w.line();
    methodTable(w, protocol.methods);
    w.line();
    methodUnions(w, protocol.methods);
    const typeRef = typeRefs(loaded.model);
    typeMaps(w, protocol.methods, typeRef);
    inputRequests(w, protocol.inputRequests, typeRef);
    errorCodes(w, protocol.errors);
    w.line();
    w.line("/** The message unions of the schema and their member types. */");
    w.line(`export const MESSAGE_UNIONS = ${json(protocol.unions)} as const;`);
    return [{ path: "methods.ts", kind: "generated", code: w.toString(`${header}\n${INTRO}`) }];
  },
};

function methodTable(w: CodeWriter, methods: readonly MethodInfo[]): void {
  w.block("export const METHODS = {", () => {
    for (const m of methods) {
      w.block(`${str(m.method)}: {`, () => {
        w.line(`kind: ${str(m.kind)},`);
        w.line(`directions: ${json(m.directions)},`);
        w.line(`type: ${str(m.type)},`);
        w.line(`params: ${json(m.params ?? null)},`);
        w.line(`paramsOptional: ${json(m.paramsOptional)},`);
        w.line(`result: ${json(m.result ?? null)},`);
        w.line(`inputRequired: ${json(m.inputRequired)},`);
        w.line(`capabilities: ${json(m.capabilities)},`);
        w.line(`deprecated: ${json(m.deprecated !== undefined)},`);
      }, "},");
    }
  }, "} as const satisfies Record<string, MethodDescriptor>;");
  w.line();
  w.line("export type Method = keyof typeof METHODS;");
}

function methodUnions(w: CodeWriter, methods: readonly MethodInfo[]): void {
  const sentBy = (kind: MethodInfo["kind"], direction: MethodInfo["directions"][number]) =>
    literalUnion(methods.filter((m) => m.kind === kind && m.directions.includes(direction)).map((m) => m.method));
  w.line("/** Requests a client sends and a server answers. */");
  w.line(`export type ClientRequestMethod = ${sentBy("request", "client->server")};`);
  w.line("/** Requests a server sends and a client answers (none from 2026-07-28 on). */");
  w.line(`export type ServerRequestMethod = ${sentBy("request", "server->client")};`);
  w.line(`export type ClientNotificationMethod = ${sentBy("notification", "client->server")};`);
  w.line(`export type ServerNotificationMethod = ${sentBy("notification", "server->client")};`);
  w.line("/** Methods that may answer `input_required` and be retried with `inputResponses`. */");
  const inputRequired = methods.filter((m) => m.kind === "request" && m.inputRequired).map((m) => m.method);
  w.line(`export type InputRequiredMethod = ${literalUnion(inputRequired)};`);
}

/** `export interface Name { "method": Type; ... }`, with its doc. */
function typeMap(w: CodeWriter, doc: string | undefined, name: string, entries: [string, string][]): void {
  w.line();
  if (doc) w.line(`/** ${doc} */`);
  w.block(`export interface ${name} {`, () => {
    for (const [method, type] of entries) w.line(`${str(method)}: ${type};`);
  });
}

function typeMaps(w: CodeWriter, methods: readonly MethodInfo[], typeRef: TypeRef): void {
  const requests = methods.filter((m) => m.kind === "request");
  const notifications = methods.filter((m) => m.kind === "notification");
  typeMap(w, "Each request method's params type.", "RequestParamsMap", requests.map((m) => [m.method, typeRef(m.params)]));
  typeMap(w, "Each request method's result type.", "RequestResultMap", requests.map((m) => [m.method, typeRef(m.result)]));
  typeMap(w, "Each request method's request type.", "RequestMap", requests.map((m) => [m.method, typeRef(m.type)]));
  typeMap(w, "Each notification method's params type.", "NotificationParamsMap", notifications.map((m) => [m.method, typeRef(m.params)]));
  typeMap(w, "Each notification method's notification type.", "NotificationMap", notifications.map((m) => [m.method, typeRef(m.type)]));
}

function inputRequests(w: CodeWriter, requests: readonly InputRequestInfo[], typeRef: TypeRef): void {
  w.line();
  w.line("/** Requests a server embeds in an InputRequiredResult, and the client capability each needs. */");
  w.block("export const INPUT_REQUESTS = {", () => {
    for (const r of requests) {
      w.line(`${str(r.method)}: { type: ${str(r.type)}, result: ${str(r.result)}, capability: ${json(r.capability ?? null)} },`);
    }
  }, "} as const;");
  w.line();
  w.line(`export type InputRequestMethod = ${literalUnion(requests.map((r) => r.method))};`);
  typeMap(w, undefined, "InputRequestParamsMap", requests.map((r) => [r.method, typeRef(r.params)]));
  typeMap(w, undefined, "InputRequestResultMap", requests.map((r) => [r.method, typeRef(r.result)]));
}

function errorCodes(w: CodeWriter, errors: readonly ErrorCodeInfo[]): void {
  w.line();
  w.line("/** Error codes the schema declares (JSON-RPC's reserved range), and the error types that use them. */");
  w.block("export const ERROR_CODES = {", () => {
    for (const e of errors) w.line(`${propertyKey(e.name)}: ${json(e.code)},`);
  }, "} as const;");
  w.line();
  w.block("export const ERROR_TYPES = {", () => {
    for (const e of errors) w.line(`${propertyKey(e.name)}: ${json(e.types)},`);
  }, "} as const;");
}
