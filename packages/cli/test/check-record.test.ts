import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MANIFEST } from "../src/generators/output/manifest.js";
import { SPEC_DIR, tempDir } from "./helpers.js";
import { runHere } from "./support/run-here.js";

// The manifest records how an output was generated; `--check` reads it back. init and
// generate must record the same, or a project's CI check fails right after init.
describe("the manifest's record, read back by --check", () => {
  // An init project generates js+dts: TypeScript compiles its output (tagged `compile`).
  it(
    "an init project is up to date for its own generate --check; an edit and other revisions are named",
    { tags: "compile", timeout: 180_000 },
    async () => {
      const project = join(tempDir(), "server");
      expect((await runHere(["init", project, "--spec", SPEC_DIR])).status).toBe(0);
      const up = await runHere(["generate", "--check"], project);
      expect([up.status, up.stdout.trim()]).toEqual([
        0,
        "src/mcp is up to date with MCP schema 2026-07-28 + 2025-11-25 + 2025-06-18 + 2025-03-26",
      ]);
      const record = JSON.parse(readFileSync(join(project, "src", "mcp", MANIFEST), "utf8")) as {
        generatedWith: { revisions: string[]; auth: boolean; target?: string };
      };
      expect(record.generatedWith).toMatchObject({
        revisions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
        auth: false,
        target: "js+dts",
      });

      appendFileSync(join(project, "src", "mcp", "dispatcher.js"), "// a quick fix\n");
      const edited = await runHere(["generate", "--check"], project);
      expect(edited.status).toBe(3);
      expect(edited.stderr.split("\n").slice(1, -1)).toEqual([
        "  src/mcp/dispatcher.js: differs (edited since mcp-gen wrote it; generate replaces the edit)",
      ]);

      const fewer = await runHere(
        ["generate", "--check", "--revisions", "2026-07-28,2025-11-25"],
        project,
      );
      expect(fewer.stderr).toContain(
        "  src/mcp/eras.js: differs (generated with --revisions 2026-07-28,2025-11-25,2025-06-18,2025-03-26)\n",
      );
      // init's target is js+dts (its config says so); a run asking for ts is told so.
      const ts = await runHere(["generate", "--check", "--target", "ts"], project);
      expect(ts.stderr).toContain("  src/mcp/dispatcher.ts: missing\n");
    },
  );
});
