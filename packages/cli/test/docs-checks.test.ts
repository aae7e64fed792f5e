// The docs build's own checks refuse what they exist to refuse: code written in a page
// rather than included from examples/, an include of a file or region that does not exist,
// and a built page linking to a page, asset or anchor that is not there.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { brokenLinks } from "../../../tools/docs/check-links.mjs";
import { checkSnippets, snippetProblems } from "../../../tools/docs/check-snippets.mjs";
import { ROOT, tempDir } from "./helpers.js";

const DOCS = join(ROOT, "docs");
const page = join(DOCS, "guide", "x.md");

describe("the snippet check", () => {
  it("passes the docs as they are", () => {
    expect(() => checkSnippets()).not.toThrow();
  });

  it("refuses code written in a page, and includes of missing files or regions", () => {
    const text = [
      "# X",
      "```ts",
      "const a = 1;",
      "```",
      "```sh",
      "npm test",
      "```",
      "```json",
      "{}",
      "```",
      "```python",
      "print(1)",
      "```",
      "<<< @/../examples/hello-server/server.ts#tools",
      "<<< @/../examples/hello-server/server.ts#nowhere",
      "<<< @/../examples/hello-server/gone.ts",
      "<<< @/../package.json",
      "<<< ../examples/hello-server/server.ts",
    ].join("\n");
    expect(snippetProblems(page, text, DOCS)).toEqual([
      "docs/guide/x.md:2: a `ts` block written in the page; include it from a file under examples/ (<<< @/../examples/...)",
      "docs/guide/x.md:8: a `json` block written in the page; include it from a file under examples/ (<<< @/../examples/...)",
      "docs/guide/x.md:11: a `python` block: only commands and output (sh, console, text) may be written in place",
      "docs/guide/x.md:15: include @/../examples/hello-server/server.ts#nowhere: examples/hello-server/server.ts has no region 'nowhere'",
      "docs/guide/x.md:16: include @/../examples/hello-server/gone.ts: no such file",
      "docs/guide/x.md:17: include @/../package.json: code shown in the docs comes from examples/",
      "docs/guide/x.md:18: include ../examples/hello-server/server.ts: name it from the docs root (<<< @/../examples/...)",
    ]);
    // A fence inside a longer fence is text, and an unclosed block is named.
    expect(snippetProblems(page, "````text\n```ts\nx\n```\n````\n", DOCS)).toEqual([]);
    expect(snippetProblems(page, "```sh\nnpm test\n", DOCS)).toEqual([
      "docs/guide/x.md: a code block that never closes",
    ]);
  });
});

describe("the link check on the built site", () => {
  it("finds links to missing pages, files and anchors, and passes good ones", () => {
    const dist = tempDir("mcp-gen-dist-");
    mkdirSync(join(dist, "guide"));
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "assets", "app.js"), "");
    writeFileSync(
      join(dist, "index.html"),
      '<h1 id="top">Home</h1><a href="/guide/a">a</a><a href="/guide/a#part">part</a>' +
        '<a href="#top">top</a><script src="/assets/app.js"></script><a href="https://example.com/x">out</a>',
    );
    writeFileSync(
      join(dist, "guide", "a.html"),
      '<h2 id="part">Part</h2><a href="./b">b</a><a href="../#nowhere">home</a>' +
        '<img src="/assets/logo.png"><a href="/guide/a#part">self</a>',
    );
    expect(brokenLinks(dist)).toEqual({
      pages: 2,
      broken: [
        'guide/a.html: href="./b" (no such page or file)',
        'guide/a.html: href="../#nowhere" (no #nowhere in index.html)',
        'guide/a.html: src="/assets/logo.png" (no such page or file)',
      ],
    });
  });
});
