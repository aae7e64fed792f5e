import type { LoadedRevision } from "../schema/index.js";
import type { Direction, MethodInfo } from "../schema/protocol.js";
import { paramsAllOptional, Resolver } from "../schema/resolve.js";
import { runtimeFacts } from "../schema/runtime-protocol.js";
import { requestMetaProperties } from "../schema/conventions.js";
import { McpGenError } from "../schema/diagnostics.js";
import type { EmittedFile, Generator } from "./plugin.js";
import {
  notificationFunctionName,
  RESERVED_CLIENT_MEMBERS,
  requestFunctionName,
  uniqueNames,
} from "./names.js";
import { legacyCalls, writeLegacyCallMembers } from "./client-legacy-calls.js";
import { CodeWriter, prettierKey, quote, str, type Value } from "./printer.js";
import { schemaType } from "./protocol.js";
import { missingInOlder } from "./eras.js";
import { SCHEMA_FREE_HEADER } from "./headers.js";
import type { RuntimeImports } from "./runtime.js";

// client.ts: the typed face of the runtime's client engine (one function per request
// method of each sending side), plus the transports' typed entry points.

const SENDERS: { name: string; side: string; direction: Direction }[] = [
  { name: "Client", side: "client", direction: "client->server" },
  { name: "ServerRequester", side: "server", direction: "server->client" },
];

/** A list method: its params take a `cursor` and its result gives a `nextCursor`. */
function isPaginated(r: Resolver, m: MethodInfo): boolean {
  // Inline params (`Type["params"]`) name no declaration: not a list method.
  if (!m.params || !m.result || m.params.includes("[")) return false;
  return (
    r.propertyOf(m.params, "cursor") !== undefined &&
    r.propertyOf(m.result, "nextCursor") !== undefined
  );
}

/** The sides that send requests in this revision: interface name, methods and function names (`mcp-gen diff` names them too). */
export function senderSides(loaded: LoadedRevision) {
  const r = new Resolver(loaded.model);
  return SENDERS.map((s) => {
    const requests = loaded.protocol.methods.filter(
      (m) => m.kind === "request" && m.directions.includes(s.direction),
    );
    const notifications = loaded.protocol.methods.filter(
      (m) => m.kind === "notification" && m.directions.includes(s.direction),
    );
    return {
      ...s,
      requests,
      notifications,
      functions: uniqueNames(
        requests.map((m) => m.method),
        requestFunctionName,
      ),
      notificationFunctions: uniqueNames(
        notifications.map((m) => m.method),
        notificationFunctionName,
      ),
      paginated: requests.filter((m) => isPaginated(r, m)).map((m) => m.method),
      optional: new Set(
        requests
          .filter((m) => m.paramsOptional || paramsAllOptional(r, m.params))
          .map((m) => m.method),
      ),
    };
  }).filter((s) => s.requests.length > 0);
}

/** Request `_meta` roles the client fills on every request (clientInfo: from its options). */
const ALWAYS_FILLED = ["protocolVersion", "clientCapabilities", "clientInfo"] as const;

/**
 * The client must fill every required key of a request's `_meta`, or no request it sends is
 * valid: a required key no role accounts for (a draft renamed `.../protocolVersion`, or added
 * a key) cannot be generated for. Returns whether clientInfo is required (then so is the option).
 */
function checkRequestMeta(loaded: LoadedRevision): { clientInfoRequired: boolean } {
  const roles = loaded.protocol.conventions.requestMeta;
  const filled = new Set(ALWAYS_FILLED.map((role) => roles[role]).filter((k) => k !== undefined));
  const required = requestMetaProperties(new Resolver(loaded.model)).filter((p) => !p.optional);
  const unfilled = required.find((p) => !filled.has(p.name));
  if (unfilled) {
    const known = ALWAYS_FILLED.map((role) => `.../${role}`).join(", ");
    throw new McpGenError(
      "protocol",
      `requests must carry _meta key ${JSON.stringify(unfilled.name)}, which the generated client cannot fill (it fills ${known} on every request); make it optional, or leave the client out (--generators)`,
      unfilled.loc,
    );
  }
  return { clientInfoRequired: required.some((p) => p.name === roles.clientInfo) };
}

