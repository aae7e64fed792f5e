import type { LoadedRevision } from "../../schema/index.js";
import type { Direction, MethodInfo } from "../../schema/protocol.js";
import { discoverFields, runtimeFacts, type RuntimeFacts } from "../../schema/runtime-protocol.js";
import { McpGenError } from "../../schema/diagnostics.js";
import { Resolver } from "../../schema/resolve.js";
import { quote } from "../print/printer.js";
import type { RuntimeImports } from "./runtime.js";
import { missingInOlder } from "./eras.js";

// What dispatcher.ts and the handlers.ts skeleton are written from: the sides of a revision
// that receive requests, the params their handlers see, and the server options a revision
// needs. Read by every emit step (dispatcher-*.ts), so each step decides nothing twice.

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

export type ReceivingSide = ReturnType<typeof receivingSides>[number];

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

export interface ServerOptions {
  members: { name: string; type: string; required: boolean; doc: string }[];
  required: boolean;
}

/**
 * Server options a revision needs beyond DispatcherOptions: server/discover result fields the
 * router does not fill (`discoverFields`), and the capabilities themselves when
 * ServerCapabilities has required fields (derived ones would lack them). `required`: whether
 * a server that does not answer server/discover itself must give some.
 */
export function serverOptionsOf(loaded: LoadedRevision): ServerOptions {
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

/** Everything the emit steps of dispatcher.ts read. */
export interface DispatcherPlan {
  readonly loaded: LoadedRevision;
  readonly facts: RuntimeFacts;
  readonly runtime: RuntimeImports;
  /** The schema's names of the result, error and notification envelopes. */
  readonly envelopes: { result: string; error: string; notification: string };
  /** Multi round-trip requests (input_required), and with them the Tasks extension. */
  readonly mrtr: boolean;
  /**
   * Stateless revisions serve every era through the era router (initialize opens a legacy
   * session, or is answered with the versions spoken when there are no legacy revisions).
   */
  readonly eras: boolean;
  /** Per request method: the required params fields an older revision the server speaks lacks. */
  readonly missing: Map<string, string[]>;
  readonly serverOptions: ServerOptions;
}

export function planDispatcher(
  loaded: LoadedRevision,
  older: readonly LoadedRevision[],
  runtime: RuntimeImports,
): DispatcherPlan {
  const envelopes = requireEnvelopes(loaded);
  const facts = runtimeFacts(loaded);
  const perRequestVersion = facts.features.perRequestVersion;
  return {
    loaded,
    facts,
    runtime,
    envelopes,
    mrtr: facts.features.mrtr,
    eras: perRequestVersion,
    // Requests of older revisions lack the required params fields a newer one added.
    missing: perRequestVersion
      ? missingInOlder(loaded, older, "params")
      : new Map<string, string[]>(),
    serverOptions: serverOptionsOf(loaded),
  };
}

function requireEnvelopes(loaded: LoadedRevision): DispatcherPlan["envelopes"] {
  const { envelopes } = loaded.protocol;
  if (!envelopes.notification || !envelopes.resultResponse || !envelopes.errorResponse) {
    throw new McpGenError(
      "protocol",
      "the dispatcher needs JSONRPCMessage with notification, result response and error response members; use --generators to leave it out",
      // At JSONRPCMessage when the schema has one; a schema without it has no better place.
      new Resolver(loaded.model).declaration("JSONRPCMessage")?.loc ?? {
        file: loaded.model.file,
        line: 1,
        column: 1,
      },
    );
  }
  return {
    result: envelopes.resultResponse,
    error: envelopes.errorResponse,
    notification: envelopes.notification,
  };
}
