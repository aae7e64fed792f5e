import { own, type ProtocolDescriptor } from "./protocol.js";
import { emitWarning } from "./warning.js";

// One warning per deprecated method and revision, per process, where the user's code touches
// it (a handler for it, an input request asking it, a client input handler answering it):
// deprecations otherwise show only as strike-throughs in an editor. Type DeprecationWarning on
// Node's warning channel (warning.ts): --no-deprecation and --trace-deprecation apply.

const warned = new Set<string>();

/** Warns once that `method` is deprecated in `protocol`'s revision, saying where it is used. */
export function warnDeprecated(protocol: ProtocolDescriptor, method: string, use: string): void {
  const text = protocol.deprecated ? own(protocol.deprecated, method) : undefined;
  if (text === undefined) return;
  const key = `${protocol.revision} ${method}`;
  if (warned.has(key)) return;
  warned.add(key);
  const message = `MCP ${protocol.revision} deprecates ${method} (${describeDeprecation(text)}); used by ${use}`;
  emitWarning(message, "DeprecationWarning", "MCP_DEPRECATED");
}

const MONTHS: Readonly<Record<string, number>> = {
  six: 6,
  twelve: 12,
  eighteen: 18,
  "twenty-four": 24,
};

/**
 * "SEP-2577; removal 2027-07-28 at the earliest" from the schema's text ("Deprecated as of
 * protocol version 2026-07-28 (SEP-2577). Remains in the specification for at least twelve
 * months"); the text itself where it does not say so.
 */
export function describeDeprecation(text: string): string {
  const sep = /\bSEP-\d+/.exec(text)?.[0];
  const since = /as of protocol version (\d{4})-(\d{2})-(\d{2})/.exec(text);
  const months = /at least (\d+|[a-z-]+) months/i.exec(text)?.[1]?.toLowerCase();
  const count = months === undefined ? undefined : (MONTHS[months] ?? Number(months));
  if (sep === undefined || since === null || count === undefined || !Number.isInteger(count))
    return text;
  const total = Number(since[2]) - 1 + count;
  const year = Number(since[1]) + Math.floor(total / 12);
  const month = String((total % 12) + 1).padStart(2, "0");
  return `${sep}; removal ${year}-${month}-${since[3]} at the earliest`;
}

/** Warns for each of `methods` the revision deprecates (see warnDeprecated). */
export function warnDeprecatedAll(
  protocol: ProtocolDescriptor,
  methods: Iterable<string>,
  use: string,
): void {
  if (!protocol.deprecated) return;
  for (const method of methods) warnDeprecated(protocol, method, use);
}
