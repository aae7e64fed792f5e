import type { LoadedRevision } from "../schema/index.js";
import type { Direction, MethodInfo } from "../schema/protocol.js";
import { discoverFields, runtimeFacts } from "../schema/runtime-protocol.js";
import { McpGenError } from "../schema/diagnostics.js";
import { Resolver } from "../schema/resolve.js";
import type { EmittedFile, Generator } from "./plugin.js";
import { CodeWriter, lineCommentText, objectKey, prettierKey, quote, str } from "./printer.js";
import { schemaType } from "./protocol.js";
import { SCHEMA_FREE_HEADER } from "./headers.js";
import type { RuntimeImports } from "./runtime.js";
import { missingInOlder } from "./eras.js";
import { toolsListResult, writeDefineTools } from "./dispatcher-tools.js";

// dispatcher.ts: the typed face of the runtime's router for one revision (handler
// interfaces per receiving side, the request context bound to the revision's types), and
// handlers.ts, a skeleton written once.

const SIDES: { name: string; side: string; direction: Direction }[] = [
  { name: "Server", side: "server", direction: "client->server" },
  { name: "Client", side: "client", direction: "server->client" },
];

/** The sides that receive requests in this revision, with their methods and handlers interface (`mcp-gen diff` names it too). */
export function receivingSides(loaded: LoadedRevision) {
  const { methods } = loaded.protocol;
  return SIDES.map((s) => ({
    ...s,
    handlers: `${s.name}Handlers`,
    requests: methods.filter((m) => m.kind === "request" && m.directions.includes(s.direction)),
    notifications: methods.filter(
      (m) => m.kind === "notification" && m.directions.includes(s.direction),
    ),
  })).filter((s) => s.requests.length > 0);
}

/**
 * A params type as handlers see it (`undefined` where the message has none); `missing`: the
 * required fields an older revision the server speaks lacks (optional for the handler).
 */
export function paramsType(m: MethodInfo, missing: readonly string[] = []): string {
  const named = m.params ? `T.${m.params}` : "undefined";
  const type =
    m.params && missing.length > 0
      ? `OlderEraParams<${named}, ${missing.map(quote).join(" | ")}>`
      : named;
  return m.paramsOptional && m.params ? `${type} | undefined` : type;
}

function requireEnvelopes(loaded: LoadedRevision): {
  result: string;
  error: string;
  notification: string;
} {
  const { envelopes } = loaded.protocol;
  if (!envelopes.notification || !envelopes.resultResponse || !envelopes.errorResponse) {
    throw new McpGenError(
      "protocol",
      "the dispatcher needs JSONRPCMessage with notification, result response and error response members; use --generators to leave it out",
      { file: loaded.model.file, line: 1, column: 1 },
    );
  }
  return {
    result: envelopes.resultResponse,
    error: envelopes.errorResponse,
    notification: envelopes.notification,
  };
}

