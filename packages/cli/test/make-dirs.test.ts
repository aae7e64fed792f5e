import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirs } from "../src/generators/output/make-dirs.js";
import { snapshotTree, SPEC_DIR, tempDir } from "./helpers.js";
import { runHere } from "./support/run-here.js";

// /proc answers mkdir with ENOENT under a folder that exists, where Node's recursive mkdir
// retries for ever: these tests hang (and time out) if that loop comes back.
const hasProc = existsSync("/proc/self");

describe("makeDirs: mkdirSync recursive without its endless retry", () => {
  it("makes the missing folders and returns the first it made, as mkdirSync does", () => {
    const top = tempDir();
    expect(makeDirs(join(top, "a", "b", "c"))).toBe(join(top, "a"));
    expect(statSync(join(top, "a", "b", "c")).isDirectory()).toBe(true);
    expect(makeDirs(join(top, "a", "b"))).toBeUndefined();
  });

  it("throws mkdir's own error where a file is in the way", () => {
    const top = tempDir();
    writeFileSync(join(top, "f"), "");
    expect(() => makeDirs(join(top, "f", "x"))).toThrow(/ENOTDIR/);
  });

  it.runIf(hasProc)(
    "fails, rather than looping, where the file system takes no new folders",
    () => {
      expect(() => makeDirs("/proc/mcp-gen-test/x")).toThrow(/ENOENT/);
    },
  );
});

describe.runIf(hasProc)("an output folder the file system refuses", () => {
  it("generate: one line naming the folder, exit 1", async () => {
    const r = await runHere(["generate", "--spec", SPEC_DIR, "--out", "/proc/mcp-gen-test"]);
    expect([r.status, r.stderr]).toEqual([
      1,
      "mcp-gen: could not write /proc/mcp-gen-test: /proc takes no new files or folders (ENOENT); the output was left as it was\n",
    ]);
  });

  // init generates js+dts before writing: TypeScript compiles its output (tagged `compile`).
  it("init: the same line", { tags: "compile" }, async () => {
    const r = await runHere(["init", "/proc/mcp-gen-test", "--spec", SPEC_DIR]);
    expect(r.stderr).toBe(
      "mcp-gen: could not write /proc/mcp-gen-test: /proc takes no new files or folders (ENOENT); the output was left as it was\n",
    );
    expect(r.status).toBe(1);
  });
});

describe("init failing part way", () => {
  // Tagged `compile`: init's js+dts output is compiled by TypeScript before the first write.
  it(
    "removes the files and folders it wrote, keeping the user's",
    { tags: "compile" },
    async () => {
      const dir = tempDir();
      // A file named src/test where init puts a folder: package.json, src/server.ts and the
      // rest are written first, then src/test/server.test.ts fails.
      mkdirSync(join(dir, "src"));
      writeFileSync(join(dir, "src", "test"), "mine\n");
      mkdirSync(join(dir, "notes"));
      writeFileSync(join(dir, "notes", "todo.md"), "mine too\n");
      const r = await runHere(["init", dir, "--spec", SPEC_DIR, "--force"]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /^mcp-gen: could not write .*: ENOTDIR: not a directory; the output was left as it was\n$/,
      );
      expect(snapshotTree(dir)).toEqual({ "src/test": "mine\n", "notes/todo.md": "mine too\n" });
    },
  );
});
