import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_ROOT, ROOT, SPEC_DIR, tempDir } from "./helpers.js";
import { runHere } from "./support/run-here.js";

// Generated code that imports @mcp-gen/runtime runs on the version the project installed:
// `generate --check` refuses one outside the range the output was generated for.
describe("generate --check and the installed runtime package", () => {
  // In-process: the check reads the installed package.json afresh on every run.
  const generateInto = (out: string, ...flags: string[]) =>
    runHere([
      "generate",
      "--spec",
      SPEC_DIR,
      "--revision",
      "latest",
      "--generators",
      "methods",
      "--out",
      out,
      ...flags,
    ]);
  // The range mcp-gen depends on is the one its outputs are generated for.
  const range = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8")).dependencies[
    "@mcp-gen/runtime"
  ] as string;
  const ours = JSON.parse(readFileSync(join(ROOT, "packages", "runtime", "package.json"), "utf8"))
    .version as string;

  it("passes with the runtime in range; names one outside it, with the fix", async () => {
    // A project of its own: its node_modules decides what the output imports.
    const project = tempDir();
    const out = join(project, "src", "mcp");
    const installed = join(project, "node_modules", "@mcp-gen", "runtime");
    mkdirSync(installed, { recursive: true });
    const install = (version: string) =>
      writeFileSync(
        join(installed, "package.json"),
        JSON.stringify({
          name: "@mcp-gen/runtime",
          version,
          exports: { "./package.json": "./package.json" },
        }),
      );
    install("0.0.1");
    expect((await generateInto(out)).status).toBe(0);
    const tooOld = await generateInto(out, "--check");
    expect(tooOld.status).toBe(3);
    expect(tooOld.stderr).toBe(
      `mcp-gen: ${out}: @mcp-gen/runtime 0.0.1 is installed, but the output was generated for ${range}; install @mcp-gen/runtime@${range}, or regenerate with the mcp-gen that matches 0.0.1\n`,
    );
    expect(tooOld.stdout).toBe("");
    install("99.0.0");
    expect((await generateInto(out, "--check")).stderr).toMatch(
      /@mcp-gen\/runtime 99\.0\.0 is installed/,
    );
    install(ours);
    const fits = await generateInto(out, "--check");
    expect([fits.status, fits.stderr]).toEqual([0, ""]);
    // Vendored output imports no package: nothing to check.
    install("0.0.1");
    expect((await generateInto(out, "--runtime", "vendor")).status).toBe(0);
    expect((await generateInto(out, "--runtime", "vendor", "--check")).status).toBe(0);
  });

  it("says when the runtime is not installed where the output is", async () => {
    // Outside the tests' temporary root, whose node_modules links the runtime.
    const out = join(mkdtempSync(join(tmpdir(), "mcp-gen-alone-")), "out");
    expect((await generateInto(out)).status).toBe(0);
    const missing = await generateInto(out, "--check");
    expect(missing.status).toBe(3);
    expect(missing.stderr).toMatch(
      /: @mcp-gen\/runtime is not installed where the output imports it; install @mcp-gen\/runtime@\^/,
    );
  });
});
