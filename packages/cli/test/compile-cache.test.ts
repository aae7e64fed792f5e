import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import nodeModule from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, SPEC_DIR, tempDir } from "./helpers.js";

// On Node 20 the CLI keeps V8's code cache of the TypeScript compiler itself
// (packages/cli/src/cli/compile-cache.ts); Node 22.1+ has its own, which the CLI turns on instead.
const ownCache = !("enableCompileCache" in nodeModule);

/** `mcp-gen generate` in a fresh process whose temp folder is `tmp`; returns what it wrote to types.ts. */
function generate(tmp: string, out: string): string {
  const r = spawnSync(
    process.execPath,
    [
      CLI,
      "generate",
      "--spec",
      SPEC_DIR,
      "--revision",
      "2026-07-28",
      "--generators",
      "types",
    ].concat(["--out", out]),
    { encoding: "utf8", env: { ...process.env, TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: "" } },
  );
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return readFileSync(join(out, "types.ts"), "utf8");
}

const cacheFolder = (tmp: string) =>
  join(tmp, `mcp-gen-compile-cache-${process.getuid!()}`, `${process.version}-${process.arch}`);

describe.runIf(ownCache && process.getuid)("the compile cache on Node 20", () => {
  it("is written by the first run, read by the next, and a damaged one is replaced", () => {
    const tmp = tempDir();
    const first = generate(tmp, join(tmp, "out1"));
    const files = readdirSync(cacheFolder(tmp)).map((name) => join(cacheFolder(tmp), name));
    // typescript.js and the CLI's own bundle (dist/cli/bundle.cjs) are the CommonJS modules
    // big enough to be worth a cache.
    expect(files).toHaveLength(2);
    const written = files.map((file) => {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(file).size).toBeGreaterThan(100_000);
      return statSync(file).mtimeMs;
    });

    expect(generate(tmp, join(tmp, "out2"))).toBe(first);
    expect(files.map((file) => statSync(file).mtimeMs)).toEqual(written);

    // V8 refuses data that is not its own: the run compiles from source and writes a new cache.
    for (const file of files) writeFileSync(file, Buffer.alloc(4096, 7));
    expect(generate(tmp, join(tmp, "out3"))).toBe(first);
    for (const file of files) expect(statSync(file).size).toBeGreaterThan(100_000);
  });

  it("is not used in a folder others can write (their code would run)", () => {
    const tmp = tempDir();
    generate(tmp, join(tmp, "out1"));
    const folder = cacheFolder(tmp);
    const [name] = readdirSync(folder);
    chmodSync(folder, 0o777);
    writeFileSync(join(folder, name!), Buffer.alloc(4096, 7));
    generate(tmp, join(tmp, "out2"));
    // Neither read nor rewritten.
    expect(statSync(join(folder, name!)).size).toBe(4096);
  });
});
