import { describe, expect, it } from "vitest";
import { defineResources, resourceTemplate } from "../src/server/resources.js";

// resources/read and the URIs a client sends (issue 35, F2 and F8): a URI over the table's
// cap is refused with -32602 saying so, before any template is tried; values a template does
// not allow are "not found", as any URI nothing serves (2026-07-28 server/resources, "Error
// Handling": -32602 for a resource that does not exist).

type Any = any;
const ctx = {} as Any;
const echo = (uri: string, variables: unknown) => ({
  contents: [{ uri, text: JSON.stringify(variables) }],
});
const note = resourceTemplate({
  template: { uriTemplate: "note://{name}", name: "note" },
  read: echo,
});
const file = resourceTemplate({
  template: { uriTemplate: "file:///{+path}", name: "file" },
  read: echo,
});
const raw = resourceTemplate({
  template: { uriTemplate: "raw:///{+path}", name: "raw" },
  allow: { dotSegments: true },
  read: echo,
});
const long = `file:///${"a".repeat(9000)}`;
const fixed = { resource: { uri: long, name: "long" }, read: (uri: string) => echo(uri, {}) };

describe("resources/read: the URI's length and values", () => {
  const read = (uri: string, options = {}) =>
    defineResources([fixed, note, file, raw], options).handlers["resources/read"]({ uri }, ctx);

  it("refuses a URI over maxUriLength (8192 by default) with -32602 naming the cap", async () => {
    await expect(read(`file:///${"b".repeat(8185)}`)).rejects.toMatchObject({
      code: -32602,
      message: "Resource URI too long: 8193 characters, at most 8192 (maxUriLength)",
      data: { maxUriLength: 8192 },
    });
    expect(await read(`file:///${"b".repeat(8184)}`)).toMatchObject({ contents: [{}] });
    await expect(read("file:///abcd", { maxUriLength: 10 })).rejects.toMatchObject({
      code: -32602,
      data: { maxUriLength: 10 },
    });
    // A static resource is looked up whole, whatever its length.
    expect(await read(long)).toMatchObject({ contents: [{ uri: long }] });
    for (const bad of [0, -1, 1.5, Infinity, "8192"])
      expect(() => defineResources([note], { maxUriLength: bad as Any })).toThrow(
        "defineResources: maxUriLength must be a positive integer",
      );
  });

  it("answers 'not found' for a value its template does not allow, unless the entry allows it", async () => {
    for (const uri of ["note://..%2F..%2Fetc%2Fpasswd", "note://a%00", "file:///../etc/passwd"])
      await expect(read(uri), uri).rejects.toMatchObject({
        code: -32602,
        message: `Resource ${uri} not found`,
        data: { uri },
      });
    expect(await read("raw:///a/../b")).toEqual({
      contents: [{ uri: "raw:///a/../b", text: '{"path":"a/../b"}' }],
    });
    expect(await read("note://a%20b")).toEqual({
      contents: [{ uri: "note://a%20b", text: '{"name":"a b"}' }],
    });
  });
});