function clientFile(
  loaded: LoadedRevision,
  header: string,
  older: readonly LoadedRevision[],
  runtime: RuntimeImports,
): EmittedFile {
  const facts = runtimeFacts(loaded);
  // Results of older revisions lack the required fields a newer one added without a default.
  const missing = facts.features.perRequestVersion
    ? missingInOlder(loaded, older, "result")
    : new Map<string, string[]>();
  const resultOf = (m: MethodInfo, direction: Direction) => {
    const fields = direction === "client->server" ? missing.get(m.method) : undefined;
    return fields
      ? `OlderEraResult<T.${m.result}, ${fields.map(quote).join(" | ")}>`
      : `T.${m.result}`;
  };
  const { clientInfoRequired } = checkRequestMeta(loaded);
  const { envelopes } = loaded.protocol;
  const notification = envelopes.notification
    ? `T.${envelopes.notification}`
    : "Record<string, unknown>";
  const mrtr = facts.features.mrtr;
  // Stateless revisions speak every era the output was generated for (eras.ts).
  const eras = facts.features.perRequestVersion;
  const w = new CodeWriter();
  if (eras) w.import("./eras.js", "ERAS");
  w.import("./types.js", "* as T", true);
  w.import("./methods.js", "InputRequestMethod", true);
  w.import("./methods.js", "InputRequestParamsMap", true);
  w.import("./methods.js", "InputRequestResultMap", true);
  w.import("./methods.js", "NotificationParamsMap", true);
  w.import("./protocol.js", "MESSAGE_VALIDATORS");
  w.import("./protocol.js", "PROTOCOL");
  const client = runtime.from("client");
  const transport = runtime.from("transport");
  w.import(client, "createSender");
  w.import(client, "DECLINE");
  w.import(transport, "CallOptions as RuntimeCallOptions", true);
  w.import(transport, "SenderOptions as RuntimeSenderOptions", true);
  w.line(
    "// The sending side of MCP: one typed function per request method over the runtime's client",
  );
  w.line(
    "// engine, which does the multi round-trip (input_required) dance where the revision has it.",
  );
  w.line();
  w.line(`export { McpError } from ${str(runtime.from("core"))};`);
  const errors = [
    "DECLINE",
    "EraUnsupportedError",
    "InputDeclinedError",
    "McpProtocolError",
    "PageLimitError",
    "RequestTimeoutError",
    "RoundLimitError",
    "SessionExpiredError",
  ];
  w.list("export {", errors, `} from ${str(client)};`, true);
  w.line(`export { createDirectTransport } from ${str(transport)};`);
  w.line(`export type { Transport, TransportRequestOptions } from ${str(transport)};`);
  w.line();
  w.line("/**");
  w.line(" * Answers one kind of input request (elicitation, sampling, roots) for the server.");
  w.line(" * `signal`: the call's on modern servers; on legacy sessions the server request's,");
  w.line(" * aborted when the server cancels it (no response is sent then) or the session ends.");
  w.line(" */");
  w.line("export type InputHandler<M extends InputRequestMethod> = (");
  w.line("  params: InputRequestParamsMap[M],");
  w.line("  context: { key: string; method: M; signal: AbortSignal | undefined },");
  w.line(
    ") => InputRequestResultMap[M] | typeof DECLINE | Promise<InputRequestResultMap[M] | typeof DECLINE>;",
  );
  w.line();
  w.line("export type InputHandlers = { [M in InputRequestMethod]?: InputHandler<M> };");
  w.line();
  w.doc("Params as a caller writes them: the client adds the protocol's `_meta` fields.");
  w.line("export type CallParams<P> = P extends object");
  // Laid out as prettier lays out each of the two (the longer mapped type breaks first).
  if (mrtr) {
    w.line("  ? {");
    w.line(
      '      [K in keyof P as K extends "_meta" | "inputResponses" | "requestState" ? never : K]: P[K];',
    );
    w.line("    } & { _meta?: { [key: string]: unknown } }");
  } else {
    w.line('  ? { [K in keyof P as K extends "_meta" ? never : K]: P[K] } & {');
    w.line("      _meta?: { [key: string]: unknown };");
    w.line("    }");
  }
  w.line("  : P;");
  w.line();
  if (mrtr) {
    w.doc(
      "Params of a `manual: true` call: the caller may answer an input_required result itself.",
    );
    w.line("export type ManualCallParams<P> = P extends object");
    w.line('  ? { [K in keyof P as K extends "_meta" ? never : K]: P[K] } & {');
    w.line("      _meta?: { [key: string]: unknown };");
    w.line("    }");
    w.line("  : P;");
    w.line();
  }
  const paramsOf = (method: string | null) =>
    method !== null && loaded.protocol.methods.some((m) => m.method === method && m.params)
      ? `NotificationParamsMap[${quote(method)}]`
      : "never";
  w.line("export interface CallOptions extends Omit<");
  w.line("  RuntimeCallOptions,");
  w.line('  "onProgress" | "onLog" | "logLevel" | "onNotification"');
  w.block("> {", () => {
    w.doc("Progress of this call (a progress token is sent when given).");
    w.line(`onProgress?: (params: ${paramsOf(facts.wellKnown.progress)}) => void;`);
    w.doc("Log messages about this call.");
    w.line(`onLog?: (params: ${paramsOf(facts.wellKnown.log)}) => void;`);
    w.doc("Ask for log messages of this level and above.");
    w.line(`logLevel?: ${schemaType(loaded, "LoggingLevel", "string")};`);
    w.doc("Any other notification about this call.");
    w.line(`onNotification?: (notification: ${notification}) => void;`);
  });
  w.line();
  w.doc(
    "`manual: true` hands an input_required answer to the caller instead of fulfilling it; the caller retries with `inputResponses` and `requestState`.",
  );
  w.block("export interface ManualCallOptions extends CallOptions {", () =>
    w.line("manual: true;"),
  );
  w.line();
  w.line("export interface SenderOptions extends Omit<");
  w.line("  RuntimeSenderOptions,");
  w.line('  "clientInfo" | "capabilities" | "inputHandlers" | "onNotification"');
  w.block("> {", () => {
    w.doc(
      "Legacy sessions: the server's notifications that no call receives (list_changed, resources/updated, ...).",
    );
    w.line(`onNotification?: (notification: ${notification}) => void;`);
    if (clientInfoRequired)
      w.doc("Required: this revision's requests must carry the client's info in `_meta`.");
    w.line(
      `clientInfo${clientInfoRequired ? "" : "?"}: ${schemaType(loaded, "Implementation", "object")};`,
    );
    // Capabilities the schema requires cannot be implied by input handlers: the caller declares them.
    const capabilities = new Resolver(loaded.model).objectOf("ClientCapabilities");
    const capabilitiesRequired =
      capabilities !== undefined && [...capabilities.properties.values()].some((p) => !p.optional);
    w.doc(
      `Declared capabilities, merged with those the registered input handlers imply${capabilitiesRequired ? " (required: ClientCapabilities has required fields)" : ""}.`,
    );
    w.line(
      `capabilities${capabilitiesRequired ? "" : "?"}: ${schemaType(loaded, "ClientCapabilities", "object")};`,
    );
    w.doc("Fulfil the server's input requests (multi round-trip).");
    w.line("inputHandlers?: InputHandlers;");
  });
  if (missing.size > 0) {
    w.line();
    w.doc(
      "A result as every revision this client speaks answers it: fields `K`, which an older revision lacks and have no default, may be missing.",
    );
    w.line("export type OlderEraResult<R, K extends keyof R> = Omit<R, K> & Partial<Pick<R, K>>;");
  }
  for (const s of senderSides(loaded)) {
    const params = (m: MethodInfo) => (m.params ? `T.${m.params}` : "undefined");
    const result = (m: MethodInfo) => resultOf(m, s.direction);
    const taken = new Set([
      ...s.functions.values(),
      ...s.notificationFunctions.values(),
      ...RESERVED_CLIENT_MEMBERS,
    ]);
    const legacy =
      eras && s.direction === "client->server" ? legacyCalls(loaded, older, taken) : [];
    w.line();
    w.doc(`What a ${s.side} sends (${s.direction}): one typed function per request method.`);
    w.block(`export interface ${s.name} {`, () => {
      for (const m of s.requests) {
        const fn = s.functions.get(m.method)!;
        const opt = s.optional.has(m.method) ? "?" : "";
        w.doc(`\`${m.method}\`${m.deprecated !== undefined ? " (deprecated)" : ""}`);
        const callParams = `params${opt}: CallParams<${params(m)}>`;
        w.list(`${fn}(`, [callParams, "options?: CallOptions"], `): Promise<${result(m)}>;`);
        if (m.inputRequired && mrtr) {
          const manualParams = `params${opt}: ManualCallParams<${params(m)}>`;
          w.list(
            `${fn}(`,
            [manualParams, "options: ManualCallOptions"],
            `): Promise<${result(m)} | T.InputRequiredResult>;`,
          );
        }
        if (s.paginated.includes(m.method)) {
          w.doc(`Every page of \`${m.method}\`, following nextCursor.`);
          w.list(
            `${fn}Pages(`,
            [`params?: CallParams<${params(m)}>`, "options?: CallOptions"],
            `): AsyncGenerator<${result(m)}, void, undefined>;`,
          );
        }
      }
      for (const m of s.notifications) {
        w.doc(`Sends \`${m.method}\`.`);
        w.list(
          `${s.notificationFunctions.get(m.method)!}(`,
          [`params${m.paramsOptional || !m.params ? "?" : ""}: ${params(m)}`],
          "): Promise<void>;",
        );
      }
      writeLegacyCallMembers(w, legacy, loaded.revision.name);
      w.doc("Any request of this side by method name.");
      const map = `${s.name}RequestMap`;
      w.list(
        `request<M extends keyof ${map}>(`,
        ["method: M", `params: CallParams<${map}[M][0]>`, "options?: CallOptions"],
        `): Promise<${map}[M][1]>;`,
      );
      if (eras && s.direction === "client->server") {
        w.doc(
          'The era of the server: "modern" (per-request `_meta`) or "legacy" (initialize-based), probed once per transport.',
        );
        w.line('era(): Promise<"modern" | "legacy">;');
      }
      w.line("close(): Promise<void>;");
    });
    w.line();
    w.doc(`Params and result of each request a ${s.side} sends.`);
    w.block(`export interface ${s.name}RequestMap {`, () => {
      for (const m of s.requests) {
        w.list(
          `${prettierKey(m.method)}: [`,
          [m.paramsOptional && m.params ? `${params(m)} | undefined` : params(m), result(m)],
          "];",
        );
      }
    });
    w.line();
    const shape: Record<string, Value> = {
      functions: Object.fromEntries(s.functions),
      notifications: Object.fromEntries(s.notificationFunctions),
      paginated: s.paginated,
    };
    if (legacy.length > 0) {
      const named = (kind: string) =>
        Object.fromEntries(
          legacy.filter((c) => c.method.kind === kind).map((c) => [c.method.method, c.fn]),
        );
      shape["legacy"] = { functions: named("request"), notifications: named("notification") };
    }
    w.doc(`A typed client for what a ${s.side} sends.`);
    w.block(`export function create${s.name}(options: SenderOptions): ${s.name} {`, () => {
      w.value("const shape = ", shape as Value, ";");
      const args = [
        "PROTOCOL",
        "MESSAGE_VALIDATORS",
        "shape",
        "options as RuntimeSenderOptions",
        ...(eras && s.direction === "client->server" ? ["ERAS"] : []),
      ];
      w.list("return createSender(", args, `) as unknown as ${s.name};`);
    });
  }
  return { path: "client.ts", kind: "generated", code: w.toString(header), preformatted: w.exact };
}

