import type { LoadedRevision } from "../../schema/index.js";
import type { Direction } from "../../schema/protocol.js";
import { Resolver } from "../../schema/resolve.js";
import { CodeWriter, objectKey, quote } from "../print/printer.js";
import type { ValidationNames } from "./runtime-symbols.js";

// The message section of validators.ts: validateRequestMessage, validateNotificationMessage,
// validateMethodResult, validateInputResult and validateMessage, with the tables and types
// they use. Printed by CodeWriter, laid out as prettier would.

const DIRECTIONS: Direction[] = ["client->server", "server->client"];

/** A CodeWriter that names the runtime's validation helpers through `rt` (recorded as used). */
class MessageWriter extends CodeWriter {
  constructor(readonly rt: ValidationNames) {
    super();
  }

  /** The parameter every entry point ends with. */
  get options(): string {
    return `options?: ${this.rt.ValidateOptions}`;
  }
}

/**
 * The section's text, for validators.ts to place after the per-type validators; the runtime
 * helpers it names are recorded through `rt`.
 */
export function messageEntryPoints(loaded: LoadedRevision, rt: ValidationNames): string {
  const { protocol, model } = loaded;
  const has = (name: string | undefined) =>
    name !== undefined && model.byName.has(name) ? name : undefined;
  const { envelopes } = protocol;
  const requests = protocol.methods.filter((m) => m.kind === "request");
  const inputRequiredResult = has(protocol.inputRequiredResult);
  const w = new MessageWriter(rt);
  w.line(
    "// ---- messages --------------------------------------------------------------------------",
  );
  w.line();
  const union = (side: string, kind: string, envelope: string | undefined) => {
    const name = `${side}${kind}`;
    if (!protocol.unions[name]) return "never";
    return envelope ? `T.${envelope} & T.${name}` : `T.${name}`;
  };
  w.doc("Messages a client sends (requests to a server, and notifications).");
  w.line(`export type ClientRequestMessage = ${union("Client", "Request", envelopes.request)};`);
  w.line(
    `export type ClientNotificationMessage = ${union("Client", "Notification", envelopes.notification)};`,
  );
  w.doc("Messages a server sends.");
  w.line(`export type ServerRequestMessage = ${union("Server", "Request", envelopes.request)};`);
  w.line(
    `export type ServerNotificationMessage = ${union("Server", "Notification", envelopes.notification)};`,
  );
  w.line();
  table(
    w,
    "$RESULTS",
    requests.map((m) => [m.method, `validate${m.result}`]),
  );
  w.line();
  w.doc("Methods whose result may be an InputRequiredResult (multi round-trip).");
  w.list(
    "const $INPUT_REQUIRED = new Set<string>([",
    requests.filter((m) => m.inputRequired).map((m) => quote(m.method)),
    "]);",
  );
  w.line();
  table(
    w,
    "$INPUT_RESULTS",
    protocol.inputRequests.map((r) => [r.method, `validate${r.result}`]),
  );
  w.line();
  const resolver = new Resolver(model);
  for (const kind of ["request", "notification"] as const) {
    const envelope = has(kind === "request" ? envelopes.request : envelopes.notification);
    const methods = (direction: Direction) =>
      protocol.methods
        .filter((m) => m.kind === kind && m.directions.includes(direction))
        // A type that extends the envelope (not through Omit) carries all of it: checked once.
        .map((m) => ({
          method: m.method,
          validator: `validate${m.type}`,
          enveloped:
            envelope !== undefined &&
            resolver.ancestors(m.type, { throughOmit: false }).has(envelope),
        }));
    messageValidator(
      w,
      kind,
      DIRECTIONS.map((direction) => ({ direction, methods: methods(direction) })),
      envelope,
    );
    w.line();
  }
  methodResult(w, inputRequiredResult);
  w.line();
  inputResult(w);
  w.line();
  anyMessage(w, {
    messageType: has("JSONRPCMessage") ? "T.JSONRPCMessage" : "unknown",
    result: has(envelopes.resultResponse),
    error: has(envelopes.errorResponse),
  });
  return w.toString("");
}

