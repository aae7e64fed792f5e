import type { LoadedRevision } from "../../schema/index.js";
import type { MethodInfo } from "../../schema/protocol.js";
import { paramsAllOptional, Resolver } from "../../schema/resolve.js";
import { isInitializeBased, WELL_KNOWN_METHODS } from "../../schema/runtime-protocol.js";
import { notificationFunctionName, requestFunctionName } from "./names.js";
import type { CodeWriter } from "../print/printer.js";

// Calls a host needs on legacy sessions that the newest revision dropped (2026-07-28 changelog,
// major changes 4 and 5): typed from the newest legacy revision that has each, and emitted only
// where some legacy revision the output speaks has it as a client message and the newest does
// not. Which revision has which is read from the method tables; the runtime's client/legacy-calls.ts
// decides per era at run time.
//
// Not offered: initialize and notifications/initialized (the session's own handshake), and
// 2025-11-25's tasks/get, tasks/result and tasks/cancel, which a task handle sends
// (callToolTask, runtime task-legacy.ts). tasks/list is offered: the Tasks extension that
// replaced them in 2026-07-28 has no listing, so on a modern server it is EraUnsupportedError.
const OFFERED = [
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "notifications/roots/list_changed",
  "tasks/list",
];

export interface LegacyCall {
  readonly method: MethodInfo;
  readonly fn: string;
  /** The import alias of the types of the revision it is typed from. */
  readonly types: string;
  readonly revision: string;
  readonly paramsOptional: boolean;
  /** The legacy revisions that have it, newest first. */
  readonly revisions: string[];
}

const sends = (m: MethodInfo) => m.directions.includes("client->server");

/** The legacy-only calls of a client for `modern` that also speaks `older` (none without legacy eras). */
export function legacyCalls(
  modern: LoadedRevision,
  older: readonly LoadedRevision[],
  taken: ReadonlySet<string>,
): LegacyCall[] {
  const legacy = older
    .filter((r) => isInitializeBased(r.protocol))
    .sort((a, b) => b.revision.name.localeCompare(a.revision.name));
  const calls: LegacyCall[] = [];
  for (const name of OFFERED) {
    if (modern.protocol.methods.some((m) => m.method === name && sends(m))) continue;
    const having = legacy.filter((r) =>
      r.protocol.methods.some((m) => m.method === name && sends(m)),
    );
    const newest = having[0];
    if (!newest) continue;
    const method = newest.protocol.methods.find((m) => m.method === name)!;
    const fn =
      method.kind === "request" ? requestFunctionName(name) : notificationFunctionName(name);
    // A name the newest revision's API already uses keeps its meaning: the legacy call is left out.
    if (taken.has(fn)) continue;
    const paramsOptional =
      method.paramsOptional ||
      !method.params ||
      paramsAllOptional(new Resolver(newest.model), method.params);
    const revisions = having.map((r) => r.revision.name);
    calls.push({
      method,
      fn,
      types: typesAlias(newest.revision.name),
      revision: newest.revision.name,
      paramsOptional,
      revisions,
    });
  }
  return calls;
}

const typesAlias = (revision: string) => `L${revision.replace(/\W/g, "_")}`;

/** The members of the Client interface for `calls`, with what each does on a modern server. */
export function writeLegacyCallMembers(
  w: CodeWriter,
  calls: readonly LegacyCall[],
  modern: string,
): void {
  for (const c of calls) {
    const T = w.import(`./legacy/${c.revision}/types.js`, `* as ${c.types}`, true);
    const opt = c.paramsOptional ? "?" : "";
    const params = c.method.params ? `${T}.${c.method.params}` : "undefined";
    const eras = c.revisions.join(", ");
    if (c.method.kind === "notification") {
      w.docLines([
        `Sends \`${c.method.method}\` on the legacy session this client opened`,
        `(MCP ${eras}). Resolves without sending when none is open (the server`,
        `has been told nothing yet) or the server is modern (MCP ${modern} has no such`,
        "notification). Throws when the client did not declare the capability gating it.",
      ]);
      w.list(`${c.fn}(`, [`params${opt}: ${params}`], "): Promise<void>;");
      continue;
    }
    w.docLines([
      `\`${c.method.method}\` on a legacy session (MCP ${eras}).`,
      c.method.method === WELL_KNOWN_METHODS.ping
        ? `MCP ${modern} has no ping: a modern server is sent server/discover, resolving when it answers.`
        : `MCP ${modern} has no such request: on a modern server it throws EraUnsupportedError.`,
    ]);
    w.list(
      `${c.fn}(`,
      [`params${opt}: CallParams<${params}>`, "options?: CallOptions"],
      `): Promise<${T}.${c.method.result}>;`,
    );
  }
}
