// The runtime of generated validators.ts: result types, the error helpers the generated
// checks call, format checks, and message classification. validators.ts holds what each
// schema revision decides (one check and one error collector per type, the method
// dispatch); everything here is the same for every revision. Names start with `$` so that
// no schema type name (whose helpers are `$is_T` / `$va_T`) can collide with them.

export interface ValidationError {
  /** RFC 6901 JSON pointer to the offending value ("" for the value itself). */
  path: string;
  /** What was expected and what was found. */
  message: string;
  /** The expected type, value or keyword, when there is one. */
  expected?: string;
}

export type ValidationResult<V> = { ok: true; value: V } | { ok: false; errors: ValidationError[] };

/** How a validator reports a failure. */
export interface ValidateOptions {
  /**
   * Stop at the first error: `errors` then holds one error, the first the full validation
   * reports. For hot paths that only need "valid, or the first reason".
   */
  firstError?: boolean;
}

/** A validator: `validateT`, or a message entry point with its method or direction bound. */
export type Validator = (value: unknown, options?: ValidateOptions) => ValidationResult<unknown>;

/** Nesting (in schema references) beyond which a value is rejected rather than risking the stack. */
export const MAX_DEPTH = 1000;
/** Errors collected per validation at most. */
export const MAX_ERRORS = 100;

// ---- helpers -----------------------------------------------------------------------

export type $Errors = ValidationError[];

/** Errors this validation still keeps: MAX_ERRORS, or 1 in first-error mode. */
export let $limit = MAX_ERRORS;

const $hasOwn = Object.prototype.hasOwnProperty;

/** Only own properties count: `{}` has no `valueOf`, whatever Object.prototype says. */
export function $own(v: object, k: string): boolean {
  return $hasOwn.call(v, k);
}

/**
 * `prefix` followed by a description of the value found (`string "x"`, `number 7`, `object`).
 * The error path is hot (invalid input, abuse): messages are built with as few string
 * operations as possible, prefixes are literals written at generation time.
 */
export function $found(prefix: string, v: unknown): string {
  switch (typeof v) {
    case "string":
      if (v.length > 40) return prefix + "string " + JSON.stringify(v.slice(0, 40)) + "...";
      for (let i = 0; i < v.length; i++) {
        const c = v.charCodeAt(i);
        if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e)
          return prefix + "string " + JSON.stringify(v);
      }
      return prefix + 'string "' + v + '"';
    case "number":
      return v === 0 && 1 / v < 0 ? prefix + "number -0" : prefix + "number " + v;
    case "object":
      return prefix + (v === null ? "null" : Array.isArray(v) ? "array" : "object");
    case "boolean":
      return prefix + (v ? "boolean true" : "boolean false");
    case "undefined":
      return prefix + "nothing";
    default:
      return prefix + typeof v;
  }
}

export function $describe(v: unknown): string {
  return $found("", v);
}

/** A key as a JSON-pointer segment (RFC 6901: `~` as `~0`, `/` as `~1`), without the leading `/`. */
export function $escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function $push(e: $Errors, error: ValidationError): void {
  if (e.length < $limit) e.push(error);
}

/** `prefix` is `expected <expected>, found `, written at generation time. */
export function $expected(
  e: $Errors,
  p: string,
  expected: string,
  prefix: string,
  v: unknown,
): void {
  if (e.length < $limit) e.push({ path: p, message: $found(prefix, v), expected });
}

/** `path` (the missing property's own pointer) and `message` are written at generation time. */
export function $missing(e: $Errors, path: string, message: string): void {
  if (e.length < $limit) e.push({ path, message });
}

export function $fail(e: $Errors, p: string, message: string, expected: string | undefined): void {
  $push(e, expected === undefined ? { path: p, message } : { path: p, message, expected });
}

export function $tooDeep(e: $Errors, p: string): void {
  $push(e, { path: p, message: `nested more than ${MAX_DEPTH} levels deep` });
}

/**
 * Error paths are relative to the value a collector was given: the caller prefixes the
 * errors its child added (from `from` on) with the child's key. A valid subtree thus costs
 * no path string at all, and collectors need no `$is` guard before descending, so an
 * invalid value is walked once rather than once per enclosing level.
 */
