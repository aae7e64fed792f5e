import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { McpGenError } from "../src/schema/diagnostics.js";
import { loadRevision } from "../src/schema/index.js";
import type { TypeCheckElsewhere } from "../src/schema/type-check.js";
import { CLI, fakeSpec, snapshotTree, SPEC_DIR, tempDir } from "./helpers.js";

// `mcp-gen generate` runs tsc's check of the schema in a worker thread while it reads and
// generates (cli/type-check-thread.ts). What a user sees must not depend on it: the same
// error, first error first, nothing written, and the same output when the schema is sound.

const SOUND = readFileSync(join(SPEC_DIR, "schema", "2026-07-28", "schema.ts"), "utf8");

/** Schemas tsc refuses, each with the first error the reader would find after tsc's. */
const BROKEN = {
  // tsc alone objects: the redeclared property's type differs.
  "a type error only": `${SOUND}\nexport interface Tool {\n  name: number;\n}\n`,
  // tsc ("Cannot find name") and the reader's reference check ("unknown type") both object.
  "a type error and an unknown reference": `${SOUND}\nexport interface Extra {\n  x: Missing;\n}\n`,
};

function generate(spec: string, out: string, thread: boolean) {
  const r = spawnSync(
    process.execPath,
    [CLI, "generate", "--spec", spec, "--revision", "2030-01-01", "--out", out],
    {
      encoding: "utf8",
      env: { ...process.env, MCP_GEN_TYPE_CHECK_THREAD: thread ? "1" : "0" },
    },
  );
  return { status: r.status, stderr: r.stderr.replaceAll(out, "<out>") };
}

describe("the type check in a worker thread", { tags: "process" }, () => {
  for (const [name, schema] of Object.entries(BROKEN)) {
    it(`${name}: the same one line, tsc's, as in place; nothing written`, () => {
      const spec = fakeSpec(schema);
      const [inThread, inPlace] = [true, false].map((thread) => {
        const out = join(tempDir(), "out");
        const r = generate(spec, out, thread);
        expect(existsSync(out)).toBe(false);
        return r;
      });
      expect(inThread).toEqual(inPlace);
      expect(inThread!.status).toBe(1);
      expect(inThread!.stderr).toMatch(/^mcp-gen: \S+schema\.ts:\d+:\d+: error TS\d+: [^\n]+\n$/);
    });
  }

  it("a sound schema: the same files, byte for byte", () => {
    const spec = fakeSpec(SOUND);
    const [inThread, inPlace] = [true, false].map((thread) => {
      const out = join(tempDir(), "out");
      expect(generate(spec, out, thread)).toMatchObject({ status: 0 });
      return snapshotTree(out);
    });
    expect(Object.keys(inThread!).length).toBeGreaterThan(5);
    expect(inThread).toEqual(inPlace);
  });
});

describe("loadRevision with the check elsewhere", () => {
  const broken = (key: keyof typeof BROKEN) => fakeSpec(BROKEN[key]);
  const errorOf = (action: () => unknown) => {
    try {
      action();
    } catch (error) {
      return error as McpGenError;
    }
    throw new Error("no error");
  };

  it("an error found while the verdict is out waits for tsc's: tsc's comes first", () => {
    const spec = broken("a type error and an unknown reference");
    const never: TypeCheckElsewhere = () => new Promise(() => {});
    const inPlace = errorOf(() => loadRevision(spec, "2030-01-01"));
    const elsewhere = errorOf(() => loadRevision(spec, "2030-01-01", never));
    expect(inPlace.code).toBe("type-error");
    expect(elsewhere.message).toBe(inPlace.message);
  });

  it("a check elsewhere that fails is made in place: the verdict is tsc's all the same", async () => {
    const spec = broken("a type error only");
    const failing: TypeCheckElsewhere = () => Promise.reject(new Error("thread died"));
    const inPlace = errorOf(() => loadRevision(spec, "2030-01-01"));
    const loaded = loadRevision(spec, "2030-01-01", failing);
    await expect(loaded.typeChecked).rejects.toThrow(inPlace.message);
  });

  it("the verdict it is handed is the error, at the place it names", async () => {
    const text = BROKEN["a type error only"];
    const spec = fakeSpec(text);
    const start = text.lastIndexOf("name: number");
    const before = text.slice(0, start).split("\n");
    const handed: TypeCheckElsewhere = () =>
      Promise.resolve({ code: 2717, message: "handed over", start });
    const loaded = loadRevision(spec, "2030-01-01", handed);
    const error = await loaded.typeChecked!.then(
      () => undefined,
      (e: unknown) => e as McpGenError,
    );
    expect(error).toBeInstanceOf(McpGenError);
    expect(error!.message).toBe(
      `${join(spec, "schema", "2030-01-01", "schema.ts")}:${before.length}:${before.at(-1)!.length + 1}: error TS2717: handed over`,
    );
  });
});
