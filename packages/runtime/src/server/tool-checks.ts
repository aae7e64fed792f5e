import { isObject } from "../core/protocol.js";
import { jsonForm } from "./json-form.js";

// What tools.ts (defineTools) and typed-tools.ts (defineTool) share, kept out of the package's
// exports: how problems are quoted, the refusal of invalid arguments, the check of
// structuredContent, and which definitions check their own arguments or output.

/** The outcome of checking one value: the value to go on with (possibly transformed), or the problems. */
export type Checked = { ok: true; value: unknown } | { ok: false; problems: readonly string[] };

/** Checks one value (arguments, or structuredContent in its JSON form). */
export type ValueCheck = (value: unknown) => Promise<Checked>;

/**
 * Definitions made by defineTool whose arguments (`input`) or structuredContent (`output`) its
 * `call` checks itself with the tool's Standard Schema: defineTools does not check them again
 * with `validate`. A copy of a definition (a spread) is not here: `validate` checks it.
 */
export const SELF_CHECKED = new WeakMap<object, { input: boolean; output: boolean }>();

/** Errors quoted in a message at most; the rest are counted. */
const MAX_QUOTED_ERRORS = 5;

/** The problems found, quoted in one line, or undefined when there are none. */
export function quoted(errors: readonly string[] | undefined): string | undefined {
  if (errors === undefined || errors.length === 0) return undefined;
  const first = errors.slice(0, MAX_QUOTED_ERRORS).join("; ");
  const more =
    errors.length > MAX_QUOTED_ERRORS ? ` (and ${errors.length - MAX_QUOTED_ERRORS} more)` : "";
  return `${first}${more}`;
}

/**
 * The answer to arguments that do not conform: a tool execution error the model can correct
 * (2025-11-25 and 2026-07-28 server/tools, "Error Handling").
 */
export function inputRefusal(toolName: string, problems: string) {
  const text = `Input validation error: Invalid arguments for tool ${toolName}: ${problems}`;
  return { content: [{ type: "text" as const, text }], isError: true as const };
}

/** Nesting of arguments searched for non-finite numbers (JSON.parse output has no cycles; a direct caller's might). */
const MAX_ARGUMENT_DEPTH = 64;

/**
 * Where in `value` a non-finite number is (a JSON pointer), or undefined. JSON has no
 * Infinity or NaN, but JSON.parse reads a number too large for a double (`1e400`) as
 * Infinity: a schema's `number` takes it, and the tool's output then fails as the server's
 * fault. Refused as invalid params instead (2026-07-28 server/tools, "Error Handling":
 * a request that fails to satisfy CallToolRequest, whose arguments are JSON values).
 */
export function nonFiniteAt(value: unknown, pointer = "", depth = 0): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : pointer || "/";
  if (typeof value !== "object" || value === null || depth >= MAX_ARGUMENT_DEPTH) return undefined;
  for (const [key, member] of Object.entries(value)) {
    const step = `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const found = nonFiniteAt(member, pointer + step, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The refusal of arguments holding a non-finite number at `pointer` (see nonFiniteAt). */
export function nonFiniteRefusal(pointer: string): string {
  return `Invalid params for tools/call: argument ${pointer} is not a finite number (JSON has no Infinity: 1e400 overflows to it)`;
}

/** A property of `record` as JSON.stringify sends it: own and enumerable, else undefined. */
function sentProperty(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.propertyIsEnumerable.call(record, key) ? record[key] : undefined;
}

/**
 * `result` with its structuredContent in the JSON form the client gets, which is what is
 * checked (json-form.ts), as `check` gave it back; throws when a complete, successful result
 * of tool `name` lacks conforming structuredContent.
 */
export async function checkedOutput(
  name: string,
  result: unknown,
  check: ValueCheck,
): Promise<unknown> {
  if (!isObject(result)) return result;
  let record = result;
  if (record["toJSON"] !== undefined) {
    const whole = jsonForm(record);
    // Without a JSON object form it cannot be sent at all: the router refuses it.
    if (!whole.ok || !isObject(whole.value)) return result;
    record = whole.value;
  }
  if (sentProperty(record, "isError") === true) return result;
  // input_required, or an extension's answer (a task handle): not the tool's output yet. The
  // router refuses any resultType the revision does not define (result-check.ts).
  const resultType = sentProperty(record, "resultType");
  if (resultType !== undefined && resultType !== "complete") return result;
  const given = sentProperty(record, "structuredContent");
  if (given === undefined)
    throw new Error(
      `Output validation error: Tool ${name} has an output schema but no structured content was provided`,
    );
  const sent = jsonForm(given);
  if (!sent.ok)
    throw new Error(
      `Output validation error: Structured content for tool ${name} cannot be sent as JSON: ${sent.problem}`,
    );
  const checked = await check(sent.value);
  if (!checked.ok)
    throw new Error(
      `Output validation error: Invalid structured content for tool ${name}: ${quoted(checked.problems) ?? "invalid"}`,
    );
  if (checked.value === given) return record;
  // What a schema library gave back (its defaults applied, unknown keys stripped), as sent.
  const out = checked.value === sent.value ? sent : jsonForm(checked.value);
  if (!out.ok)
    throw new Error(
      `Output validation error: Structured content for tool ${name} cannot be sent as JSON: ${out.problem}`,
    );
  return { ...record, structuredContent: out.value };
}
