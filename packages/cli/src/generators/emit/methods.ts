import type { SchemaModel } from "../../schema/model.js";
import type { ErrorCodeInfo, InputRequestInfo, MethodInfo } from "../../schema/protocol.js";
import type { Generator } from "./plugin.js";
import { GeneratedFile } from "../print/generated-file.js";
import {
  ident,
  num,
  objectKey,
  prettierKey,
  quote,
  type CodeWriter,
  type Value,
} from "../print/printer.js";
import { RT } from "./runtime-symbols.js";

// methods.ts is printed laid out as prettier would (CodeWriter.exact says when it is not).
// What it prints comes only from printer.ts: method strings and type names from the schema
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
    return inline ? `T.${name(inline[1]!)}[${quote(inline[2]!)}]` : `T.${name(type)}`;
  };
}

const INTRO = `// The protocol's method table, derived from the schema: who sends what, with which
// params and which result.`;

/** methods.ts: the method table as typed data, and method -> params/result type maps. */
export const methodsGenerator: Generator = {
  name: "methods",
  description: "methods.ts: the method table, directions, params/result maps, error codes",
  requires: ["types"],
  runtime: () => ["core"],
  emit({ loaded, header, runtime }) {
    const { protocol } = loaded;
    const w = new GeneratedFile("methods.ts", runtime);
    w.import("./types.js", "* as T", true);
    // One definition of the method table's shape: the runtime's, which reads the table.
    w.use(RT.core.MethodDescriptor);
    w.reexport([RT.core.CapabilityGate, RT.core.Direction, RT.core.MethodDescriptor]);
    w.line();
    w.line("/** The schema's protocol version (LATEST_PROTOCOL_VERSION). */");
    w.value("export const PROTOCOL_VERSION = ", protocol.protocolVersion ?? null, ";");
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
    w.value("export const MESSAGE_UNIONS = ", protocol.unions as Value, " as const;");
    return [w.emit(`${header}\n${INTRO}`)];
  },
};

function methodTable(w: CodeWriter, methods: readonly MethodInfo[]): void {
  w.block(
    "export const METHODS = {",
    () => {
      for (const m of methods) {
        w.block(
          `${objectKey(m.method)}: {`,
          () => {
            w.value("kind: ", m.kind, ",");
            w.value("directions: ", m.directions, ",");
            w.value("type: ", m.type, ",");
            w.value("params: ", m.params ?? null, ",");
            w.value("paramsOptional: ", m.paramsOptional, ",");
            w.value("result: ", m.result ?? null, ",");
            w.value("inputRequired: ", m.inputRequired, ",");
            w.value("capabilities: ", m.capabilities as Value, ",");
            w.value("deprecated: ", m.deprecated !== undefined, ",");
          },
          "},",
        );
      }
    },
    `} as const satisfies Record<string, ${RT.core.MethodDescriptor.name}>;`,
  );
  w.line();
  w.line("export type Method = keyof typeof METHODS;");
}

function methodUnions(w: CodeWriter, methods: readonly MethodInfo[]): void {
  const sentBy = (kind: MethodInfo["kind"], direction: MethodInfo["directions"][number]) =>
    methods
      .filter((m) => m.kind === kind && m.directions.includes(direction))
      .map((m) => quote(m.method));
  w.line("/** Requests a client sends and a server answers. */");
  w.union("export type ClientRequestMethod =", sentBy("request", "client->server"));
  w.line("/** Requests a server sends and a client answers (none from 2026-07-28 on). */");
  w.union("export type ServerRequestMethod =", sentBy("request", "server->client"));
  w.union("export type ClientNotificationMethod =", sentBy("notification", "client->server"));
  w.union("export type ServerNotificationMethod =", sentBy("notification", "server->client"));
  w.line("/** Methods that may answer `input_required` and be retried with `inputResponses`. */");
  const inputRequired = methods
    .filter((m) => m.kind === "request" && m.inputRequired)
    .map((m) => quote(m.method));
  w.union("export type InputRequiredMethod =", inputRequired);
}

/** `export interface Name { "method": Type; ... }`, with its doc. */
function typeMap(
  w: CodeWriter,
  doc: string | undefined,
  name: string,
  entries: [string, string][],
): void {
  w.line();
  if (doc) w.doc(doc);
  w.block(`export interface ${name} {`, () => {
    for (const [method, type] of entries) w.line(`${prettierKey(method)}: ${type};`);
  });
}

function typeMaps(w: CodeWriter, methods: readonly MethodInfo[], typeRef: TypeRef): void {
  const requests = methods.filter((m) => m.kind === "request");
  const notifications = methods.filter((m) => m.kind === "notification");
  typeMap(
    w,
    "Each request method's params type.",
    "RequestParamsMap",
    requests.map((m) => [m.method, typeRef(m.params)]),
  );
  typeMap(
    w,
    "Each request method's result type.",
    "RequestResultMap",
    requests.map((m) => [m.method, typeRef(m.result)]),
  );
  typeMap(
    w,
    "Each request method's request type.",
    "RequestMap",
    requests.map((m) => [m.method, typeRef(m.type)]),
  );
  typeMap(
    w,
    "Each notification method's params type.",
    "NotificationParamsMap",
    notifications.map((m) => [m.method, typeRef(m.params)]),
  );
  typeMap(
    w,
    "Each notification method's notification type.",
    "NotificationMap",
    notifications.map((m) => [m.method, typeRef(m.type)]),
  );
}

function inputRequests(
  w: CodeWriter,
  requests: readonly InputRequestInfo[],
  typeRef: TypeRef,
): void {
  w.line();
  w.line(
    "/** Requests a server embeds in an InputRequiredResult, and the client capability each needs. */",
  );
  w.block(
    "export const INPUT_REQUESTS = {",
    () => {
      for (const r of requests) {
        w.value(
          `${objectKey(r.method)}: `,
          {
            type: r.type,
            result: r.result,
            capability: r.capability ? { path: r.capability.path, leaf: r.capability.leaf } : null,
          },
          ",",
        );
      }
    },
    "} as const;",
  );
  w.line();
  w.union(
    "export type InputRequestMethod =",
    requests.map((r) => quote(r.method)),
  );
  typeMap(
    w,
    undefined,
    "InputRequestParamsMap",
    requests.map((r) => [r.method, typeRef(r.params)]),
  );
  typeMap(
    w,
    undefined,
    "InputRequestResultMap",
    requests.map((r) => [r.method, typeRef(r.result)]),
  );
}

function errorCodes(w: CodeWriter, errors: readonly ErrorCodeInfo[]): void {
  w.line();
  w.line(
    "/** Error codes the schema declares (JSON-RPC's reserved range), and the error types that use them. */",
  );
  w.block(
    "export const ERROR_CODES = {",
    () => {
      for (const e of errors) w.line(`${objectKey(e.name)}: ${num(e.code)},`);
    },
    "} as const;",
  );
  w.line();
  w.block(
    "export const ERROR_TYPES = {",
    () => {
      for (const e of errors) w.value(`${objectKey(e.name)}: `, e.types, ",");
    },
    "} as const;",
  );
}
