import type { LoadedRevision } from "../../schema/index.js";
import { Resolver } from "../../schema/resolve.js";
import type { RuntimeFacts } from "../../schema/runtime-protocol.js";
import { quote, type CodeWriter } from "../print/printer.js";
import { deprecatedInputs } from "./deprecated-inputs.js";
import { schemaType } from "./protocol.js";
import { RT } from "./runtime-symbols.js";

// The types of client.ts a caller writes values of: input handlers, call params, call and
// sender options. Each revision narrows the runtime's loose ones to its own schema's types.

/** What the option types depend on, beside the revision. */
export interface ClientOptionFacts {
  /** The notification envelope type (or a plain record when the schema has none). */
  readonly notification: string;
  /** Whether requests must carry the client's info (then so must the options). */
  readonly clientInfoRequired: boolean;
  /** Whether the revision has multi round-trip (input_required) requests. */
  readonly mrtr: boolean;
  /** The progress and log notifications a call may receive. */
  readonly wellKnown: Pick<RuntimeFacts["wellKnown"], "progress" | "log">;
}

/** InputHandler, InputHandlers, CallParams (and ManualCallParams), CallOptions, ManualCallOptions, SenderOptions. */
export function writeClientOptionTypes(
  w: CodeWriter,
  loaded: LoadedRevision,
  facts: ClientOptionFacts,
): void {
  writeInputHandlerTypes(w, loaded);
  writeCallParamsTypes(w, facts.mrtr);
  writeCallOptions(w, loaded, facts);
  w.line();
  writeSenderOptions(w, loaded, facts);
}

function writeInputHandlerTypes(w: CodeWriter, loaded: LoadedRevision): void {
  w.line("/**");
  w.line(" * Answers one kind of input request (elicitation, sampling, roots) for the server.");
  w.line(" * `signal`: the call's on modern servers; on legacy sessions the server request's,");
  w.line(" * aborted when the server cancels it (no response is sent then) or the session ends.");
  w.line(" */");
  const DECLINE = RT.client.DECLINE.name;
  w.line("export type InputHandler<M extends InputRequestMethod> = (");
  w.line("  params: InputRequestParamsMap[M],");
  w.line("  context: { key: string; method: M; signal: AbortSignal | undefined },");
  w.line(
    `) => InputRequestResultMap[M] | typeof ${DECLINE} | Promise<InputRequestResultMap[M] | typeof ${DECLINE}>;`,
  );
  w.line();
  writeInputHandlers(w, loaded);
}

/**
 * InputHandlers: one property per input request, each deprecated one tagged (a mapped type's
 * properties carry no JSDoc); and, when some are, the handlers that answer one of them, which
 * createClient's deprecated overload takes (deprecated-inputs.ts).
 */
function writeInputHandlers(w: CodeWriter, loaded: LoadedRevision): void {
  const requests = loaded.protocol.inputRequests;
  if (requests.length === 0) {
    w.line("export type InputHandlers = { [M in InputRequestMethod]?: InputHandler<M> };");
    w.line();
    return;
  }
  w.block("export interface InputHandlers {", () => {
    for (const r of requests) {
      const what = `Answers \`${r.method}\` (${r.type}).`;
      if (r.deprecated === undefined) w.doc(what);
      else w.docLines([what, `@deprecated ${r.deprecated}`]);
      w.line(`${quote(r.method)}?: InputHandler<${quote(r.method)}>;`);
    }
  });
  w.line();
  const deprecated = deprecatedInputs(loaded);
  if (deprecated.length === 0) return;
  w.doc("Input handlers that answer a request this revision deprecates (see createClient).");
  w.union(
    "type DeprecatedInputHandlers =",
    deprecated.map((r) => `{ ${quote(r.method)}: InputHandler<${quote(r.method)}> }`),
  );
  w.line();
}

function writeCallParamsTypes(w: CodeWriter, mrtr: boolean): void {
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
}

function writeCallOptions(w: CodeWriter, loaded: LoadedRevision, facts: ClientOptionFacts): void {
  const { wellKnown, notification } = facts;
  const paramsOf = (method: string | null) =>
    method !== null && loaded.protocol.methods.some((m) => m.method === method && m.params)
      ? `NotificationParamsMap[${quote(method)}]`
      : "never";
  w.line("export interface CallOptions extends Omit<");
  w.line("  RuntimeCallOptions,");
  w.line('  "onProgress" | "onLog" | "logLevel" | "onNotification"');
  w.block("> {", () => {
    w.doc("Progress of this call (a progress token is sent when given).");
    w.line(`onProgress?: (params: ${paramsOf(wellKnown.progress)}) => void;`);
    w.doc("Log messages about this call.");
    w.line(`onLog?: (params: ${paramsOf(wellKnown.log)}) => void;`);
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
}

function writeSenderOptions(w: CodeWriter, loaded: LoadedRevision, facts: ClientOptionFacts): void {
  const { clientInfoRequired } = facts;
  w.line("export interface SenderOptions extends Omit<");
  w.line("  RuntimeSenderOptions,");
  w.line('  "clientInfo" | "capabilities" | "inputHandlers" | "onNotification"');
  w.block("> {", () => {
    w.doc(
      "Legacy sessions: the server's notifications that no call receives (list_changed, resources/updated, ...).",
    );
    w.line(`onNotification?: (notification: ${facts.notification}) => void;`);
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
}