/** The same for every schema (the revision reaches it through protocol.ts): SCHEMA_FREE_HEADER. */
function httpClientFile(runtime: RuntimeImports): EmittedFile {
  const w = new CodeWriter();
  const transport = runtime.from("transport");
  w.import("./protocol.js", "PROTOCOL");
  // Aliased: http-client.ts exports its own createHttpTransport and routingHeaders.
  w.import(transport, "createHttpTransport as runtimeCreateHttpTransport");
  w.import(transport, "routingHeaders as runtimeRoutingHeaders");
  w.import(transport, "HttpTransportOptions", true);
  w.import(transport, "Transport", true);
  w.line("// The client side of Streamable HTTP for this revision, over fetch (any runtime).");
  w.line();
  // Wrapped as prettier wraps it (over 100 columns).
  w.line("export {");
  for (const name of ["HttpTransportError", "TransportError", "type HttpTransportOptions"])
    w.line(`  ${name},`);
  w.line(`} from ${str(transport)};`);
  w.line(`export { AuthorizationError, type HttpAuth } from ${str(runtime.from("auth"))};`);
  w.line();
  w.block("export function createHttpTransport(options: HttpTransportOptions): Transport {", () =>
    w.line("return runtimeCreateHttpTransport(PROTOCOL, options);"),
  );
  w.line();
  w.doc(
    "The headers that repeat a message's routing facts (Mcp-Method, MCP-Protocol-Version, Mcp-Name).",
  );
  // One object-typed parameter: prettier hugs it.
  w.line("export function routingHeaders(message: {");
  w.line("  method: string;");
  w.line("  params?: unknown;");
  w.block("}): Record<string, string> {", () =>
    w.line("return runtimeRoutingHeaders(PROTOCOL, message);"),
  );
  return {
    path: "http-client.ts",
    kind: "generated",
    code: w.toString(SCHEMA_FREE_HEADER),
    preformatted: w.exact,
  };
}

