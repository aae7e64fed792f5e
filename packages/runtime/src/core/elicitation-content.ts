import { isObject, own } from "./protocol.js";
import {
  $escape,
  $fmtUri,
  $length,
  $own,
  type ValidationError,
  type ValidationResult,
} from "./validation.js";

// Checks what a user entered in a form-mode elicitation against the `requestedSchema` that
// asked for it: "Servers SHOULD validate received data matches the requested schema"
// (2026-07-28 client/elicitation, Security Considerations). The schema types only say that
// `content` is a flat record of strings, numbers, booleans and string arrays; which of them
// the form asked for, and within what bounds, is in the request the server sent. The spec
// restricts that schema to flat objects of primitive properties (Requested Schema): string
// (minLength, maxLength, format email | uri | date | date-time, enum, oneOf of consts),
// number / integer (minimum, maximum), boolean, and arrays of those string choices
// (minItems, maxItems, items.enum or items.anyOf of consts). Keywords outside that subset are
// not checked; properties the form did not ask for are left alone, as JSON Schema does.

type Json = Record<string, unknown>;

/** Errors of `content` against `requestedSchema`; paths relative to `content`. */
export function checkRequestedContent(
  requestedSchema: unknown,
  content: unknown,
): ValidationError[] {
  if (!isObject(requestedSchema)) return [];
  const properties = isObject(requestedSchema["properties"]) ? requestedSchema["properties"] : {};
  const required = Array.isArray(requestedSchema["required"]) ? requestedSchema["required"] : [];
  if (content === undefined) content = {};
  if (!isObject(content))
    return [{ path: "", message: "expected the form's fields as an object", expected: "object" }];
  const errors: ValidationError[] = [];
  for (const name of required) {
    if (typeof name === "string" && !$own(content, name))
      errors.push({ path: "/" + $escape(name), message: `required field "${name}" is missing` });
  }
  for (const name of Object.keys(properties)) {
    const field = properties[name];
    if (!$own(content, name) || !isObject(field)) continue;
    const problem = checkField(field, content[name]);
    if (problem !== undefined) errors.push({ path: "/" + $escape(name), message: problem });
  }
  return errors;
}

/** The input request method whose answer a form governs. */
export const ELICITATION = "elicitation/create";

/** The form (`requestedSchema`) of a form-mode elicitation's params, if they carry one. */
function formOf(method: string, params: unknown): Json | undefined {
  if (method !== ELICITATION || !isObject(params)) return undefined;
  if (params["mode"] !== undefined && params["mode"] !== "form") return undefined;
  return isObject(params["requestedSchema"]) ? params["requestedSchema"] : undefined;
}

/**
 * An answer to an input request, checked as its method's result (`validate`: the revision's
 * validator) and, for an accepted form-mode elicitation, its content against the form the
 * server asked for. Both sides call it: the client on what it sends, the server on what it
 * receives.
 *
 * The form decides what a field's number may be: every revision's schema.json types
 * ElicitResult's content values `string | integer | boolean` (its generator reads a bare
 * `number` as integer), while schema.ts, and the form, say `number`: 1.5 answers a
 * `{ type: "number" }` field, not an `{ type: "integer" }` one. So a value of a field the
 * form types `number` is left to the form's check; everything else (other fields, fields the
 * form did not ask for, answers with no form) keeps schema.json's reading.
 * docs/schema-json-deviations.md records this.
 */
export function checkInputAnswer(
  validate: ((method: string, value: unknown) => ValidationResult<unknown>) | null | undefined,
  method: string,
  requestParams: unknown,
  answer: unknown,
): ValidationResult<unknown> {
  const form = formOf(method, requestParams);
  const content = isObject(answer) ? answer["content"] : undefined;
  if (!form || !isObject(answer) || answer["action"] !== "accept" || !isObject(content))
    return validate ? validate(method, answer) : { ok: true, value: answer };
  const properties = isObject(form["properties"]) ? form["properties"] : {};
  // What schema.json checks: the content with the form's numeric fields standing in as 0
  // (the form's check says more: "expected an integer").
  const typed: Json = { ...content };
  for (const name of Object.keys(content)) {
    const field = own(properties, name);
    const type = isObject(field) ? field["type"] : undefined;
    if ((type === "number" || type === "integer") && typeof content[name] === "number")
      typed[name] = 0;
  }
  const checked = validate ? validate(method, { ...answer, content: typed }) : undefined;
  if (checked && !checked.ok) return checked;
  const errors = checkRequestedContent(form, content).map((e) => ({
    ...e,
    path: "/content" + e.path,
  }));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: answer };
}

/**
 * A request whose multi round-trip `inputResponses` hold accepted elicitation content with a
 * fractional number, those numbers standing in as 0; undefined when it has none. The server
 * checks the request's shape with it (the form that asked is not known there), and each
 * answer when its handler reads it (`ctx.inputResponse`): against the form it names, else with
 * schema.json's integer reading.
 */