function dispatcherFile(
  loaded: LoadedRevision,
  header: string,
  older: readonly LoadedRevision[],
  runtime: RuntimeImports,
): EmittedFile {
  const env = requireEnvelopes(loaded);
  const facts = runtimeFacts(loaded);
  // Requests of older revisions lack the required params fields a newer one added.
  const missing = facts.features.perRequestVersion
    ? missingInOlder(loaded, older, "params")
    : new Map<string, string[]>();
  const mrtr = facts.features.mrtr;
  const w = new CodeWriter();
  w.import("./types.js", "* as T", true);
  w.import("./protocol.js", "MESSAGE_VALIDATORS");
  w.import("./protocol.js", "PROTOCOL");
  const server = runtime.from("server");
  w.import(server, "createRouter");
  w.import(server, "DispatcherOptions as RouterOptions", true);
  w.import(server, "Handlers", true);
  w.import(server, "HandleContext", true);
  w.import(server, "NotificationContext", true);
  w.import(server, "Promisable", true);
  w.import(server, "RequestContext as RuntimeRequestContext", true);
  // Aliased: dispatcher.ts exports its own typed inputRequired and requireClientCapability.
  w.import(server, "requireClientCapability as runtimeRequireClientCapability");
  if (mrtr) w.import(server, "inputRequired as runtimeInputRequired");
  // Stateless revisions serve every era through the era router (initialize opens a legacy
  // session, or is answered with the versions spoken when there are no legacy revisions).
  const eras = facts.features.perRequestVersion;
  if (eras) {
    w.import("./eras.js", "ERAS");
    w.import(server, "createEraDispatcher");
  }
  if (mrtr) {
    w.import("./methods.js", "InputRequestResultMap", true);
    w.import(server, "ExtensionResult", true);
  }
  w.line(
    "// The receiving side of MCP: typed handler interfaces over the runtime's JSON-RPC router,",
  );
  w.line(
    "// which enforces the protocol (envelopes, methods, params, results, versions, capabilities).",
  );
  w.line();
  w.line(`export { McpError } from ${str(runtime.from("core"))};`);
  w.line(`export { notImplemented } from ${str(server)};`);
  w.line("export {");
  w.line("  openRequestState,");
  w.line("  openStateFor,");
  w.line("  sealRequestState,");
  w.line("  sealStateFor,");
  w.line("  type RequestStateOptions,");
  w.line("  type StateSecret,");
  w.line(`} from ${str(server)};`);
  w.line("export type { NotificationContext, Promisable };");
  if (mrtr) {
    // Extensions answer with their own resultType values (a task handle); see runtime/tasks.ts.
    w.list(
      "export {",
      [
        "createTaskStore",
        "TASKS_EXTENSION",
        "type CreateTaskResult",
        "type DetailedTask",
        "type RunOptions",
        "type Task",
        "type TaskControl",
        "type TaskStore",
        "type TaskStoreOptions",
      ],
      `} from ${str(runtime.from("tasks"))};`,
      true,
    );
    w.line(`export type { ExtensionResult, RouterExtension } from ${str(server)};`);
  }
  w.line();
  w.doc("The reply to send: a result or an error response.");
  w.line(`export type ResponseMessage = T.${env.result} | T.${env.error};`);
  w.line();
  if (facts.resultType) {
    w.doc(
      'A result as a handler returns it: `resultType` may be left out (the dispatcher sets "complete").',
    );
    w.line(
      'export type HandlerResult<R> = { [K in keyof R as K extends "resultType" ? never : K]: R[K] } & {',
    );
    w.line('  resultType?: "complete";');
    w.line("};");
  } else {
    w.doc("A result as a handler returns it.");
    w.line("export type HandlerResult<R> = R;");
  }
  w.line();
  w.doc("What a request handler gets beside its params, bound to this revision's types.");
  w.block(
    "export type RequestContext = RuntimeRequestContext<{",
    () => {
      w.line(`capabilities: ${schemaType(loaded, "ClientCapabilities", "object")};`);
      w.line(`implementation: ${schemaType(loaded, "Implementation", "object")};`);
      w.line(`logLevel: ${schemaType(loaded, "LoggingLevel", "string")};`);
      w.line(`progressToken: ${schemaType(loaded, "ProgressToken", "string | number")};`);
      w.line(`requestId: ${schemaType(loaded, "RequestId", "string | number")};`);
      w.line(`notification: T.${env.notification};`);
      w.line(`inputResponses: ${mrtr ? schemaType(loaded, "InputResponses", "{}") : "{}"};`);
      w.line(`inputResults: ${mrtr ? "InputRequestResultMap" : "{}"};`);
    },
    "}>;",
  );
  w.line();
  w.line(
    `export type DispatcherOptions = RouterOptions<${schemaType(loaded, "ServerCapabilities", "object")}, ${schemaType(loaded, "Implementation", "object")}>;`,
  );
  w.line();
  const serverOptions = serverOptionsOf(loaded);
  if (serverOptions.members.length > 0) {
    w.doc(
      "A server dispatcher's options, with what the dispatcher cannot fill in server/discover by itself.",
    );
    w.block("export interface ServerDispatcherOptions extends DispatcherOptions {", () => {
      for (const m of serverOptions.members) {
        w.doc(m.doc);
        // A line wider than prettier's makes the file go through prettier (CodeWriter.exact).
        w.line(`${m.name}${m.required ? "" : "?"}: ${m.type};`);
      }
    });
    w.line();
  }
  w.block("export interface Dispatcher {", () => {
    const reply = `ResponseMessage${facts.batch ? " | ResponseMessage[]" : ""} | undefined`;
    w.doc(
      "Handles one decoded message; resolves to the response to send, or nothing for a notification.",
    );
    w.list(
      "handle(",
      ["message: unknown", `context?: HandleContext<T.${env.notification}>`],
      `): Promise<${reply}>;`,
    );
    w.doc("The same from raw text: unparsable text gets a parse error.");
    w.list(
      "handleText(",
      ["text: string", `context?: HandleContext<T.${env.notification}>`],
      `): Promise<${reply}>;`,
    );
    w.doc("Dual-era servers: the legacy session open on a transport channel, and ending it.");
    w.line("session?(channel: object): { readonly version: string } | undefined;");
    w.line("endSession?(channel: object): void;");
    w.doc(
      "Dual-era servers: makes `send` a legacy session's stream for messages not tied to a request.",
    );
    w.line("attachStream?(channel: object, send: (message: object) => unknown): () => void;");
    w.doc(
      "Dual-era servers: a notification to every legacy session with an open stream; how many got it.",
    );
    w.line(`notifySessions?(notification: T.${env.notification}): number;`);
    w.doc(
      "Dual-era servers: notifications/resources/updated to the legacy sessions subscribed to `uri`.",
    );
    w.line("resourceUpdated?(uri: string): number;");
  });
  if (missing.size > 0) {
    w.line();
    w.doc(
      "Params as every revision this server speaks sends them: fields `K`, which an older revision lacks, may be missing.",
    );
    w.line("export type OlderEraParams<P, K extends keyof P> = Omit<P, K> & Partial<Pick<P, K>>;");
  }
  for (const side of receivingSides(loaded)) {
    // Only the server's requests come from clients of several revisions.
    const params = (m: MethodInfo) =>
      paramsType(m, side.direction === "client->server" ? (missing.get(m.method) ?? []) : []);
    w.line();
    w.doc(
      `Handlers for what the ${side.side} receives: one entry per request method, optional ones per notification.`,
    );
    w.block(`export interface ${side.handlers} {`, () => {
      for (const m of side.requests) {
        const notes = `${m.inputRequired && mrtr ? ": may answer input_required (see inputRequired())" : ""}${m.deprecated !== undefined ? " (deprecated)" : ""}`;
        w.doc(`\`${m.method}\`${notes}`);
        const result = `HandlerResult<T.${m.result}>${m.inputRequired && mrtr ? " | T.InputRequiredResult" : ""}${mrtr ? " | ExtensionResult" : ""}`;
        w.list(
          `${prettierKey(m.method)}?: (`,
          [`params: ${params(m)}`, "ctx: RequestContext"],
          `) => Promisable<${result}>;`,
        );
      }
      for (const m of side.notifications) {
        w.list(
          `${prettierKey(m.method)}?: (`,
          [`params: ${params(m)}`, "ctx: NotificationContext"],
          ") => Promisable<void>;",
        );
      }
    });
    w.line();
    w.doc(`Routes what a ${side.side} receives (${side.direction}) to \`handlers\`.`);
    const create = `export function create${side.name}Dispatcher(`;
    const server = serverOptions.members.length > 0 && side.direction === "client->server";
    if (server && serverOptions.required) {
      // Required unless the server answers server/discover itself.
      const discover = quote(facts.wellKnown.discover!);
      const own = `${side.handlers} & { ${discover}: NonNullable<${side.handlers}[${discover}]> }`;
      w.list(create, [`handlers: ${own}`, "options?: DispatcherOptions"], "): Dispatcher;");
      w.list(
        create,
        [`handlers: ${side.handlers}`, "options: ServerDispatcherOptions"],
        "): Dispatcher;",
      );
    }
    const options =
      server && !serverOptions.required
        ? "options: ServerDispatcherOptions = {}"
        : "options: DispatcherOptions = {}";
    w.list(create, [`handlers: ${side.handlers}`, options], "): Dispatcher {");
    w.indented(() => {
      // Through unknown: a schema method named like a member of every object (`toString`)
      // makes the typed handlers and the runtime's table of them incomparable.
      const args = ["handlers as unknown as Handlers", "options as RouterOptions"];
      if (eras && side.direction === "client->server")
        w.list("return createEraDispatcher(", ["ERAS", ...args], ") as unknown as Dispatcher;");
      else
        w.list(
          "return createRouter(",
          ["PROTOCOL", "MESSAGE_VALIDATORS", str(side.direction), ...args],
          ") as unknown as Dispatcher;",
        );
    });
    w.line("}");
  }
  w.line();
  w.doc(
    'A client capability as a path into ClientCapabilities: "elicitation" or ["sampling", "tools"].',
  );
  w.line(
    `export type CapabilityPath = keyof ${schemaType(loaded, "ClientCapabilities", "Record<string, unknown>")} | readonly string[];`,
  );
  w.line();
  w.doc("Throws the error for a capability this request did not declare.");
  w.block(
    "export function requireClientCapability(ctx: RequestContext, capability: CapabilityPath): void {",
    () => {
      w.line(
        "runtimeRequireClientCapability(PROTOCOL, ctx, capability as string | readonly string[]);",
      );
    },
  );
  if (mrtr) {
    w.line();
    w.doc(
      "Builds the interim answer of a multi round-trip request; refuses input the request's client capabilities do not declare.",
    );
    w.block(
      "export function inputRequired(",
      () => {
        w.line("ctx: RequestContext,");
        w.line(
          `input: { inputRequests?: ${schemaType(loaded, "InputRequests", "{}")}; requestState?: string },`,
        );
      },
      "): T.InputRequiredResult {",
    );
    w.line("  return runtimeInputRequired(PROTOCOL, ctx, input) as T.InputRequiredResult;");
    w.line("}");
  }
  const listResult = toolsListResult(loaded);
  if (listResult) writeDefineTools(w, listResult, server);
  const code = w.toString(header);
  return { path: "dispatcher.ts", kind: "generated", code, preformatted: w.exact };
}