/** `const name: Record<string, Validator> = { method: validator, ... };` */
function table(w: MessageWriter, name: string, entries: [string, string][]): void {
  w.block(
    `const ${name}: Record<string, ${w.rt.Validator}> = {`,
    () => entries.forEach(([key, value]) => w.line(`${objectKey(key)}: ${value},`)),
    "};",
  );
}

/** A function head: `name(params): returns` and ` {` or `;`, broken one parameter a line when long. */
function signature(w: CodeWriter, head: string, params: string[], tail: string): void {
  w.list(`${head}(`, params, `): ${tail}`);
}

/** `return callee(args);`, broken one argument a line when long. */
function returnCall(w: CodeWriter, callee: string, args: string[]): void {
  w.list(`return ${callee}(`, args, ");");
}

/** validateRequestMessage or validateNotificationMessage: overloads per direction, then the dispatch. */
function messageValidator(
  w: MessageWriter,
  kind: "request" | "notification",
  byDirection: {
    direction: Direction;
    methods: { method: string; validator: string; enveloped: boolean }[];
  }[],
  envelope: string | undefined,
): void {
  const Kind = kind === "request" ? "Request" : "Notification";
  const name = `validate${Kind}Message`;
  if (kind === "request") {
    w.docLines([
      "Validates a request by its `method`, against the request type of that method for the",
      "sending side: only the matching branch is checked, so errors point into it.",
      "`{ firstError: true }` stops at the first error.",
    ]);
  } else {
    w.doc("Validates a notification by its `method`, for the sending side.");
  }
  const head = `export function ${name}`;
  for (const [direction, side] of [
    ["client->server", "Client"],
    ["server->client", "Server"],
  ] as const) {
    signature(
      w,
      head,
      ["value: unknown", `direction: ${quote(direction)}`, w.options],
      `${w.rt.ValidationResult}<${side}${Kind}Message>;`,
    );
  }
  const params = ["value: unknown", "direction: Direction", w.options];
  signature(
    w,
    head,
    params,
    `${w.rt.ValidationResult}<Client${Kind}Message | Server${Kind}Message>;`,
  );
  signature(w, head, params, `${w.rt.ValidationResult}<any> {`);
  w.indented(() => {
    w.line(`const method = ${w.rt.$methodOf}(value);`);
    const used = byDirection.filter((d) => d.methods.length > 0);
    const checkEnvelope = (envelope: string) => {
      w.list("const envelope = validate" + envelope + "(", ["value", "options"], ");");
      w.line("if (!envelope.ok) return envelope;");
    };
    used.forEach(({ direction, methods }, i) => {
      w.line(
        i === 0
          ? `if (direction === ${quote(direction)}) {`
          : i === used.length - 1 && used.length === byDirection.length
            ? "} else {"
            : `} else if (direction === ${quote(direction)}) {`,
      );
      w.indented(() =>
        w.block("switch (method) {", () => {
          for (const m of methods) {
            if (envelope === undefined || m.enveloped) {
              w.line(`case ${quote(m.method)}:`);
              w.indented(() => returnCall(w, m.validator, ["value", "options"]));
            } else {
              w.block(`case ${quote(m.method)}: {`, () => {
                checkEnvelope(envelope);
                returnCall(w, m.validator, ["value", "options"]);
              });
            }
          }
        }),
      );
    });
    if (used.length > 0) w.line("}");
    if (envelope !== undefined) checkEnvelope(envelope);
    w.line(`return ${w.rt.$unknownMethod}(method, \`\${direction} ${kind}s\`);`);
  });
  w.line("}");
}

