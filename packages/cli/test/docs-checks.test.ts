// The docs build's own checks refuse what they exist to refuse: code written in a page
// rather than included from examples/, an include of a file or region that does not exist,
// a built page linking to a page, asset or anchor that is not there, and a page naming a
// path or package the tree does not have.
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { brokenLinks } from "../../../tooling/docs/check-links.mjs";
import { checkNames, nameProblems, readTree } from "../../../tooling/docs/check-names.mjs";
import { checkSnippets, snippetProblems } from "../../../tooling/docs/check-snippets.mjs";
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

describe("the name check", () => {
  it("passes the docs as they are", () => {
    expect(() => checkNames()).not.toThrow();
  });

  it("fails on a stale name planted in a copy of the docs, naming file, line and name", () => {
    // The tree as it is, with docs/ and README.md copied so that a line can be added to them.
    const root = tempDir("mcp-gen-names-");
    for (const name of readdirSync(ROOT))
      if (name !== "docs" && name !== "README.md") symlinkSync(join(ROOT, name), join(root, name));
    cpSync(join(ROOT, "README.md"), join(root, "README.md"));
    cpSync(DOCS, join(root, "docs"), {
      recursive: true,
      filter: (from) => !/[/\\](node_modules|\.vitepress)$/.test(from),
    });
    const plant = (file: string, line: string) => {
      appendFileSync(join(root, file), `\n${line}\n`);
      return `${file}:${readFileSync(join(root, file), "utf8").split("\n").length - 1}`;
    };
    const page = plant(
      "docs/guide/get-started.md",
      "Then edit `generators/gone.ts` and import `@mcp-gen/runtime/nope`.",
    );
    const readme = plant("README.md", "See [the old guide](docs/guide/gone.md).");
    expect(() => checkNames(root)).toThrow(
      new Error(
        [
          "names in the docs that the tree does not have:",
          `${page}: generators/gone.ts: no such file or folder in the repository`,
          `${page}: @mcp-gen/runtime/nope: @mcp-gen/runtime exports no nope`,
          `${readme}: link docs/guide/gone.md: no such file or page (docs/guide/gone.md)`,
        ].join("\n"),
      ),
    );
  });

  it("checks what names the tree and leaves project paths, placeholders and commands alone", () => {
    const text = [
      "`packages/runtime/src/gone.ts:12` `examples/*/server.ts` `test/zz*.test.ts` `.ci/run`",
      "`npm i left-pad@1` `npm install redis` `@mcp-gen/runtime/redis` `@x/y@2/z` `@mcp-gen/cli@next`",
      "`src/handlers.ts` `dist/stdio.js` `./mcp/x.js` `schema/<revision>/schema.ts` `a/b` `vitest.config.ts`",
      "[a](../../examples/nope.md) [b](./limits) [c](https://x.y/z) [d](#q) [e](/guide/eras) [f](/guide/no#x)",
      "```sh",
      "`generators/gone.ts` in a fenced block",
      "```",
    ].join("\n");
    expect(nameProblems(join(DOCS, "reference", "x.md"), text)).toEqual([
      "docs/reference/x.md:1: packages/runtime/src/gone.ts: no such file or folder in the repository",
      "docs/reference/x.md:1: test/zz*.test.ts: no such file or folder in the repository",
      "docs/reference/x.md:2: left-pad: no package.json of the repository names this package (add it to KNOWN_PACKAGES in tooling/docs/check-names.mjs if the docs mean it)",
      "docs/reference/x.md:2: @x/y: no package.json of the repository names this package (add it to KNOWN_PACKAGES in tooling/docs/check-names.mjs if the docs mean it)",
      "docs/reference/x.md:4: link ../../examples/nope.md: no such file or page (examples/nope.md)",
      "docs/reference/x.md:4: link /guide/no#x: no such file or page (docs/guide/no)",
    ]);
  });

  it("checks a path under a folder that moved into a workspace package, from the root", () => {
    const root = tempDir("mcp-gen-moved-");
    mkdirSync(join(root, "packages", "cli", "generators"), { recursive: true });
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ workspaces: ["packages/*"] }));
    writeFileSync(join(root, "packages", "cli", "generators", "printer.ts"), "");
    const text = "`generators/printer.ts` moved to `packages/cli/generators/printer.ts`";
    expect(nameProblems(join(root, "docs", "x.md"), text, readTree(root))).toEqual([
      "docs/x.md:1: generators/printer.ts: no such file or folder in the repository",
    ]);
  });

  it("the README maps every top-level folder of the tree, one line each", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const mapped = [...readme.matchAll(/^\| `([^`]+)`\s*\|/gm)].map((m) => m[1] ?? "");
    const tracked = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((path) => path.includes("/"))
      .map((path) => path.split("/")[0]!);
    for (const folder of new Set(tracked)) {
      const rows = mapped.filter((name) => name === folder || name.startsWith(`${folder}/`));
      expect(rows.length, `README map row for ${folder}/`).toBeGreaterThan(0);
    }
  });
});