/** handlers.ts: a skeleton of every handler, written once (the user's from then on). */
function handlersFile(loaded: LoadedRevision): EmittedFile {
  const facts = runtimeFacts(loaded);
  const builtIn = [facts.wellKnown.ping, facts.wellKnown.discover].filter(
    (m): m is string => m !== null,
  );
  const sides = receivingSides(loaded);
  const w = new CodeWriter();
  w.import("./dispatcher.js", "notImplemented");
  for (const s of sides) {
    w.import("./dispatcher.js", `create${s.name}Dispatcher`);
    w.import("./dispatcher.js", s.handlers, true);
  }
  w.line(
    `// Your handlers. mcp-gen wrote this skeleton once, for MCP schema ${lineCommentText(loaded.revision.name)}, and never`,
  );
  w.line(
    "// overwrites it: replace `notImplemented` with `async (params, ctx) => ...` (the TODO above",
  );
  w.line("// each names the types) for each method you serve. A method left as notImplemented (or");
  w.line('// deleted) is answered "method not found", and its capability is not advertised.');
  for (const s of sides) {
    w.line();
    w.block(
      `export const ${s.side}Handlers: ${s.handlers} = {`,
      () => {
        for (const m of builtIn)
          w.line(
            `// ${lineCommentText(m)}: answered by the dispatcher; add a handler to answer it yourself.`,
          );
        for (const m of s.requests.filter((r) => !builtIn.includes(r.method))) {
          w.line(
            `// TODO: ${lineCommentText(m.method)}: (params${m.params ? `: ${lineCommentText(m.params)}` : ""}, ctx) => ${lineCommentText(m.result ?? "result")}`,
          );
          w.line(`${objectKey(m.method)}: notImplemented,`);
        }
      },
      "};",
    );
    w.line();
    const required =
      s.direction === "client->server"
        ? serverOptionsOf(loaded).members.filter((m) => m.required)
        : [];
    if (required.length === 0) {
      w.line(`export const ${s.side}Dispatcher = create${s.name}Dispatcher(${s.side}Handlers);`);
      continue;
    }
    // Values the skeleton cannot know: TODOs that compile, as notImplemented does for handlers.
    w.import("./dispatcher.js", "ServerDispatcherOptions", true);
    w.line(
      `// TODO: what the dispatcher cannot fill in server/discover (${lineCommentText(required.map((m) => m.name).join(", "))});`,
    );
    w.line("// until it is given, server/discover answers an internal error.");
    w.block(
      `export const ${s.side}Dispatcher = create${s.name}Dispatcher(${s.side}Handlers, {`,
      () => {
        for (const m of required)
          w.line(`${m.name}: {} as ServerDispatcherOptions[${quote(m.name)}],`);
      },
      "});",
    );
  }
  // The server's methods the dispatcher routes to a handler: one the user's kept copy lacks
  // after a spec bump is answered "method not found" without a compile error, so generate says so.
  const server = sides.find((s) => s.direction === "client->server");
  const handlerMethods = (server?.requests ?? [])
    .map((m) => m.method)
    .filter((m) => !builtIn.includes(m));
  return {
    path: "handlers.ts",
    kind: "scaffold",
    code: w.toString(""),
    preformatted: w.exact,
    handlerMethods,
  };
}

