import type { LoadedRevision } from "../../schema/index.js";
import type { InputRequestInfo } from "../../schema/protocol.js";

// Deprecated input requests (2026-07-28: sampling and roots, SEP-2577) made visible where a
// user's code touches them. TypeScript strikes through a reference to a `@deprecated`
// declaration, but not a property written in an object literal: `{ "roots/list": ... }` in
// `inputHandlers` or `inputRequests` says nothing. So the functions those literals are passed
// to get a `@deprecated` overload that matches only when a literal names such a request
// (suggestion 6387, "The signature ... is deprecated"); a value of the wide type matches the
// ordinary overload, so nothing is flagged that does not ask.

/** The revision's input requests it deprecates, in schema order. */
export function deprecatedInputs(loaded: LoadedRevision): readonly InputRequestInfo[] {
  return loaded.protocol.inputRequests.filter((r) => r.deprecated !== undefined);
}

/** The `@deprecated` line of an overload that `verb`s these requests ("Asks", "Answers"). */
export function deprecatedInputsTag(verb: string, requests: readonly InputRequestInfo[]): string {
  const methods = requests.map((r) => `\`${r.method}\``).join(" or ");
  const reasons = [...new Set(requests.map((r) => r.deprecated ?? ""))].join(" ");
  return `@deprecated ${verb} ${methods}: ${reasons}`;
}
