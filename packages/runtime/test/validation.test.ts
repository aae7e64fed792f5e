import { describe, expect, it } from "vitest";
import {
  $anyOf,
  $at,
  $expected,
  $fmtByte,
  $fmtUri,
  $fmtUriTemplate,
  $found,
  $limit,
  $methodOf,
  $missing,
  $result,
  $unknownMethod,
  classifyMessage,
  MAX_ERRORS,
  type $Collector,
  type $Errors,
} from "../src/core/validation.js";

// The runtime of generated validators.ts, tested as code; packages/cli/test/validators.test.ts checks the
// generated validators that call it against ajv on every revision.

/** A collector expecting a string at "/name" of an object. */
const nameIsString: $Collector = (v, e) => {
  if (typeof v !== "object" || v === null)
    return $expected(e, "", "object", "expected object, found ", v);
  if (typeof v.name !== "string")
    $expected(e, "/name", "string", "expected string, found ", v.name);
  if (e.length >= $limit) return;
  if (typeof v.size !== "number")
    $expected(e, "/size", "number", "expected number, found ", v.size);
};

describe("runtime/validation", () => {
  it("describes the value found in a few words, quoting strings safely and cutting long ones", () => {
    expect($found("found ", "abc")).toBe('found string "abc"');
    expect($found("found ", 'a"b\n')).toBe('found string "a\\"b\\n"');
    expect($found("found ", "x".repeat(50))).toBe(`found string "${"x".repeat(40)}"...`);
    expect($found("found ", -0)).toBe("found number -0");
    expect($found("found ", 7)).toBe("found number 7");
    expect([null, [], {}, true, undefined, 1n].map((v) => $found("", v))).toEqual([
      "null",
      "array",
      "object",
      "boolean true",
      "nothing",
      "bigint",
    ]);
  });

  it("$at puts a key in front of the errors added since a count, and only those", () => {
    const e: $Errors = [{ path: "/kept", message: "m" }];
    $missing(e, "/a", "missing a");
    $expected(e, "", "string", "expected string, found ", 1);
    $at(e, 1, "/child");
    expect(e.map((x) => x.path)).toEqual(["/kept", "/child/a", "/child"]);
  });

  it("$result: all errors, or the first only; a throwing getter is an error; the limit is restored", () => {
    const full = $result({ name: 1 }, nameIsString, undefined);
    expect(full).toEqual({
      ok: false,
      errors: [
        { path: "/name", message: "expected string, found number 1", expected: "string" },
        { path: "/size", message: "expected number, found nothing", expected: "number" },
      ],
    });
    const first = $result({ name: 1 }, nameIsString, { firstError: true });
    expect(first.ok ? [] : first.errors.map((x) => x.path)).toEqual(["/name"]);
    expect($result({ name: "n", size: 1 }, nameIsString, { firstError: true })).toEqual({
      ok: true,
      value: { name: "n", size: 1 },
    });
    const hostile = {
      get name(): string {
        throw new Error("no");
      },
    };
    expect($result(hostile, nameIsString, undefined)).toEqual({
      ok: false,
      errors: [{ path: "", message: "could not be read: no" }],
    });
    expect($limit).toBe(MAX_ERRORS);
  });

  it("$anyOf reports the closest branch with its paths, or the union when no branch fits the value", () => {
    const e: $Errors = [];
    const isNumber: $Collector = (v, errors) => {
      if (typeof v !== "number") $expected(errors, "", "number", "expected number, found ", v);
    };
    $anyOf(e, "/x", { name: "n" }, 0, [isNumber, nameIsString], "number | Named");
    expect(e).toEqual([
      { path: "/x/size", message: "expected number, found nothing", expected: "number" },
    ]);
    const f: $Errors = [];
    $anyOf(f, "/x", true, 0, [isNumber, nameIsString], "number | Named");
    expect(f).toEqual([
      {
        path: "/x",
        message: "expected number | Named, found boolean true",
        expected: "number | Named",
      },
    ]);
  });

  it("formats: uri, byte and uri-template, linear on huge strings and never throwing", () => {
    expect($fmtUri("https://example.com/a?b=c")).toBe(true);
    expect($fmtUri("not a uri")).toBe(false);
    expect($fmtUri(`https://example.com/${"a".repeat(10_000_000)}`)).toBe(true);
    expect($fmtByte("aGk=")).toBe(true);
    expect($fmtByte("a")).toBe(false);
    expect($fmtUriTemplate("/users/{id}")).toBe(true);
    expect($fmtUriTemplate("/users/{id")).toBe(false);
    expect($fmtUriTemplate(`/${"{a}".repeat(1000)}`)).toBe(true);
  });

  it("classifies messages by shape, and reads a method without throwing", () => {
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({
      kind: "request",
      method: "ping",
      id: 1,
    });
    expect(classifyMessage({ jsonrpc: "2.0", method: "notifications/x" })).toEqual({
      kind: "notification",
      method: "notifications/x",
    });
    expect(classifyMessage({ jsonrpc: "2.0", id: "a", result: {} })).toEqual({
      kind: "result",
      id: "a",
    });
    expect(classifyMessage({ jsonrpc: "2.0", id: null, error: { code: 1 } })).toEqual({
      kind: "error",
      id: null,
    });
    expect(classifyMessage([])).toBeUndefined();
    const hostile = {
      get method(): string {
        throw new Error("no");
      },
    };
    expect(classifyMessage(hostile)).toBeUndefined();
    expect($methodOf(hostile)).toBeUndefined();
    expect($unknownMethod("x/y", "client->server requests")).toEqual({
      ok: false,
      errors: [{ path: "/method", message: 'unknown method "x/y" for client->server requests' }],
    });
    expect($unknownMethod(3, "requests")).toEqual({
      ok: false,
      errors: [{ path: "/method", message: "expected a method name, found number 3" }],
    });
  });
});
