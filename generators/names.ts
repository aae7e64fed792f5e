import { McpGenError } from "../schema/diagnostics.js";

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
const singular = (s: string) => (s.endsWith("ies") ? `${s.slice(0, -3)}y` : s.endsWith("s") && !s.endsWith("ss") ? s.slice(0, -1) : s);

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
  const words = nouns.map((n, i) => capitalize(verb === "list" && i === nouns.length - 1 ? n : singular(n)));
  return verb + words.join("");
}

/** `notifications/cancelled` -> notifyCancelled, `notifications/roots/list_changed` -> notifyRootsListChanged. */
export function notificationFunctionName(method: string): string {
  return `notify${method.replace(/^notifications\//, "").split("/").map(camel).map(capitalize).join("")}`;
}

/** Every name once: two methods mapping to one name would silently shadow each other. */
export function uniqueNames(methods: string[], name: (method: string) => string): Map<string, string> {
  const byName = new Map<string, string>();
  const out = new Map<string, string>();
  for (const method of methods) {
    const n = name(method);
    const other = byName.get(n);
    if (other) throw new McpGenError("protocol", `methods '${other}' and '${method}' would both be called ${n}()`);
    byName.set(n, method);
    out.set(method, n);
  }
  return out;
}