/**
 * Server options a revision needs beyond DispatcherOptions: server/discover result fields the
 * router does not fill (`discoverFields`), and the capabilities themselves when
 * ServerCapabilities has required fields (derived ones would lack them). `required`: whether
 * a server that does not answer server/discover itself must give some.
 */
function serverOptionsOf(loaded: LoadedRevision): {
  members: { name: string; type: string; required: boolean; doc: string }[];
  required: boolean;
} {
  const discover = loaded.protocol.methods.find(
    (m) => m.method === runtimeFacts(loaded).wellKnown.discover,
  );
  if (!discover?.result) return { members: [], required: false };
  const members = [];
  const extra = discoverFields(loaded);
  if (extra.length > 0) {
    const required = extra.some((f) => !f.optional);
    const doc = `Put into the server/discover result as they are${required ? " (the schema requires some)" : ""}.`;
    members.push({
      name: "discoverFields",
      type: `Pick<T.${discover.result}, ${extra.map((f) => quote(f.name)).join(" | ")}>`,
      required,
      doc,
    });
  }
  const capabilities = new Resolver(loaded.model).objectOf("ServerCapabilities");
  if (capabilities && [...capabilities.properties.values()].some((p) => !p.optional)) {
    const doc =
      "Required: ServerCapabilities has required fields, which capabilities derived from the handlers would lack.";
    members.push({ name: "capabilities", type: "T.ServerCapabilities", required: true, doc });
  }
  return { members, required: members.some((m) => m.required) };
}

