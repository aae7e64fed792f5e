import { describe, expect, expectTypeOf, it } from "vitest";
import {
  MAX_MATCHED_URI_LENGTH,
  UriTemplate,
  type TemplateVariables,
} from "../src/core/uri-template.js";

// RFC 6570: expansion checked on the RFC's own examples (section 3.2, the variables of 3.2.1;
// the associative array `keys` left out: templates here expand lists, not maps), then
// matching, its inverse, on the same examples where the RFC's expansion can be read back.

const VARIABLES = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
  empty_list: [],
  undef: undefined,
};

// [template, expansion], section by section.
const RFC_EXAMPLES: Record<string, [string, string][]> = {
  "3.2.2 simple string expansion": [
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{half}", "50%25"],
    ["O{empty}X", "OX"],
    ["O{undef}X", "OX"],
    ["{x,y}", "1024,768"],
    ["{x,hello,y}", "1024,Hello%20World%21,768"],
    ["?{x,empty}", "?1024,"],
    ["?{x,undef}", "?1024"],
    ["?{undef,y}", "?768"],
    ["{var:3}", "val"],
    ["{var:30}", "value"],
    ["{list}", "red,green,blue"],
    ["{list*}", "red,green,blue"],
  ],
  "3.2.3 reserved expansion": [
    ["{+var}", "value"],
    ["{+hello}", "Hello%20World!"],
    ["{+half}", "50%25"],
    ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
    ["{+base}index", "http://example.com/home/index"],
    ["O{+empty}X", "OX"],
    ["O{+undef}X", "OX"],
    ["{+path}/here", "/foo/bar/here"],
    ["here?ref={+path}", "here?ref=/foo/bar"],
    ["up{+path}{var}/here", "up/foo/barvalue/here"],
    ["{+x,hello,y}", "1024,Hello%20World!,768"],
    ["{+path,x}/here", "/foo/bar,1024/here"],
    ["{+path:6}/here", "/foo/b/here"],
    ["{+list}", "red,green,blue"],
    ["{+list*}", "red,green,blue"],
  ],
  "3.2.4 fragment expansion": [
    ["{#var}", "#value"],
    ["{#hello}", "#Hello%20World!"],
    ["{#half}", "#50%25"],
    ["foo{#empty}", "foo#"],
    ["foo{#undef}", "foo"],
    ["{#x,hello,y}", "#1024,Hello%20World!,768"],
    ["{#path,x}/here", "#/foo/bar,1024/here"],
    ["{#path:6}/here", "#/foo/b/here"],
    ["{#list}", "#red,green,blue"],
    ["{#list*}", "#red,green,blue"],
  ],
  "3.2.5 label expansion with dot-prefix": [
    ["{.who}", ".fred"],
    ["{.who,who}", ".fred.fred"],
    ["{.half,who}", ".50%25.fred"],
    ["www{.dom*}", "www.example.com"],
    ["X{.var}", "X.value"],
    ["X{.empty}", "X."],
    ["X{.undef}", "X"],
    ["X{.var:3}", "X.val"],
    ["X{.list}", "X.red,green,blue"],
    ["X{.list*}", "X.red.green.blue"],
  ],
  "3.2.6 path segment expansion": [
    ["{/who}", "/fred"],
    ["{/who,who}", "/fred/fred"],
    ["{/half,who}", "/50%25/fred"],
    ["{/who,dub}", "/fred/me%2Ftoo"],
    ["{/var}", "/value"],
    ["{/var,empty}", "/value/"],
    ["{/var,undef}", "/value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{/var:1,var}", "/v/value"],
    ["{/list}", "/red,green,blue"],
    ["{/list*}", "/red/green/blue"],
    ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
  ],
  "3.2.7 path-style parameter expansion": [
    ["{;who}", ";who=fred"],
    ["{;half}", ";half=50%25"],
    ["{;empty}", ";empty"],
    ["{;v,empty,who}", ";v=6;empty;who=fred"],
    ["{;v,bar,who}", ";v=6;who=fred"],
    ["{;x,y}", ";x=1024;y=768"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{;x,y,undef}", ";x=1024;y=768"],
    ["{;hello:5}", ";hello=Hello"],
    ["{;list}", ";list=red,green,blue"],
    ["{;list*}", ";list=red;list=green;list=blue"],
  ],
  "3.2.8 form-style query expansion": [
    ["{?who}", "?who=fred"],
    ["{?half}", "?half=50%25"],
    ["{?x,y}", "?x=1024&y=768"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["{?x,y,undef}", "?x=1024&y=768"],
    ["{?var:3}", "?var=val"],
    ["{?list}", "?list=red,green,blue"],
    ["{?list*}", "?list=red&list=green&list=blue"],
  ],
  "3.2.9 form-style query continuation": [
    ["{&who}", "&who=fred"],
    ["{&half}", "&half=50%25"],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{&x,y,empty}", "&x=1024&y=768&empty="],
    ["{&var:3}", "&var=val"],
    ["{&list}", "&list=red,green,blue"],
    ["{&list*}", "&list=red&list=green&list=blue"],
  ],
};

describe("UriTemplate.expand: RFC 6570's examples", () => {
  for (const [section, examples] of Object.entries(RFC_EXAMPLES))
    it(section, () => {
      for (const [template, expected] of examples)
        expect(new UriTemplate(template).expand(VARIABLES), template).toBe(expected);
    });

  it("level 1 to 3 examples of section 1.2", () => {
    const vars = { var: "value", hello: "Hello World!", path: "/foo/bar", empty: "" };
    const cases: [string, string][] = [
      ["{var}", "value"],
      ["{hello}", "Hello%20World%21"],
      ["{+var}", "value"],
      ["{+hello}", "Hello%20World!"],
      ["{+path}/here", "/foo/bar/here"],
      ["here?ref={+path}", "here?ref=/foo/bar"],
      ["X{#var}", "X#value"],
      ["X{#hello}", "X#Hello%20World!"],
      ["map?{x,y}", "map?1024,768"],
      ["{x,hello,y}", "1024,Hello%20World%21,768"],
      ["{+x,hello,y}", "1024,Hello%20World!,768"],
      ["{+path,x}/here", "/foo/bar,1024/here"],
      ["{#x,hello,y}", "#1024,Hello%20World!,768"],
      ["X{.x,y}", "X.1024.768"],
      ["{/var,x}/here", "/value/1024/here"],
      ["{;x,y,empty}", ";x=1024;y=768;empty"],
      ["{?x,y,empty}", "?x=1024&y=768&empty="],
      ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
      ["{&x,y,empty}", "&x=1024&y=768&empty="],
    ];
    for (const [template, expected] of cases)
      expect(new UriTemplate(template).expand({ ...vars, x: "1024", y: "768" }), template).toBe(
        expected,
      );
  });

  it("encodes non-ASCII as UTF-8, and passes percent triplets through only in {+x}", () => {
    expect(new UriTemplate("{x}").expand({ x: "é/%41" })).toBe("%C3%A9%2F%2541");
    expect(new UriTemplate("{+x}").expand({ x: "é/%41" })).toBe("%C3%A9/%41");
  });
});

describe("UriTemplate.match: the RFC's examples read back", () => {
  // [template, uri, the variables read]: every variable the expansion shows, and no other.
  const cases: [string, string, Record<string, string | string[]>][] = [
    ["{var}", "value", { var: "value" }],
    ["{hello}", "Hello%20World%21", { hello: "Hello World!" }],
    ["{half}", "50%25", { half: "50%" }],
    ["O{empty}X", "OX", { empty: "" }],
    ["{x,y}", "1024,768", { x: "1024", y: "768" }],
    ["{x,hello,y}", "1024,Hello%20World%21,768", { x: "1024", hello: "Hello World!", y: "768" }],
    ["?{x,empty}", "?1024,", { x: "1024", empty: "" }],
    ["{list*}", "red,green,blue", { list: ["red", "green", "blue"] }],
    ["{+hello}", "Hello%20World!", { hello: "Hello World!" }],
    ["{+base}index", "http://example.com/home/index", { base: "http://example.com/home/" }],
    ["{+path}/here", "/foo/bar/here", { path: "/foo/bar" }],
    ["here?ref={+path}", "here?ref=/foo/bar", { path: "/foo/bar" }],
    ["{+path,x}/here", "/foo/bar,1024/here", { path: "/foo/bar", x: "1024" }],
    ["{#var}", "#value", { var: "value" }],
    ["{#path,x}/here", "#/foo/bar,1024/here", { path: "/foo/bar", x: "1024" }],
    ["{.who,who}", ".fred.fred", { who: "fred" }],
    ["{.half,who}", ".50%25.fred", { half: "50%", who: "fred" }],
    ["www{.dom*}", "www.example.com", { dom: ["example", "com"] }],
    ["X{.list*}", "X.red.green.blue", { list: ["red", "green", "blue"] }],
    ["{/who,dub}", "/fred/me%2Ftoo", { who: "fred", dub: "me/too" }],
    ["{/var,empty}", "/value/", { var: "value", empty: "" }],
    ["{/var,x}/here", "/value/1024/here", { var: "value", x: "1024" }],
    ["{/var:1,var}", "/v/value", { var: "value" }],
    ["{/list*}", "/red/green/blue", { list: ["red", "green", "blue"] }],
    ["{/list*,path:4}", "/red/green/blue/%2Ffoo", { list: ["red", "green", "blue"], path: "/foo" }],
    ["{;v,empty,who}", ";v=6;empty;who=fred", { v: "6", empty: "", who: "fred" }],
    ["{;v,bar,who}", ";v=6;who=fred", { v: "6", who: "fred" }],
    ["{;list*}", ";list=red;list=green;list=blue", { list: ["red", "green", "blue"] }],
    ["{?x,y,empty}", "?x=1024&y=768&empty=", { x: "1024", y: "768", empty: "" }],
    ["{?x,y,undef}", "?x=1024&y=768", { x: "1024", y: "768" }],
    ["{?list}", "?list=red,green,blue", { list: "red,green,blue" }],
    ["{?list*}", "?list=red&list=green&list=blue", { list: ["red", "green", "blue"] }],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024", { x: "1024" }],
    ["{&x,y,empty}", "&x=1024&y=768&empty=", { x: "1024", y: "768", empty: "" }],
  ];
  for (const [template, uri, variables] of cases)
    it(`${template} reads ${uri}`, () => {
      expect(new UriTemplate(template).match(uri)).toEqual(variables);
    });

  it("reads back what it expands, for the templates MCP servers use", () => {
    const vars = { path: "src/a b/ü.ts", q: "x&y=z", limit: "5", tags: ["a,b", "c"] };
    for (const template of [
      "file:///{+path}",
      "search://docs{?q,limit}",
      "notes://{q}/{limit}",
      "tags://all{?tags*}",
      "files{/tags*}",
    ]) {
      const t = new UriTemplate(template);
      const expanded = t.expand(vars);
      const names = new Set(t.variableNames);
      const expected = Object.fromEntries(Object.entries(vars).filter(([k]) => names.has(k)));
      expect(t.match(expanded), `${template} -> ${expanded}`).toEqual(expected);
    }
  });
});

describe("UriTemplate.match: what does not match", () => {
  it("a simple variable takes no '/', a required one must be there, an undeclared query name fails", () => {
    expect(new UriTemplate("file:///{name}").match("file:///a/b")).toBeUndefined();
    expect(new UriTemplate("file:///{+name}").match("file:///a/b")).toEqual({ name: "a/b" });
    expect(new UriTemplate("x{/a}").match("x")).toBeUndefined();
    expect(new UriTemplate("x{/a,b}").match("x/1")).toBeUndefined();
    expect(new UriTemplate("x{/a}").match("x/1/2")).toBeUndefined();
    expect(new UriTemplate("s{?q}").match("s?z=1")).toBeUndefined();
    expect(new UriTemplate("s{?q}").match("s?q=1&q=2")).toBeUndefined();
    expect(new UriTemplate("s{?q}").match("s")).toEqual({});
    expect(new UriTemplate("s{?q,n}").match("s?n=2&q=1")).toEqual({ q: "1", n: "2" });
    expect(new UriTemplate("note://{id}").match("other://1")).toBeUndefined();
  });

  it("refuses a malformed escape and an over-long URI", () => {
    expect(new UriTemplate("{x}").match("%E0%A4%A")).toBeUndefined();
    const t = new UriTemplate("file:///{+path}");
    expect(t.match(`file:///${"a".repeat(MAX_MATCHED_URI_LENGTH)}`)).toBeUndefined();
    expect(t.match(`file:///${"a".repeat(100)}`)).toEqual({ path: "a".repeat(100) });
  });

  it("takes regular-expression characters in literals literally", () => {
    const t = new UriTemplate("a.b+(c)/{x}");
    expect(t.match("a.b+(c)/1")).toEqual({ x: "1" });
    expect(t.match("aXb+(c)/1")).toBeUndefined();
  });

  it("throws a clear TypeError for a malformed template", () => {
    expect(() => new UriTemplate("file:///{path")).toThrow('"{" is not closed');
    expect(() => new UriTemplate("file:///path}")).toThrow('"}" without "{"');
    expect(() => new UriTemplate("x{!a}")).toThrow('uses the reserved operator "!"');
    expect(() => new UriTemplate("x{a b}")).toThrow('invalid variable name "a b"');
    expect(() => new UriTemplate("x{}")).toThrow('invalid variable name ""');
    expect(new UriTemplate("a{b}{/c*}{?d}").variableNames).toEqual(["b", "c", "d"]);
  });
});

describe("UriTemplate.variableUses: how each expression uses each variable", () => {
  it("lists every use in template order, with its operator, explode and prefix", () => {
    const template = new UriTemplate("x://{var:3}/{var}{/path*}{?q,tags*}{#frag}");
    expect(template.variableUses).toEqual([
      { name: "var", operator: "", explode: false, prefix: 3 },
      { name: "var", operator: "", explode: false, prefix: undefined },
      { name: "path", operator: "/", explode: true, prefix: undefined },
      { name: "q", operator: "?", explode: false, prefix: undefined },
      { name: "tags", operator: "?", explode: true, prefix: undefined },
      { name: "frag", operator: "#", explode: false, prefix: undefined },
    ]);
    expect(template.variableNames).toEqual(["var", "path", "q", "tags", "frag"]);
    expect(new UriTemplate("fixed://one").variableUses).toEqual([]);
  });
});

describe("TemplateVariables: the variables read from the template literal", () => {
  it("a string per path variable, optional ones per query variable, lists for exploded ones", () => {
    expectTypeOf<TemplateVariables<"file:///{path}">>().toEqualTypeOf<{
      readonly path: string;
    }>();
    expectTypeOf<TemplateVariables<"file:///{+path}{?q,limit}">>().toEqualTypeOf<{
      readonly path: string;
      readonly q?: string;
      readonly limit?: string;
    }>();
    expectTypeOf<TemplateVariables<"x{/segments*}{.ext}{#frag:3}{&tags*}">>().toEqualTypeOf<{
      readonly segments: string[];
      readonly ext: string;
      readonly frag: string;
      readonly tags: string[];
    }>();
    expectTypeOf<keyof TemplateVariables<"static://none">>().toEqualTypeOf<never>();
    expectTypeOf<TemplateVariables<string>>().toEqualTypeOf<{
      readonly [name: string]: string | string[] | undefined;
    }>();
  });

  it("refuses a name the template does not declare (checked by tsc: npm run typecheck)", () => {
    const misuse = (vars: TemplateVariables<"file:///{path}">) => [
      // @ts-expect-error -- `name` is not a variable of the template
      vars.name,
      // @ts-expect-error -- `path` is a string, not a list
      vars.path.map((p: string) => p),
    ];
    expectTypeOf(misuse).parameter(0).not.toHaveProperty("name");
  });
});