/** client.ts, stdio.ts and (stateless revisions) http-client.ts. */
export const clientGenerator: Generator = {
  name: "client",
  description:
    "client.ts: typed request functions with multi round-trip retries; stdio.ts; http-client.ts",
  requires: ["types", "methods", "validators", "protocol", "eras"],
  eras: true,
  runtime({ loaded, auth }) {
    const { perRequestVersion } = runtimeFacts(loaded).features;
    return [
      "core",
      "client",
      "transport",
      "node/stdio",
      // Stateless Streamable HTTP: http-client.ts, and auth.ts when asked.
      ...(perRequestVersion ? (["auth"] as const) : []),
      ...(perRequestVersion && auth ? (["auth/client"] as const) : []),
    ];
  },
  emit(ctx) {
    const { loaded, header } = ctx;
    const facts = runtimeFacts(loaded);
    const files: EmittedFile[] = [
      clientFile(loaded, header, ctx.legacy, ctx.runtime),
      {
        path: "stdio.ts",
        kind: "generated",
        code: `${SCHEMA_FREE_HEADER}\n\nexport * from ${str(ctx.runtime.from("node/stdio"))};\n`,
        nodeOnly: true,
        preformatted: true,
      },
    ];
    // Stateless Streamable HTTP: requests carry their protocol version in _meta.
    if (facts.features.perRequestVersion) {
      files.push(httpClientFile(ctx.runtime));
      // The OAuth client, on request: it alone depends on a package (oauth4webapi, a peer dependency).
      if (ctx.auth) {
        const code = `${SCHEMA_FREE_HEADER}

// The OAuth 2.1 client for createHttpTransport({ auth }); needs the oauth4webapi package (and
// jose, for DPoP proofs).
export * from ${str(ctx.runtime.from("auth/client"))};
`;
        files.push({
          path: "auth.ts",
          kind: "generated",
          code,
          peerDependency: "oauth4webapi",
          preformatted: true,
        });
      }
    }
    return files;
  },
};