/** dispatcher.ts (always regenerated), handlers.ts (a skeleton, written only when missing), http-server.ts. */
export const dispatcherGenerator: Generator = {
  name: "dispatcher",
  description:
    "dispatcher.ts: typed handler interfaces over the runtime router; handlers.ts skeleton (once); http-server.ts",
  requires: ["types", "methods", "validators", "protocol", "eras"],
  eras: true,
  runtime({ loaded, auth }) {
    const { features } = runtimeFacts(loaded);
    return [
      "core",
      "server",
      ...(features.mrtr ? (["tasks"] as const) : []),
      // Stateless Streamable HTTP: http-server.ts.
      ...(features.perRequestVersion ? (["fetch", "node/http", "auth"] as const) : []),
      // The JWT verifier imports jose: only when asked (config `auth`, --auth).
      ...(features.perRequestVersion && auth ? (["auth/verify"] as const) : []),
    ];
  },
  emit(ctx) {
    const { loaded, header } = ctx;
    const files: EmittedFile[] = [
      dispatcherFile(loaded, header, ctx.legacy, ctx.runtime),
      handlersFile(loaded),
    ];
    // Stateless Streamable HTTP: requests carry their protocol version in _meta.
    if (runtimeFacts(loaded).features.perRequestVersion) files.push(httpServerFile(ctx.runtime));
    return files;
  },
};

