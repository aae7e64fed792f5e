import { errorText } from "../core/errors.js";

// A result is sent as JSON.stringify writes it: own enumerable properties only, toJSON
// applied, undefined dropped (null in an array), NaN and Infinity as null. Validators read
// the object in memory, where an inherited or non-enumerable property counts and a Date is
// an object, so the router checks the JSON form: what the client will get.

/** Nesting walked at most; deeper data takes the round trip, which bounds it (and cycles). */
const MAX_WALK_DEPTH = 64;

const { getPrototypeOf, getOwnPropertyNames } = Object;

/**
 * Whether `value` is its own JSON form: JSON.parse(JSON.stringify(value)) would be deeply
 * equal to it. Costs a walk, far less than the round trip, so the plain data handlers
 * return is sent as it is. An accessor counts as the value it returns (a getter answering
 * differently each time it is read is not caught); a throwing one makes `value` not plain.
 */
function isPlain(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      break;
    default:
      return false; // undefined, a function, a symbol or a BigInt
  }
  if (value === null) return true;
  if (depth >= MAX_WALK_DEPTH || (value as { toJSON?: unknown }).toJSON !== undefined) return false;
  const prototype: unknown = getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) return false;
    // A hole reads as undefined: not plain, as JSON writes it null.
    for (let i = 0; i < value.length; i++) if (!isPlain(value[i], depth + 1)) return false;
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  let enumerable = 0;
  for (const key in record) {
    enumerable++;
    if (!isPlain(record[key], depth + 1)) return false;
  }
  // A non-enumerable own property is read by a validator but not sent.
  return getOwnPropertyNames(record).length === enumerable;
}

/**
 * `value` as the client will get it: itself when it is plain data, else its JSON round trip;
 * or why it has no JSON form (a cycle, a BigInt, a throwing getter or toJSON).
 */
export function jsonForm(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    if (isPlain(value, 0)) return { ok: true, value };
  } catch {
    // A throwing getter or a revoked Proxy: the round trip says why.
  }
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return { ok: false, problem: `JSON.stringify skips ${typeof value}` };
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: errorText(error, "its JSON form could not be written") };
  }
}
