import { describe, expect, it } from "vitest";
import { generate, resolveGenerators } from "../src/generators/emit/index.js";
import { runtimeClosure } from "../src/generators/emit/runtime.js";
import { loadRevision } from "../src/schema/index.js";
import { cli, ROOT, SPEC_DIR, tempDir, typecheck, writeFiles } from "./helpers.js";
import { itCompiles } from "./support/compile.js";
import { existsSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

describe("generator selection", () => {
  it("resolves the generators a chosen one requires", () => {
    // protocol.ts and eras.ts are files of their own generators, which the dispatcher requires.
    expect(resolveGenerators(["dispatcher"]).map((g) => g.name)).toEqual([
      "types",
      "methods",
      "validators",
      "dispatcher",
      "protocol",
      "eras",
    ]);
    expect(resolveGenerators(["protocol"]).map((g) => g.name)).toEqual([
      "types",
      "methods",
      "validators",
      "protocol",
    ]);
    expect(resolveGenerators(["types"]).map((g) => g.name)).toEqual(["types"]);
    expect(() => resolveGenerators(["nope"])).toThrow(/unknown generator 'nope'/);
  });

  it.each(["package", "vendor"] as const)(
    "--generators dispatcher alone gives output that compiles (runtime %s)",
    { tags: "compile" },
    async (runtime) => {
      const loaded = loadRevision(SPEC_DIR, "2026-07-28");
      const files = await generate(loaded, ["dispatcher"], { runtime });
      const paths = files.map((f) => f.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          "types.ts",
          "methods.ts",
          "validators.ts",
          "dispatcher.ts",
          "protocol.ts",
        ]),
      );
      expect(paths).not.toContain("client.ts");
      // Vendored: the server's modules, not the client's.
      expect(paths.includes("runtime/server/router.ts")).toBe(runtime === "vendor");
      expect(paths).not.toContain("runtime/client/engine.ts");
      if (runtime === "package") expect(paths.filter((p) => p.startsWith("runtime/"))).toEqual([]);
      const dir = tempDir();
      writeFiles(dir, files);
      expect(
        typecheck(files.filter((f) => f.path.endsWith(".ts")).map((f) => join(dir, f.path))),
      ).toEqual([]);
    },
  );

  it("vendors only the runtime modules an entry point reaches, following real imports", () => {
    // The router serves extensions and gates their requests as input_required does.
    const server = runtimeClosure(["server"]);
    expect(server).toEqual(
      expect.arrayContaining([
        "core/errors.ts",
        "core/protocol.ts",
        "core/validation.ts",
        "server/extensions.ts",
        "server/handler-marks.ts",
        "server/index.ts",
        "server/router.ts",
      ]),
    );
    expect(server.filter((p) => !/^(core|server)\//.test(p))).toEqual([]);
    expect(runtimeClosure(["transport"])).toContain("transport/sse.ts");
    expect(runtimeClosure(["transport"])).not.toContain("server/router.ts");
    expect(runtimeClosure(["auth/client"])).toContain("auth/grant.ts");
  });
});

describe("the OAuth client (auth.ts), on request only", () => {
  itCompiles(
    "is not in the default output; with auth it is, outside index.ts, and compiles strictly",
    async () => {
      const loaded = loadRevision(SPEC_DIR, "2026-07-28");
      const plain = (await generate(loaded, undefined, { runtime: "vendor" })).map((f) => f.path);
      expect(plain.filter((p) => p.includes("oauth") || p === "auth.ts")).toEqual([]);
      expect(plain).toContain("runtime/auth/http-auth.ts"); // the hook itself has no dependency
      const files = await generate(loaded, undefined, { auth: true, runtime: "vendor" });
      const paths = files.map((f) => f.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          "auth.ts",
          "runtime/auth/oauth-client.ts",
          "runtime/auth/discovery.ts",
          "runtime/auth/registration.ts",
          "runtime/auth/grant.ts",
          "runtime/auth/dpop.ts",
          "runtime/auth/assertion.ts",
          "runtime/auth/store.ts",
        ]),
      );
      expect(files.find((f) => f.path === "index.ts")!.content).not.toMatch(/auth/);
      const dir = tempDir();
      writeFiles(dir, files);
      // oauth4webapi is the output's peer dependency: resolved from this checkout.
      symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
      expect(typecheck(paths.filter((p) => p.endsWith(".ts")).map((p) => join(dir, p)))).toEqual(
        [],
      );
    },
  );

  it('is asked for with --auth or "auth": true in the config; a config value that is not a boolean is refused', () => {
    const out = tempDir();
    expect(
      cli(["generate", "--spec", SPEC_DIR, "--out", out, "--generators", "client", "--auth"])
        .status,
    ).toBe(0);
    expect(existsSync(join(out, "auth.ts"))).toBe(true);
    const config = join(tempDir(), "mcp-gen.config.json");
    writeFileSync(config, JSON.stringify({ spec: SPEC_DIR, out: tempDir(), auth: "yes" }));
    const bad = cli(["generate", "--config", config]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/'auth' must be true or false/);
  }, 120_000);
});
