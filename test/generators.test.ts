import { describe, expect, it } from "vitest";
import { generate, resolveGenerators } from "../generators/index.js";
import { runtimeClosure } from "../generators/runtime.js";
import { loadRevision } from "../schema/index.js";
import { SPEC_DIR, tempDir, typecheck, writeFiles } from "./helpers.js";
import { join } from "node:path";

describe("generator selection", () => {
  it("resolves the generators a chosen one requires", () => {
    expect(resolveGenerators(["dispatcher"]).map((g) => g.name)).toEqual(["types", "methods", "validators", "dispatcher"]);
    expect(resolveGenerators(["types"]).map((g) => g.name)).toEqual(["types"]);
    expect(() => resolveGenerators(["nope"])).toThrow(/unknown generator 'nope'/);
  });

  it("--generators dispatcher alone gives output that compiles", async () => {
    const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["dispatcher"]);
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["types.ts", "methods.ts", "validators.ts", "dispatcher.ts", "protocol.ts", "runtime/router.ts"]));
    expect(paths).not.toContain("client.ts");
    expect(paths).not.toContain("runtime/client.ts");
    const dir = tempDir();
    writeFiles(dir, files);
    expect(typecheck(files.filter((f) => f.path.endsWith(".ts")).map((f) => join(dir, f.path)))).toEqual([]);
  }, 180_000);

  it("copies only the runtime modules an entry reaches", () => {
    expect(runtimeClosure(["router"])).toEqual(["context", "errors", "protocol", "router"]);
    expect(runtimeClosure(["http-client"])).toContain("sse");
    expect(runtimeClosure(["http-client"])).not.toContain("router");
  });
});