export function $at(e: $Errors, from: number, key: string): void {
  for (let i = from; i < e.length; i++) e[i]!.path = key + e[i]!.path;
}

export function $length(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function $multipleOf(v: number, m: number): boolean {
  const q = v / m;
  return Number.isInteger(q) || Math.abs(q - Math.round(q)) < 1e-9;
}

// Collectors are typed per schema type; `any` lets each be called with what it checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type $Collector = (v: any, e: $Errors, d: number) => void;

/** A failed union: report the branch that came closest, not every alternative. `p` is the
 * union's value's path relative to the caller's value. */
export function $anyOf(
  e: $Errors,
  p: string,
  v: unknown,
  d: number,
  members: $Collector[],
  expected: string,
): void {
  let best: $Errors | undefined;
  let bestScore = Infinity;
  // Branches are scored on all their errors, so first-error mode picks the same branch.
  const limit = $limit;
  $limit = MAX_ERRORS;
  try {
    for (const collect of members) {
      const errors: $Errors = [];
      collect(v, errors, d);
      if (errors.length === 0) continue;
      // A branch whose only complaint is the value's own type did not match at all; a
      // missing property counts double, so the branch whose keys the value has wins ties.
      let score = errors.every((x) => x.path === "") ? 1e6 : 0;
      for (const x of errors) score += x.message.startsWith("required property") ? 2 : 1;
      if (score < bestScore) {
        best = errors;
        bestScore = score;
      }
    }
  } finally {
    $limit = limit;
  }
  if (best === undefined || bestScore >= 1e6)
    $expected(e, p, expected, "expected " + expected + ", found ", v);
  else
    for (const error of best) {
      error.path = p + error.path;
      $push(e, error);
    }
}

// Formats, as ajv-formats ("full" mode) checks them, so results agree with schema.json.
// uri: RFC 3986 absolute URI.
const $NOT_URI_FRAGMENT = /\/|:/;
const $URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
// Long runs of characters every URI component takes alike are shortened first: the
// verdict is the same, and the backtracking regex no longer overflows on huge strings.
// (`+` and a length test: a `{65,}` quantifier itself overflows on a 10 MB run.)
const $URI_RUN = /[a-z0-9\-._~!$&'()*+,;=]+/gi;
const $shorten = (run: string): string => (run.length > 64 ? run.slice(0, 64) : run);
// The common shape (scheme://host[:port]/path?query with plain characters) is a subset
// of the full grammar, matched by a much cheaper regex first.
const $URI_COMMON =
  /^[a-z][a-z0-9+\-.]*:\/\/[a-z0-9\-._~]*(?::\d+)?(?:\/[a-z0-9\-._~]*)*(?:\?[a-z0-9\-._~=&/]*)?$/i;
export function $fmtUri(s: string): boolean {
  const t = s.length > 1024 ? s.replace($URI_RUN, $shorten) : s;
  try {
    if ($URI_COMMON.test(t)) return true;
  } catch {
    // too complex for the regex engine's stack: the slower exact check below decides
  }
  try {
    return $NOT_URI_FRAGMENT.test(t) && $URI.test(t);
  } catch {
    return false; // still too complex for the regex engine's stack: rejected, never thrown
  }
}
// byte: base64. ajv-formats tests it line by line (multiline flag); kept for agreement.
const $BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;
export function $fmtByte(s: string): boolean {
  $BYTE.lastIndex = 0;
  return $BYTE.test(s);
}
// uri-template: RFC 6570.
const $URI_TEMPLATE =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
// The template language is a sequence of literals and {expressions}, so a long template
// is checked piece by piece (same verdict, linear, no regex stack overflow).
const $URI_TEMPLATE_EXPRESSION =
  /^\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\}$/i;
const $URI_TEMPLATE_LITERAL_EXCLUDED = /[\x00-\x20"'<>\\^`{|}]/;
const $HEX = /^[0-9a-f]{2}$/i;
export function $fmtUriTemplate(s: string): boolean {
  if (s.length <= 1024) return $URI_TEMPLATE.test(s);
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "{") {
      const end = s.indexOf("}", i);
      if (end < 0) return false;
      const expression = s.slice(i, end + 1).replace(/[a-z0-9_]+/gi, $shorten);
      try {
        if (!$URI_TEMPLATE_EXPRESSION.test(expression)) return false;
      } catch {
        return false;
      }
      i = end + 1;
    } else if (c === "%") {
      if (!$HEX.test(s.slice(i + 1, i + 3))) return false;
      i += 3;
    } else {
      if ($URI_TEMPLATE_LITERAL_EXCLUDED.test(c)) return false;
      i++;
    }
  }
  return true;
}

