import type { CodeWriter } from "../print/printer.js";
import { schemaType } from "./protocol.js";
import type { DispatcherPlan } from "./dispatcher-plan.js";
import { RT } from "./runtime-symbols.js";

// The types of dispatcher.ts that every side's handlers share: what a handler returns and
// gets, the dispatcher's options, and the Dispatcher it builds.

/** ResponseMessage, HandlerResult and RequestContext: the revision's types as handlers meet them. */
export function writeHandlerTypes(w: CodeWriter, plan: DispatcherPlan): void {
  const { loaded, envelopes, mrtr } = plan;
  w.line();
  w.doc("The reply to send: a result or an error response.");
  w.line(`export type ResponseMessage = T.${envelopes.result} | T.${envelopes.error};`);
  w.line();
  if (plan.facts.resultType) {
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
      w.line(`notification: T.${envelopes.notification};`);
      w.line(`inputResponses: ${mrtr ? schemaType(loaded, "InputResponses", "{}") : "{}"};`);
      w.line(`inputResults: ${mrtr ? "InputRequestResultMap" : "{}"};`);
    },
    "}>;",
  );
}

/** DispatcherOptions bound to the revision, and ServerDispatcherOptions where it needs more. */
export function writeOptionTypes(w: CodeWriter, plan: DispatcherPlan): void {
  const { loaded, serverOptions } = plan;
  w.line();
  // Middleware sees the revision's request methods (either side's: one options type serves both).
  w.doc(
    "The router's options bound to this revision: its capabilities, implementation and methods.",
  );
  const args = [
    schemaType(loaded, "ServerCapabilities", "object"),
    schemaType(loaded, "Implementation", "object"),
    "ClientRequestMethod | ServerRequestMethod",
  ];
  // Prettier puts no trailing comma after type arguments, unlike `list`'s.
  w.block(
    "type RevisionRouterOptions = RouterOptions<",
    () => {
      args.forEach((arg, i) => w.line(i < args.length - 1 ? `${arg},` : arg));
    },
    ">;",
  );
  w.line();
  const routerOptions = "RevisionRouterOptions";
  if (plan.eras) writeEraOptions(w, routerOptions);
  else w.line(`export type DispatcherOptions = ${routerOptions};`);
  w.line();
  if (serverOptions.members.length === 0) return;
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

/** The Dispatcher interface (dual-era members optional), and OlderEraParams where requests may lack fields. */
export function writeDispatcherInterface(w: CodeWriter, plan: DispatcherPlan): void {
  const { notification } = plan.envelopes;
  w.block("export interface Dispatcher {", () => {
    const reply = `ResponseMessage${plan.facts.batch ? " | ResponseMessage[]" : ""} | undefined`;
    w.doc(
      "Handles one decoded message; resolves to the response to send, or nothing for a notification.",
    );
    w.list(
      "handle(",
      ["message: unknown", `context?: ${RT.server.HandleContext.name}<T.${notification}>`],
      `): Promise<${reply}>;`,
    );
    w.doc("The same from raw text: unparsable text gets a parse error.");
    w.list(
      "handleText(",
      ["text: string", `context?: ${RT.server.HandleContext.name}<T.${notification}>`],
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
    w.line(`notifySessions?(notification: T.${notification}): number;`);
    w.doc(
      "Dual-era servers: notifications/resources/updated to the legacy sessions subscribed to `uri`.",
    );
    w.line("resourceUpdated?(uri: string): number;");
  });
  if (plan.missing.size === 0) return;
  w.line();
  w.doc(
    "Params as every revision this server speaks sends them: fields `K`, which an older revision lacks, may be missing.",
  );
  w.line("export type OlderEraParams<P, K extends keyof P> = Omit<P, K> & Partial<Pick<P, K>>;");
}

/**
 * The options of a dispatcher serving every era (the runtime's EraDispatcherOptions): the
 * router's, and the bounds of the legacy sessions it opens on `initialize`. The defaults
 * are the runtime's (server/legacy-session.ts, server/subscription-limits.ts,
 * server/era-dispatcher.ts), which checks them when the dispatcher is created.
 */
function writeEraOptions(w: CodeWriter, routerOptions: string): void {
  w.doc("The dispatcher's options, and the bounds of the legacy sessions it opens on initialize.");
  w.block(`export interface DispatcherOptions extends ${routerOptions} {`, () => {
    w.docLines([
      "How long a legacy session's request to the client (elicitation, sampling, roots) waits for",
      "the answer, in ms; then it is given up and cancelled (notifications/cancelled), and the",
      "request that asked fails. A positive integer, at most 2147483647. Default: 300000 (5 minutes).",
    ]);
    w.line("clientRequestTimeoutMs?: number;");
    w.docLines([
      "Rounds of input_required one legacy request may take (each asks the client on the session);",
      "then tools/call answers a tool execution error (isError), another method an internal error.",
      "A positive integer. Default: 10.",
    ]);
    w.line("maxLegacyRounds?: number;");
    w.docLines([
      "Most resources one legacy session subscribes to at once (resources/subscribe); one more is",
      "refused (-32602) until it unsubscribes from one. A positive integer. Default: 100.",
    ]);
    w.line("maxSubscriptionsPerSession?: number;");
    w.docLines([
      "Longest URI, in characters, a legacy session may subscribe to; a longer one is refused",
      "(-32602). A positive integer. Default: 2048.",
    ]);
    w.line("maxSubscriptionUriLength?: number;");
  });
}
