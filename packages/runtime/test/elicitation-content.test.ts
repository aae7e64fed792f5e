import { describe, expect, it } from "vitest";
import {
  checkInputAnswer,
  checkRequestedContent,
  withContentNumbersDeferred,
} from "../src/core/elicitation-content.js";
import type { ValidationResult } from "../src/core/validation.js";

// The restricted schema subset of 2026-07-28 client/elicitation ("Requested Schema").
const form = (properties: object, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});
const messages = (schema: unknown, content: unknown) =>
  checkRequestedContent(schema, content).map((e) => `${e.path} ${e.message}`);

describe("checkRequestedContent", () => {
  it("checks each primitive type the spec allows, and required fields", () => {
    const schema = form(
      {
        name: { type: "string" },
        age: { type: "integer" },
        ratio: { type: "number" },
        ok: { type: "boolean" },
      },
      ["name", "ok"],
    );
    expect(messages(schema, { name: "Ada", age: 36, ratio: 0.5, ok: true })).toEqual([]);
    expect(messages(schema, { name: 1, age: 36.5, ratio: "x", ok: "yes" })).toEqual([
      "/name expected a string",
      "/age expected an integer",
      "/ratio expected a number",
      "/ok expected a boolean",
    ]);
    expect(messages(schema, {})).toEqual([
      '/name required field "name" is missing',
      '/ok required field "ok" is missing',
    ]);
    expect(messages(schema, undefined)).toHaveLength(2);
    expect(messages(schema, ["Ada"])).toEqual([" expected the form's fields as an object"]);
    expect(messages(form({ n: { type: "number" } }), { n: Infinity })).toEqual([
      "/n expected a number",
    ]);
  });

  it("checks string lengths in characters, number bounds, and choices (enum, oneOf consts)", () => {
    const schema = form({
      code: { type: "string", minLength: 2, maxLength: 3 },
      n: { type: "number", minimum: 1, maximum: 10 },
      color: { type: "string", enum: ["red", "green"] },
      hex: {
        type: "string",
        oneOf: [
          { const: "#f00", title: "Red" },
          { const: "#0f0", title: "Green" },
        ],
      },
    });
    expect(messages(schema, { code: "😀😀", n: 10, color: "red", hex: "#0f0" })).toEqual([]);
    expect(messages(schema, { code: "a", n: 0, color: "blue", hex: "#00f" })).toEqual([
      "/code must have at least 2 characters",
      "/n must be at least 1",
      "/color is not one of the choices offered",
      "/hex is not one of the choices offered",
    ]);
    expect(messages(schema, { code: "abcd", n: 11 })).toEqual([
      "/code must have at most 3 characters",
      "/n must be at most 10",
    ]);
  });

  it("checks multi-select choices: count, and each choice offered (items.enum, items.anyOf consts)", () => {
    const schema = form({
      plain: {
        type: "array",
        minItems: 1,
        maxItems: 2,
        items: { type: "string", enum: ["a", "b", "c"] },
      },
      titled: { type: "array", items: { anyOf: [{ const: "x", title: "X" }] } },
    });
    expect(messages(schema, { plain: ["a", "c"], titled: ["x"] })).toEqual([]);
    expect(messages(schema, { plain: [], titled: ["y"] })).toEqual([
      "/plain must have at least 1 choices",
      '/titled "y" is not one of the choices offered',
    ]);
    expect(messages(schema, { plain: ["a", "b", "c"], titled: "x" })).toEqual([
      "/plain must have at most 2 choices",
      "/titled expected an array of choices",
    ]);
    expect(messages(schema, { plain: [1] })).toEqual(["/plain expected choices as strings"]);
  });

  it("checks the four formats the spec lists", () => {
    const schema = form({
      e: { type: "string", format: "email" },
      u: { type: "string", format: "uri" },
      d: { type: "string", format: "date" },
      t: { type: "string", format: "date-time" },
    });
    expect(
      messages(schema, {
        e: "ada@example.com",
        u: "https://example.com/x",
        d: "2024-02-29",
        t: "2026-12-01T10:00:00.5+01:00",
      }),
    ).toEqual([]);
    expect(
      messages(schema, { e: "ada@", u: "not a uri", d: "2023-02-29", t: "2026-12-01T24:00:00Z" }),
    ).toEqual([
      "/e is not a valid email",
      "/u is not a valid uri",
      "/d is not a valid date",
      "/t is not a valid date-time",
    ]);
    expect(messages(schema, { d: "2026-13-01", t: "2026-12-01 10:00:00" })).toEqual([
      "/d is not a valid date",
      "/t is not a valid date-time",
    ]);
  });

  it("leaves alone what the subset does not cover: unknown formats and keywords, fields not asked for, odd schemas", () => {
    expect(
      messages(form({ s: { type: "string", format: "constructor", pattern: "^x$" } }), {
        s: "y",
        extra: 1,
      }),
    ).toEqual([]);
    expect(messages(form({ s: { type: "object" } }), { s: 5 })).toEqual([]);
    expect(messages(undefined, { anything: 1 })).toEqual([]);
    expect(messages({ type: "object" }, { anything: 1 })).toEqual([]);
    expect(messages(form({ "a/b": { type: "string" } }, ["a/b"]), {})).toEqual([
      '/a~1b required field "a/b" is missing',
    ]);
  });
});

