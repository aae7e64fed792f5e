import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_MATCHED_URI_LENGTH, UriTemplate } from "../src/core/uri-template.js";
import { compileMatcher } from "../src/core/uri-template-match.js";
import { parseTemplate } from "../src/core/uri-template-syntax.js";

// UriTemplate.match on hostile URIs: its cost grows linearly with the URI whatever the
// template (issue 35, F2: the regular expression it used backtracked, 84 s for 507 characters),
// and the values it gives a handler are checked after decoding (F8: `{name}` received
// `../../../etc/passwd`). Costs are counted in matcher steps, never timed.

const DATA = "data://{a}.{b}.{c}.{d}.json";
const LOG = "log://{service}-{date}-{level}.log";

/** A URI that almost matches `template` (so that a backtracking matcher tries every split). */
function adversarial(template: string, length: number): string {
  const [scheme, separator] = template === DATA ? ["data://", "."] : ["log://", "-"];
  return scheme + separator.repeat(length - scheme.length - 1) + "x";
}

/** The steps the matcher of `template` takes on `uri` (instructions run, threads added). */
function steps(template: string, uri: string): number {
  return compileMatcher(parseTemplate(template)).run(uri).steps;
}

describe("UriTemplate.match: linear in the URI", () => {
  it("answers the templates of F2 on adversarial URIs of 2 KB, 8 KB and 100 KB", () => {
    for (const template of [DATA, LOG]) {
      const t = new UriTemplate(template, { maxUriLength: 200_000 });
      for (const length of [2048, 8192, 100_000])
        expect(t.match(adversarial(template, length)), `${template} ${length}`).toBeUndefined();
      expect(new UriTemplate(DATA).match("data://1.2.3.4.json")).toEqual({
        a: "1",
        b: "2",
        c: "3",
        d: "4",
      });
    }
  });

  it("takes at most a constant number of steps per character, whatever the URI", () => {
    const cases: [string, (length: number) => string][] = [
      [DATA, (n) => adversarial(DATA, n)],
      [LOG, (n) => adversarial(LOG, n)],
      ["x://{+a}.{+b}.{+c}{?q*}{#f}", (n) => `x://${".?q=".repeat(n / 4)}`],
      ["{/a*}{.b*}{;c*}", (n) => "/.;".repeat(n / 3) + "#"],
      ["{a}{b}{c}{d}e", (n) => "a".repeat(n)],
    ];
    for (const [template, uri] of cases) {
      const { size } = compileMatcher(parseTemplate(template));
      const perCharacter = [1200, 12_000, 120_000].map((length) => {
        const counted = steps(template, uri(length));
        // The Pike VM's bound: at each position each instruction runs at most once, and is
        // added to the next position's threads at most once.
        expect(counted, template).toBeLessThanOrEqual(2 * size * (length + 1));
        return counted / length;
      });
      // The cost per character does not grow with the URI (a backtracking matcher's would).
      expect(perCharacter[2]! / perCharacter[0]!, template).toBeLessThan(1.01);
    }
  });

  it("reads back what it expands: match(expand(x)) is x for values without delimiters", () => {
    const value = fc
      .string({ unit: "grapheme", maxLength: 12 })
      .filter((s) => !/[-./?#%\\\0]/.test(s));
    const templates = [
      new UriTemplate(DATA),
      new UriTemplate(LOG),
      new UriTemplate("x://{a}/{+b}{?c,d}"),
    ];
    fc.assert(
      fc.property(fc.record({ a: value, b: value, c: value, d: value }), (v) => {
        const [data, log, mixed] = templates;
        const all = { ...v, service: v.a, date: v.b, level: v.c };
        expect(data!.match(data!.expand(all))).toEqual({ a: v.a, b: v.b, c: v.c, d: v.d });
        expect(log!.match(log!.expand(all))).toEqual({ service: v.a, date: v.b, level: v.c });
        expect(mixed!.match(mixed!.expand(all))).toEqual(v);
      }),
    );
  });

  it("splits an ambiguous URI the documented way: earlier expressions first, {x} greedy, {+x} lazy", () => {
    expect(new UriTemplate(LOG).match("log://api-2026-01-02-error.log")).toEqual({
      service: "api-2026-01",
      date: "02",
      level: "error",
    });
    expect(new UriTemplate("f://{+a}.{+b}").match("f://1.2.3")).toEqual({ a: "1", b: "2.3" });
    expect(new UriTemplate("f://{+path}.json").match("f://a.json.json")).toEqual({
      path: "a.json",
    });
    expect(new UriTemplate("file:///{+path}{?rev}").match("file:///a/b?rev=2")).toEqual({
      path: "a/b",
      rev: "2",
    });
  });

  it("refuses a URI longer than its cap (8192 by default), at once", () => {
    const t = new UriTemplate("file:///{+path}", { maxUriLength: 20 });
    expect(t.match("file:///123456789012")).toEqual({ path: "123456789012" });
    expect(t.match("file:///1234567890123")).toBeUndefined();
    expect(MAX_MATCHED_URI_LENGTH).toBe(8192);
    expect(() => new UriTemplate("x{a}", { maxUriLength: 0 })).toThrow(
      "maxUriLength must be a positive integer",
    );
  });
});

describe("UriTemplate.match: values checked after decoding", () => {
  const name = new UriTemplate("note://{name}");
  const path = new UriTemplate("file:///{+path}");

  it("{name}: no '/', '?', '#', '\\', NUL or '..', encoded or not", () => {
    for (const bad of [
      "..%2F..%2Fetc%2Fpasswd",
      "a%3Fb",
      "a%23b",
      "a%5Cb",
      "a%00b",
      "..",
      "%2E%2E",
    ])
      expect(name.match(`note://${bad}`), bad).toBeUndefined();
    expect(name.match("note://a.b%20c")).toEqual({ name: "a.b c" });
    expect(name.match("note://...")).toEqual({ name: "..." });
  });

  it("{+path} and {#x}, {/x}, {.x}: no '..' segment and no NUL, unless the template allows them", () => {
    for (const bad of ["../../etc/passwd", "a/%2E%2E/b", "a/..", "a\\..\\b", "a%00b", "%2e%2e%5Cx"])
      expect(path.match(`file:///${bad}`), bad).toBeUndefined();
    expect(new UriTemplate("x{#f}").match("x#a/../b")).toBeUndefined();
    expect(new UriTemplate("x{/seg*}").match("x/a/../b")).toBeUndefined();
    expect(new UriTemplate("x{/seg}").match("x/%2E%2E")).toBeUndefined();
    expect(new UriTemplate("x{.ext}").match("x.%2E%2E")).toBeUndefined();
    expect(path.match("file:///a/..b/c.d/.../e")).toEqual({ path: "a/..b/c.d/.../e" });

    const lax = new UriTemplate("file:///{+path}", { allow: { dotSegments: true, nul: true } });
    expect(lax.match("file:///../etc%00")).toEqual({ path: "../etc\0" });
    const dots = new UriTemplate("note://{name}", { allow: { dotSegments: true, nul: true } });
    expect(dots.match("note://..")).toEqual({ name: ".." });
    expect(dots.match("note://a%00")).toBeUndefined();
    expect(dots.match("note://a%2Fb")).toBeUndefined();
  });

  it("{?q}, {&q}, {;q}: NUL refused unless allowed; '..' is text there", () => {
    const search = new UriTemplate("s://docs{?q}{&r}");
    expect(search.match("s://docs?q=a%00")).toBeUndefined();
    expect(search.match("s://docs?q=../x&r=..")).toEqual({ q: "../x", r: ".." });
    const lax = new UriTemplate("s://docs{?q}", { allow: { nul: true } });
    expect(lax.match("s://docs?q=a%00")).toEqual({ q: "a\0" });
  });
});
