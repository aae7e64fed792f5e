import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { generatedFiles, importGenerated } from "./helpers.js";

// The generated format checks must give ajv-formats' verdicts, including on strings long
// enough that mcp-gen takes its overflow-safe path (over 1,024 characters).

type Validators = Record<string, (value: unknown) => boolean>;
let v: Validators;
beforeAll(async () => {
  v = await importGenerated<Validators>(await generatedFiles("2026-07-28"), "validators.js");
});

const SEED = Number(process.env["FC_SEED"] ?? 20261130);

/** ajv-formats' own check, or undefined where its regex overflows. */
function reference(format: "uri" | "uri-template" | "byte", s: string): boolean | undefined {
  const f = fullFormats[format] as RegExp | ((s: string) => boolean);
  try {
    if (typeof f === "function") return f(s);
    f.lastIndex = 0;
    return f.test(s);
  } catch {
    return undefined;
  }
}

const uriChars = fc.constantFrom(
  ..."abcXYZ019-._~!$&'()*+,;=:@/?#%[]{} \"<>\\^`|".split(""),
  "%20",
  "%zz",
  "http://",
  "//",
  "::1",
  "1.2.3.4",
);
const templateChars = fc.constantFrom(
  ...'abZ09_-./:?{}%,*+#;=&|!@ "<>'.split(""),
  "{x}",
  "{+path}",
  "{?q,page}",
  "{x:3}",
  "%41",
  "%g1",
);

/** Short strings, and the same strings with long runs spliced in (past the 1,024 threshold). */
function strings(chars: fc.Arbitrary<string>, prefixes: string[]) {
  const short = fc
    .tuple(fc.constantFrom(...prefixes), fc.array(chars, { maxLength: 30 }))
    .map(([p, cs]) => p + cs.join(""));
  const long = fc
    .tuple(
      short,
      fc.nat({ max: 40 }),
      fc.constantFrom("a", "a-", "0", "x_", "%41", "{v}", "ab/"),
      fc.integer({ min: 400, max: 2000 }),
    )
    .map(([s, at, run, n]) => s.slice(0, at) + run.repeat(n) + s.slice(at));
  return fc.oneof(short, long);
}

describe("format checks agree with ajv-formats", () => {
  it("uri", () => {
    fc.assert(
      fc.property(
        strings(uriChars, [
          "",
          "http://",
          "https://user@host:8080/",
          "file:///",
          "urn:",
          "a:",
          "http://[::1]/",
          "1http:",
        ]),
        (s) => {
          const expected = reference("uri", s);
          return expected === undefined || v["isResourceContents"]!({ uri: s }) === expected;
        },
      ),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it("uri-template", () => {
    fc.assert(
      fc.property(strings(templateChars, ["", "file:///", "https://example.com/", "{"]), (s) => {
        const expected = reference("uri-template", s);
        return (
          expected === undefined ||
          v["isResourceTemplate"]!({ name: "t", uriTemplate: s }) === expected
        );
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it("byte", () => {
    const base64ish = fc
      .array(fc.constantFrom(..."QUJDabc+/=\n !".split("")), { maxLength: 40 })
      .map((cs) => cs.join(""));
    fc.assert(
      fc.property(
        base64ish,
        (s) =>
          v["isImageContent"]!({ type: "image", data: s, mimeType: "image/png" }) ===
          reference("byte", s),
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it("a 10 MB URI and template are checked without overflowing", () => {
    const big = "a".repeat(10 * 1024 * 1024);
    expect(v["isResourceContents"]!({ uri: `https://example.com/${big}?q=${big}#${big}` })).toBe(
      true,
    );
    expect(v["isResourceContents"]!({ uri: `https://exa mple.com/${big}` })).toBe(false);
    expect(
      v["isResourceTemplate"]!({ name: "t", uriTemplate: `https://example.com/${big}/{id}` }),
    ).toBe(true);
    expect(
      v["isResourceTemplate"]!({ name: "t", uriTemplate: `https://example.com/${big}/{id` }),
    ).toBe(false);
    expect(v["isResourceTemplate"]!({ name: "t", uriTemplate: "%41".repeat(4_000_000) })).toBe(
      true,
    );
  });
});
