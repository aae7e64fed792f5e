import { McpGenError, type IssueCode } from "../../schema/diagnostics.js";
import type { LoadedRevision } from "../../schema/index.js";
import type { SourceLocation } from "../../schema/model.js";
import { Resolver } from "../../schema/resolve.js";
import { isIdentifier, str } from "../print/printer.js";

// Function names for client stubs, derived from method names: the last segment is the
// verb, the segments before it the nouns (`tools/call` -> callTool). A verb that names its
// own object is kept whole (`sampling/createMessage` -> createMessage).

/** Nouns that name the receiving side rather than a thing acted on. */
const RECEIVERS = new Set(["server", "client"]);

/** Methods whose last segment is not a verb. */
export const NAME_EXCEPTIONS: Record<string, string> = {
  "tasks/result": "getTaskResult",
};

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const camel = (s: string) => s.replace(/[_-]([a-z])/g, (_, c: string) => c.toUpperCase());
const singular = (s: string) =>
  s.endsWith("ies")
    ? `${s.slice(0, -3)}y`
    : s.endsWith("s") && !s.endsWith("ss")
      ? s.slice(0, -1)
      : s;

/** `tools/call` -> callTool, `resources/templates/list` -> listResourceTemplates, `server/discover` -> discover. */
export function requestFunctionName(method: string): string {
  const exception = NAME_EXCEPTIONS[method];
  if (exception) return exception;
  const segments = method.split("/").map(camel);
  const verb = segments.pop()!;
  const nouns = segments.filter((n) => !RECEIVERS.has(n));
  // `completion/complete`: the verb already says it.
  if (nouns.length === 1 && nouns[0]!.startsWith(verb.replace(/e$/, ""))) return verb;
  if (/[A-Z]/.test(verb) || nouns.length === 0) return verb;
  const words = nouns.map((n, i) =>
    capitalize(verb === "list" && i === nouns.length - 1 ? n : singular(n)),
  );
  return verb + words.join("");
}

/** `notifications/cancelled` -> notifyCancelled, `notifications/roots/list_changed` -> notifyRootsListChanged. */
export function notificationFunctionName(method: string): string {
  return `notify${method
    .replace(/^notifications\//, "")
    .split("/")
    .map(camel)
    .map(capitalize)
    .join("")}`;
}

/** Members every generated client has besides its per-method functions. */
export const RESERVED_CLIENT_MEMBERS: ReadonlySet<string> = new Set(["request", "close", "era"]);

/**
 * Why `name` cannot be a client function, or undefined when it can. A method's name is
 * rejected rather than renamed: a silent rename would be public API nobody chose, and
 * `request(method, params)` reaches every method whatever its name.
 */
export function clientNameProblem(
  name: string,
  kind: "request" | "notification",
): string | undefined {
  if (!isIdentifier(name)) return "is not an identifier (or is a reserved word)";
  if (RESERVED_CLIENT_MEMBERS.has(name))
    return `is a member every client already has (${[...RESERVED_CLIENT_MEMBERS].join(", ")})`;
  // `listToolsPages` is the companion of `listTools`: no method function may take such a name.
  if (/Pages$/.test(name))
    return "ends in 'Pages' (reserved for the page iterators of list methods)";
  // `notifyX` names belong to notification senders, which share the client object.
  if (kind === "request" && /^notify[A-Z]/.test(name))
    return "starts with 'notify' (reserved for notification senders)";
  return undefined;
}

/** A refusal about a method's function name, with the method it is about (see locateMethodError). */
export class MethodNameError extends McpGenError {
  constructor(
    code: IssueCode,
    readonly detail: string,
    readonly method: string,
    loc: SourceLocation | undefined,
  ) {
    super(code, detail, loc);
  }
}

/** Where a method is declared: its message type's `method` property, else the type. */
export function methodLocation(loaded: LoadedRevision, method: string): SourceLocation | undefined {
  const m = loaded.protocol.methods.find((x) => x.method === method);
  if (!m) return undefined;
  const r = new Resolver(loaded.model);
  return r.propertyOf(m.type, "method")?.loc ?? r.declaration(m.type)?.loc;
}

/**
 * `error` located at its method's declaration (in the first of `revisions` that has it)
 * when it is a MethodNameError thrown without a location: client.ts names its functions
 * without asking where methods are declared, so generation (packages/cli/src/generators/emit/index.ts) puts the
 * place in front of the message here.
 */
export function locateMethodError(error: unknown, revisions: readonly LoadedRevision[]): unknown {
  if (!(error instanceof MethodNameError) || error.loc) return error;
  for (const loaded of revisions) {
    const loc = methodLocation(loaded, error.method);
    if (loc) return new MethodNameError(error.code, error.detail, error.method, loc);
  }
  return error;
}

/**
 * Every method's client function name, once: two methods mapping to one name would silently
 * shadow each other. A name that is not an identifier, or that a client member already
 * holds, is one clear error line naming the method, at its declaration (`locate`, else
 * locateMethodError where the revision is known).
 */
export function uniqueNames(
  methods: string[],
  name: (method: string) => string,
  locate?: (method: string) => SourceLocation | undefined,
): Map<string, string> {
  const kind = name === notificationFunctionName ? "notification" : "request";
  const byName = new Map<string, string>();
  const out = new Map<string, string>();
  for (const method of methods) {
    const n = name(method);
    const problem = clientNameProblem(n, kind);
    if (problem) {
      throw new MethodNameError(
        "unsupported-construct",
        `method ${str(method)} would be the client function ${str(n)}, which ${problem}`,
        method,
        locate?.(method),
      );
    }
    const other = byName.get(n);
    if (other)
      throw new MethodNameError(
        "protocol",
        `methods ${str(other)} and ${str(method)} would both be called ${n}()`,
        method,
        locate?.(method),
      );
    byName.set(n, method);
    out.set(method, n);
  }
  return out;
}
