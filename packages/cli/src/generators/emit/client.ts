import type { LoadedRevision } from "../../schema/index.js";
import type { Direction, MethodInfo } from "../../schema/protocol.js";
import { Resolver } from "../../schema/resolve.js";
import { runtimeFacts } from "../../schema/runtime-protocol.js";
import { requestMetaProperties } from "../../schema/conventions.js";
import { McpGenError } from "../../schema/diagnostics.js";
import type { EmittedFile, Generator } from "./plugin.js";
import { writeClientOptionTypes } from "./client-options.js";
import { senderSides, writeSenderSide, type SenderContext } from "./client-senders.js";
import { GeneratedFile } from "../print/generated-file.js";
import { quote } from "../print/printer.js";
import { missingInOlder } from "./eras.js";
import { SCHEMA_FREE_HEADER } from "./headers.js";
import type { RuntimeImports } from "./runtime.js";
import { RT } from "./runtime-symbols.js";

// client.ts: the typed face of the runtime's client engine (one function per request
// method of each sending side), plus the transports' typed entry points. The option types it
// declares are written by client-options.ts, each sending side by client-senders.ts.

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
  const w = new GeneratedFile("client.ts", runtime);
  writeClientHead(w, eras);
  const { wellKnown } = facts;
  writeClientOptionTypes(w, loaded, { notification, clientInfoRequired, mrtr, wellKnown });
  if (missing.size > 0) {
    w.line();
    w.doc(
      "A result as every revision this client speaks answers it: fields `K`, which an older revision lacks and have no default, may be missing.",
    );
    w.line("export type OlderEraResult<R, K extends keyof R> = Omit<R, K> & Partial<Pick<R, K>>;");
  }
  const ctx: SenderContext = { loaded, older, mrtr, eras, resultOf };
  for (const s of senderSides(loaded)) writeSenderSide(w, ctx, s);
  return w.emit(header);
}

/** The imports, the file's comment and what client.ts re-exports from the runtime. */
function writeClientHead(w: GeneratedFile, eras: boolean): void {
  const { client, transport } = RT;
  if (eras) w.import("./eras.js", "ERAS");
  w.import("./types.js", "* as T", true);
  w.import("./methods.js", "InputRequestMethod", true);
  w.import("./methods.js", "InputRequestParamsMap", true);
  w.import("./methods.js", "InputRequestResultMap", true);
  w.import("./methods.js", "NotificationParamsMap", true);
  w.import("./protocol.js", "MESSAGE_VALIDATORS");
  w.import("./protocol.js", "PROTOCOL");
  w.use(client.createSender);
  w.use(client.DECLINE);
  w.use(transport.CallOptions, "RuntimeCallOptions");
  w.use(transport.SenderOptions, "RuntimeSenderOptions");
  // Tasks: the clients of stateless revisions call tools as tasks (client-senders.ts).
  if (eras) {
    w.use(client.TaskHandle);
    w.use(client.TaskOptions);
  }
  w.line(
    "// The sending side of MCP: one typed function per request method over the runtime's client",
  );
  w.line(
    "// engine, which does the multi round-trip (input_required) dance where the revision has it.",
  );
  w.line();
  w.reexport([RT.core.McpError]);
  w.reexport([
    client.DECLINE,
    client.EraUnsupportedError,
    client.InputDeclinedError,
    client.McpProtocolError,
    client.PageLimitError,
    client.RequestTimeoutError,
    client.RoundLimitError,
    client.SessionExpiredError,
    ...(eras ? [client.TaskCancelledError, client.TaskTimeoutError] : []),
  ]);
  if (eras)
    w.reexport([
      client.TaskHandle,
      client.TaskOptions,
      client.TaskSettingsOptions,
      client.TaskStatusUpdate,
    ]);
  w.reexport([transport.createDirectTransport]);
  w.reexport([transport.Transport, transport.TransportRequestOptions]);
  w.line();
}

/** The same for every schema (the revision reaches it through protocol.ts): SCHEMA_FREE_HEADER. */
function httpClientFile(runtime: RuntimeImports): EmittedFile {
  const w = new GeneratedFile("http-client.ts", runtime);
  const { transport } = RT;
  w.import("./protocol.js", "PROTOCOL");
  // Aliased: http-client.ts exports its own createHttpTransport and routingHeaders.
  const create = w.use(transport.createHttpTransport, "runtimeCreateHttpTransport");
  const headers = w.use(transport.routingHeaders, "runtimeRoutingHeaders");
  const options = w.use(transport.HttpTransportOptions);
  const transportType = w.use(transport.Transport);
  w.line("// The client side of Streamable HTTP for this revision, over fetch (any runtime).");
  w.line();
  w.reexport([
    transport.HttpTransportError,
    transport.TransportError,
    transport.HttpTransportOptions,
  ]);
  w.reexport([RT.auth.AuthorizationError, RT.auth.HttpAuth]);
  w.line();
  w.block(`export function createHttpTransport(options: ${options}): ${transportType} {`, () =>
    w.line(`return ${create}(PROTOCOL, options);`),
  );
  w.line();
  w.doc(
    "The headers that repeat a message's routing facts (Mcp-Method, MCP-Protocol-Version, Mcp-Name).",
  );
  // One object-typed parameter: prettier hugs it.
  w.line("export function routingHeaders(message: {");
  w.line("  method: string;");
  w.line("  params?: unknown;");
  w.block("}): Record<string, string> {", () => w.line(`return ${headers}(PROTOCOL, message);`));
  return w.emit(SCHEMA_FREE_HEADER);
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
      new GeneratedFile("stdio.ts", ctx.runtime)
        .reexportAll("node/stdio")
        .emit(SCHEMA_FREE_HEADER, { nodeOnly: true }),
    ];
    // Stateless Streamable HTTP: requests carry their protocol version in _meta.
    if (facts.features.perRequestVersion) {
      files.push(httpClientFile(ctx.runtime));
      // The OAuth client, on request: it alone depends on a package (oauth4webapi, a peer dependency).
      if (ctx.auth) {
        const w = new GeneratedFile("auth.ts", ctx.runtime);
        w.line(
          "// The OAuth 2.1 client for createHttpTransport({ auth }); needs the oauth4webapi package (and",
        );
        w.line("// jose, for DPoP proofs).");
        w.reexportAll("auth/client");
        files.push(w.emit(SCHEMA_FREE_HEADER, { peerDependency: "oauth4webapi" }));
      }
    }
    return files;
  },
};