export function $ok<V>(value: unknown): ValidationResult<V> {
  return { ok: true, value: value as V };
}

/** The reason a getter or proxy threw, as an error; never throws itself. */
export function $thrown(e: $Errors, error: unknown): void {
  let reason: string;
  try {
    reason = error instanceof Error ? error.message : String(error);
  } catch {
    reason = "an exception";
  }
  if (e.length < $limit) e.push({ path: "", message: "could not be read: " + reason });
}

/** A placeholder that gives the errors array its first slot; never returned. */
const $ROOM: ValidationError = { path: "", message: "" };

/** The errors of a value the fast check rejected (all of them), or the first error, if any. */
export function $result<V>(
  value: unknown,
  collect: $Collector,
  options: ValidateOptions | undefined,
): ValidationResult<V> {
  const first = options !== undefined && options.firstError === true;
  // Room for exactly one error: a rejected value usually has one, and a plain `[]` grows to
  // 17 slots on its first push, the largest allocation of the error path.
  const errors: ValidationError[] = [$ROOM];
  errors.pop();
  const outer = $limit;
  $limit = first ? 1 : MAX_ERRORS;
  // No `finally`: neither block can throw, and the error path is hot.
  try {
    collect(value, errors, 0);
  } catch (error) {
    $thrown(errors, error);
  }
  $limit = outer;
  if (errors.length > 0) return { ok: false, errors };
  // First-error mode skips the fast check: no error means valid. Otherwise the fast check
  // failed, so no error would be a bug; it still gives { ok: false }.
  if (first) return $ok(value);
  errors.push({ path: "", message: "is not valid" });
  return { ok: false, errors };
}

// ---- messages --------------------------------------------------------------------------

export type MessageKind = "request" | "notification" | "result" | "error";

/** What a decoded JSON-RPC message is, judged by its shape alone. */
export interface MessageInfo {
  kind: MessageKind;
  method?: string;
  id?: string | number | null;
}

export function $has(table: Record<string, Validator>, method: unknown): method is string {
  return typeof method === "string" && Object.prototype.hasOwnProperty.call(table, method);
}

/** `value.method`, or undefined (a getter that throws is an invalid message, not an exception). */
export function $methodOf(value: unknown): unknown {
  try {
    return typeof value === "object" && value !== null
      ? (value as { method?: unknown }).method
      : undefined;
  } catch {
    return undefined;
  }
}

export function $unknownMethod(method: unknown, what: string): ValidationResult<never> {
  const message =
    typeof method === "string"
      ? `unknown method ${JSON.stringify(method)} for ${what}`
      : `expected a method name, found ${$describe(method)}`;
  return { ok: false, errors: [{ path: "/method", message }] };
}

/** Sorts a decoded message by shape: request, notification, result or error response. */
export function classifyMessage(value: unknown): MessageInfo | undefined {
  try {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const m = value as {
      method?: unknown;
      id?: unknown;
      result?: unknown;
      error?: unknown;
    };
    const id =
      typeof m.id === "string" || typeof m.id === "number" || m.id === null ? { id: m.id } : {};
    if (typeof m.method === "string") {
      return m.id === undefined
        ? { kind: "notification", method: m.method }
        : { kind: "request", method: m.method, ...id };
    }
    if (m.result !== undefined) return { kind: "result", ...id };
    if (m.error !== undefined) return { kind: "error", ...id };
    return undefined;
  } catch {
    return undefined;
  }
}