/** The same for every schema (the revision reaches it through protocol.ts): SCHEMA_FREE_HEADER. */
function httpServerFile(runtime: RuntimeImports): EmittedFile {
  const w = new CodeWriter();
  w.import("./protocol.js", "PROTOCOL");
  w.import(runtime.from("fetch"), "* as web");
  w.import(runtime.from("node/http"), "* as http");
  w.line("// Streamable HTTP for this revision: a web-standard fetch handler (Workers, Deno, Bun,");
  w.line("// Next.js, Hono) and the node:http host of the same core (Node.js, Express, Fastify).");
  w.line();
  w.list(
    "export type {",
    ["CorsOptions", "FetchHandler", "FetchHandlerOptions", "MessageHandler"],
    `} from ${str(runtime.from("fetch"))};`,
    true,
  );
  w.list(
    "export type {",
    ["HttpHandlerOptions", "NodeHttpHandler", "ServeHttpOptions"],
    `} from ${str(runtime.from("node/http"))};`,
    true,
  );
  w.list(
    "export {",
    ["InvalidTokenError", "type Principal", "type ResourceServerOptions"],
    `} from ${str(runtime.from("auth"))};`,
    true,
  );
  w.line();
  w.doc(
    "A fetch handler, `(request: Request) => Promise<Response>`, serving MCP at `options.path` (default /mcp).",
  );
  w.list(
    "export function createFetchHandler(",
    ["dispatcher: web.MessageHandler", "options: web.FetchHandlerOptions = {}"],
    "): web.FetchHandler {",
  );
  w.indented(() => w.line("return web.createFetchHandler(PROTOCOL, dispatcher, options);"));
  w.line("}");
  w.line();
  w.doc(
    "A node:http request listener `(req, res, parsedBody?)` serving MCP at `options.path` (default /mcp).",
  );
  w.list(
    "export function createHttpHandler(",
    ["dispatcher: http.MessageHandler", "options: http.HttpHandlerOptions = {}"],
    "): http.NodeHttpHandler {",
  );
  w.indented(() => w.line("return http.createHttpHandler(PROTOCOL, dispatcher, options);"));
  w.line("}");
  w.line();
  w.doc(
    "Starts an HTTP server for `dispatcher` (127.0.0.1 and a free port unless told otherwise); resolves once it listens.",
  );
  w.block(
    "export function serveHttp(dispatcher: http.MessageHandler, options: http.ServeHttpOptions = {}) {",
    () => w.line("return http.serveHttp(PROTOCOL, dispatcher, options);"),
  );
  return {
    path: "http-server.ts",
    kind: "generated",
    code: w.toString(SCHEMA_FREE_HEADER),
    nodeOnly: true,
    preformatted: w.exact,
  };
}