export function withContentNumbersDeferred(
  message: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const params = message["params"];
  const responses = isObject(params) ? params["inputResponses"] : undefined;
  if (!isObject(responses)) return undefined;
  let deferred = false;
  const masked: Json = {};
  for (const [key, response] of Object.entries(responses)) {
    masked[key] = response;
    const content = isObject(response) ? response["content"] : undefined;
    if (!isObject(response) || response["action"] !== "accept" || !isObject(content)) continue;
    const numbers = Object.entries(content).filter(
      ([, v]) => typeof v === "number" && Number.isFinite(v) && !Number.isInteger(v),
    );
    if (numbers.length === 0) continue;
    deferred = true;
    masked[key] = {
      ...response,
      content: { ...content, ...Object.fromEntries(numbers.map(([k]) => [k, 0])) },
    };
  }
  return deferred
    ? { ...message, params: { ...(params as Json), inputResponses: masked } }
    : undefined;
}

/**
 * Form-mode elicitation (2025-11-25 client/elicitation, "Clients that support defaults SHOULD
 * pre-populate form fields"): fields an accepting answer leaves out take the form's default.
 * The answer is checked after (checkInputAnswer), defaults included: what is sent is checked.
 */
export function withElicitationDefaults(method: string, params: unknown, answer: unknown): unknown {
  const form = formOf(method, params);
  if (!form || !isObject(answer) || answer["action"] !== "accept") return answer;
  const properties = isObject(form["properties"]) ? form["properties"] : {};
  const content: Json = isObject(answer["content"]) ? { ...answer["content"] } : {};
  let filled = false;
  for (const [name, property] of Object.entries(properties)) {
    if (
      !isObject(property) ||
      property["default"] === undefined ||
      own(content, name) !== undefined
    )
      continue;
    content[name] = property["default"];
    filled = true;
  }
  return filled ? { ...answer, content } : answer;
}

/** What is wrong with one field's value, or undefined. */
function checkField(field: Json, value: unknown): string | undefined {
  switch (field["type"]) {
    case "string":
      return typeof value === "string" ? checkString(field, value) : "expected a string";
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? checkNumber(field, value)
        : "expected a number";
    case "integer":
      return Number.isInteger(value) ? checkNumber(field, value as number) : "expected an integer";
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected a boolean";
    case "array":
      return Array.isArray(value) ? checkChoices(field, value) : "expected an array of choices";
    default:
      return undefined;
  }
}

function checkString(field: Json, value: string): string | undefined {
  const length = $length(value);
  const { minLength, maxLength, format } = field;
  if (typeof minLength === "number" && length < minLength)
    return `must have at least ${minLength} characters`;
  if (typeof maxLength === "number" && length > maxLength)
    return `must have at most ${maxLength} characters`;
  const allowed = choices(field);
  if (allowed !== undefined && !allowed.includes(value)) return "is not one of the choices offered";
  const valid = typeof format === "string" && $own(FORMATS, format) ? FORMATS[format] : undefined;
  if (valid !== undefined && !valid(value)) return `is not a valid ${format}`;
  return undefined;
}

function checkNumber(field: Json, value: number): string | undefined {
  const { minimum, maximum } = field;
  if (typeof minimum === "number" && value < minimum) return `must be at least ${minimum}`;
  if (typeof maximum === "number" && value > maximum) return `must be at most ${maximum}`;
  return undefined;
}

function checkChoices(field: Json, value: unknown[]): string | undefined {
  const { minItems, maxItems } = field;
  if (typeof minItems === "number" && value.length < minItems)
    return `must have at least ${minItems} choices`;
  if (typeof maxItems === "number" && value.length > maxItems)
    return `must have at most ${maxItems} choices`;
  const allowed = isObject(field["items"]) ? choices(field["items"]) : undefined;
  for (const item of value) {
    if (typeof item !== "string") return "expected choices as strings";
    if (allowed !== undefined && !allowed.includes(item))
      return `"${item}" is not one of the choices offered`;
  }
  return undefined;
}

/** The values a choice field offers (enum, or the consts of oneOf / anyOf), if it is one. */
function choices(field: Json): unknown[] | undefined {
  if (Array.isArray(field["enum"])) return field["enum"];
  const options = Array.isArray(field["oneOf"]) ? field["oneOf"] : field["anyOf"];
  if (!Array.isArray(options)) return undefined;
  return options.filter(isObject).map((option) => option["const"]);
}

// The formats the spec lists for string fields, as RFC 3339 (date, date-time) and the HTML
// living standard's "valid e-mail address" (what browsers check in a form) define them.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|[+-](\d{2}):(\d{2}))$/i;
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS[month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

function isDateTime(s: string): boolean {
  const split = s.search(/[tT ]/);
  if (split < 0 || !isDate(s.slice(0, split))) return false;
  const m = TIME.exec(s.slice(split + 1));
  if (!m) return false;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const offsetOk = m[4] === undefined || (Number(m[4]) <= 23 && Number(m[5]) <= 59);
  return hour <= 23 && minute <= 59 && second <= 60 && offsetOk;
}

const FORMATS: Record<string, ((s: string) => boolean) | undefined> = {
  email: (s) => s.length <= 254 && EMAIL.test(s),
  uri: $fmtUri,
  date: isDate,
  "date-time": isDateTime,
};