// schema.json's reading of an ElicitResult (every revision with elicitation): content values
// `string | integer | boolean | string[]`, a bare `number` read as integer.
const schemaJsonReading = (method: string, value: unknown): ValidationResult<unknown> => {
  const content = (value as { content?: Record<string, unknown> }).content ?? {};
  const errors = Object.entries(content)
    .filter(([, v]) => typeof v === "number" && !Number.isInteger(v))
    .map(([k, v]) => ({ path: `/content/${k}`, message: `${method}: found number ${String(v)}` }));
  return errors.length ? { ok: false, errors } : { ok: true, value };
};

describe("checkInputAnswer", () => {
  const asked = {
    mode: "form",
    message: "Numbers?",
    requestedSchema: form({ ratio: { type: "number" }, count: { type: "integer" } }),
  };
  const accept = <C extends object>(content: C) => ({ action: "accept", content });
  const check = (params: unknown, answer: unknown, method = "elicitation/create") =>
    checkInputAnswer(schemaJsonReading, method, params, answer);

  it("lets the form decide its numeric fields: 1.5 answers `number`, not `integer`", () => {
    expect(check(asked, accept({ ratio: 1.5, count: 2 }))).toEqual({
      ok: true,
      value: accept({ ratio: 1.5, count: 2 }),
    });
    expect(check(asked, accept({ ratio: 1.5, count: 1.5 }))).toEqual({
      ok: false,
      errors: [{ path: "/content/count", message: "expected an integer" }],
    });
  });

  it("keeps schema.json's integer reading where no form says otherwise", () => {
    // A field the form did not ask for; a form in URL mode; no request at all; another method.
    expect(check(asked, accept({ ratio: 1, extra: 0.5 })).ok).toBe(false);
    expect(check({ ...asked, mode: "url" }, accept({ ratio: 1.5 })).ok).toBe(false);
    expect(check(undefined, accept({ ratio: 1.5 })).ok).toBe(false);
    expect(check(asked, accept({ ratio: 1.5 }), "sampling/createMessage").ok).toBe(false);
    // A decline carries no content to check against the form.
    expect(check(asked, { action: "decline" })).toEqual({ ok: true, value: { action: "decline" } });
  });

  it("defers fractional content numbers of a request's inputResponses, and nothing else", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "t",
        inputResponses: { a: accept({ ratio: 1.5, n: 2, s: "x" }), b: { role: "assistant" } },
      },
    };
    expect(withContentNumbersDeferred(message)).toEqual({
      ...message,
      params: {
        ...message.params,
        inputResponses: { a: accept({ ratio: 0, n: 2, s: "x" }), b: { role: "assistant" } },
      },
    });
    expect(message.params.inputResponses.a.content.ratio).toBe(1.5);
    const whole = { ...message, params: { inputResponses: { a: accept({ n: 2 }) } } };
    expect(withContentNumbersDeferred(whole)).toBeUndefined();
    expect(withContentNumbersDeferred({ method: "tools/call", params: {} })).toBeUndefined();
  });
});