/** `$MethodResult<M>` and validateMethodResult. */
function methodResult(w: MessageWriter, inputRequiredResult: string | undefined): void {
  w.doc(
    "The result of request method `M`: its result type, or an InputRequiredResult where it may be one.",
  );
  const head = "type $MethodResult<M extends keyof RequestResultMap> =";
  if (inputRequiredResult === undefined) w.line(`${head} RequestResultMap[M];`);
  else
    w.union(head, [
      "RequestResultMap[M]",
      `(M extends InputRequiredMethod ? T.${inputRequiredResult} : never)`,
    ]);
  w.line();
  w.docLines([
    "Validates a result against the result type of the method it answers. A method that may",
    "answer `input_required` is checked as an InputRequiredResult when it says so. Given a",
    "method name the type knows, the result is typed as that method's result.",
  ]);
  const head2 = "export function validateMethodResult";
  const params = ["method: string", "value: unknown", w.options];
  signature(
    w,
    `${head2}<M extends keyof RequestResultMap>`,
    ["method: M", "value: unknown", w.options],
    `${w.rt.ValidationResult}<$MethodResult<M>>;`,
  );
  signature(w, head2, params, `${w.rt.ValidationResult}<unknown>;`);
  signature(w, head2, params, `${w.rt.ValidationResult}<unknown> {`);
  w.indented(() => {
    w.line(
      `if (!${w.rt.$has}($RESULTS, method)) return ${w.rt.$unknownMethod}(method, "results");`,
    );
    if (inputRequiredResult !== undefined) {
      w.line("if (");
      w.indented(() => {
        w.line("$INPUT_REQUIRED.has(method) &&");
        w.line('typeof value === "object" &&');
        w.line("value !== null &&");
        w.line('(value as { resultType?: unknown }).resultType === "input_required"');
      });
      w.line(") {");
      w.indented(() => returnCall(w, `validate${inputRequiredResult}`, ["value", "options"]));
      w.line("}");
    }
    w.line("return $RESULTS[method]!(value, options);");
  });
  w.line("}");
}

/** validateInputResult. */
function inputResult(w: MessageWriter): void {
  w.doc("Validates the answer to an input request (multi round-trip) by its method.");
  const head = "export function validateInputResult";
  const params = ["method: string", "value: unknown", w.options];
  signature(
    w,
    `${head}<M extends InputRequestMethod>`,
    ["method: M", "value: unknown", w.options],
    `${w.rt.ValidationResult}<InputRequestResultMap[M]>;`,
  );
  signature(w, head, params, `${w.rt.ValidationResult}<unknown>;`);
  signature(w, head, params, `${w.rt.ValidationResult}<unknown> {`);
  w.indented(() => {
    w.line(`return ${w.rt.$has}($INPUT_RESULTS, method)`);
    w.indented(() => {
      w.line("? $INPUT_RESULTS[method]!(value, options)");
      w.line(`: ${w.rt.$unknownMethod}(method, "input requests");`);
    });
  });
  w.line("}");
}

/** validateMessage: requests and notifications by method, responses by envelope. */
function anyMessage(
  w: MessageWriter,
  types: { messageType: string; result: string | undefined; error: string | undefined },
): void {
  w.line(`type $MessageResult = ${w.rt.ValidationResult}<${types.messageType}>;`);
  w.line();
  w.docLines([
    "Validates any decoded JSON-RPC message sent by one side: requests and notifications by",
    "their method, responses by their envelope (use validateMethodResult for a result's content).",
  ]);
  signature(
    w,
    "export function validateMessage",
    ["value: unknown", "direction: Direction", w.options],
    "$MessageResult {",
  );
  w.indented(() =>
    w.block(`switch (${w.rt.classifyMessage}(value)?.kind) {`, () => {
      const kinds: [string, string][] = [
        ["request", "validateRequestMessage(value, direction, options)"],
        ["notification", "validateNotificationMessage(value, direction, options)"],
      ];
      if (types.result) kinds.push(["result", `validate${types.result}(value, options)`]);
      if (types.error) kinds.push(["error", `validate${types.error}(value, options)`]);
      for (const [kind, call] of kinds) {
        w.line(`case ${quote(kind)}:`);
        w.indented(() => w.line(`return ${call} as $MessageResult;`));
      }
      w.line("default:");
      w.indented(() =>
        w.block(
          "return {",
          () => {
            w.line("ok: false,");
            w.block(
              "errors: [",
              () =>
                w.block(
                  "{",
                  () => {
                    w.line('path: "",');
                    w.line(
                      `message: \`expected a JSON-RPC request, notification or response, found \${${w.rt.$describe}(value)}\`,`,
                    );
                  },
                  "},",
                ),
              "],",
            );
          },
          "};",
        ),
      );
    }),
  );
  w.line("}");
}
