import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { display } from "../src/cli/check.js";
import { run } from "../src/cli/run.js";
import { RULES } from "../src/lint/index.js";
import { fixture, tempDir } from "./helpers.js";

// `mcp-gen lint` as a user runs it (in-process): formats, exit codes, bad input.

async function lint(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await run(["lint", ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { status, out: out.join("\n"), err };
}

/** A checkout whose revisions are lint fixtures: `{ "2099-01-01": "clean" }`, overlays laid over clean. */
function checkout(revisions: Record<string, string>): string {
  const spec = tempDir("mcp-gen-lint-cli-");
  for (const [revision, name] of Object.entries(revisions)) {
    const dir = join(spec, "schema", revision);
    mkdirSync(dir, { recursive: true });
    cpSync(fixture("lint/clean"), dir, { recursive: true });
    if (name !== "clean") cpSync(fixture(`lint/${name}`), dir, { recursive: true });
  }
  return spec;
}

describe("mcp-gen lint", () => {
  it("prints the documented JSON document and exits 1 on an error finding", async () => {
    const spec = checkout({ "2099-01-01": "json-fields-mismatch" });
    const { status, out, err } = await lint(["--spec", spec, "--format", "json"]);
    expect(err).toEqual([]);
    expect(status).toBe(1);
    const doc = JSON.parse(out);
    expect(Object.keys(doc)).toEqual(["format", "revision", "summary", "rules", "findings"]);
    expect(doc.format).toBe(1);
    expect(doc.revision).toBe("2099-01-01");
    expect(doc.summary).toEqual({ error: 1, warning: 0, info: 0 });
    expect(doc.rules.map((r: { id: string }) => r.id)).toEqual(RULES.map((r) => r.id));
    expect(doc.rules.find((r: { id: string }) => r.id === "json-fields-mismatch")).toEqual({
      id: "json-fields-mismatch",
      severity: "error",
      count: 1,
    });
    expect(doc.findings).toEqual([
      {
        rule: "json-fields-mismatch",
        severity: "error",
        file: "schema/2099-01-01/schema.ts",
        line: 17,
        column: 18,
        message: "PingResult: fields differ (schema.json only: uptime)",
      },
    ]);
  });

  it("prints a line a finding and a summary, and exits 0 on warnings alone", async () => {
    const spec = checkout({ "2099-01-01": "clean" });
    // Clean, but for PingResult's description: one warning.
    const schema = join(spec, "schema", "2099-01-01", "schema.ts");
    writeFileSync(schema, readFileSync(schema, "utf8").replace("/** The answer to a ping. */", ""));
    const { status, out } = await lint(["--spec", spec, "--revision", "2099-01-01"]);
    expect(status).toBe(0);
    expect(out.split("\n")).toEqual([
      `${display(schema)}:17:18: warning undocumented-type: type PingResult has no description`,
      "mcp-gen lint: 2099-01-01: 0 errors, 1 warning, 0 info",
    ]);
  });

  it("reports a schema.json that is not JSON, at its place, as one finding", async () => {
    const spec = checkout({ "2099-01-01": "clean" });
    writeFileSync(join(spec, "schema", "2099-01-01", "schema.json"), '{\n  "$defs": {\n    x\n');
    const { status, out } = await lint(["--spec", spec, "--format", "json"]);
    expect(status).toBe(1);
    expect(JSON.parse(out).findings).toEqual([
      expect.objectContaining({
        rule: "json-def-missing",
        file: "schema/2099-01-01/schema.json",
        line: 3,
        column: 5,
        message: expect.stringMatching(/^schema\.json is not JSON: /),
      }),
    ]);
  });

  it("turns a schema the generator refuses into a finding of the rule that needed it", async () => {
    const spec = checkout({ "2099-01-01": "clean" });
    const schema = join(spec, "schema", "2099-01-01", "schema.ts");
    const text = readFileSync(schema, "utf8");
    writeFileSync(
      schema,
      text.replace(
        "/** What the answer is. */",
        "/** What the answer is.\n   * @format email\n   */",
      ),
    );
    const { status, out } = await lint(["--spec", spec, "--format", "json"]);
    expect(status).toBe(1);
    const refused = JSON.parse(out).findings.filter((f: { message: string }) =>
      f.message.startsWith("the rule could not run: "),
    );
    expect(refused).toEqual([
      expect.objectContaining({
        rule: "invalid-example",
        file: "schema/2099-01-01/schema.ts",
        message:
          "the rule could not run: unsupported construct: @format email (supported: uri, byte, uri-template)",
      }),
    ]);
  });

  it("lints the newest revision by default", async () => {
    const spec = checkout({ "2098-01-01": "json-fields-mismatch", "2099-01-01": "clean" });
    const { status, out } = await lint(["--spec", spec]);
    expect({ status, out }).toEqual({
      status: 0,
      out: "mcp-gen lint: 2099-01-01: 0 errors, 0 warnings, 0 info",
    });
    expect((await lint(["--spec", spec, "--revision", "2098-01-01"])).status).toBe(1);
  });

  it.each<[string, (spec: string) => string[], RegExp]>([
    [
      "a missing checkout",
      () => ["--spec", "/nonexistent/spec"],
      /^mcp-gen: spec folder not found: /,
    ],
    [
      "an unknown revision",
      (spec) => ["--spec", spec, "--revision", "1999-01-01"],
      /^mcp-gen: unknown revision '1999-01-01' in .*; available: 2099-01-01, latest$/,
    ],
    [
      "an unknown format",
      (spec) => ["--spec", spec, "--format", "yaml"],
      /^mcp-gen: --format must be text or json, not 'yaml'$/,
    ],
    [
      "no checkout (never the revisions an installed mcp-gen ships, which have no schema.json)",
      () => [],
      /^mcp-gen: lint reads a spec checkout \(schema\.ts, schema\.json and the examples of each revision\): pass --spec DIR /,
    ],
  ])("says %s in one line and exits 2", async (_what, args, line) => {
    const spec = checkout({ "2099-01-01": "clean" });
    // A config without `spec` stands in for the repository's, which names the spec checkout.
    const config = join(spec, "mcp-gen.config.json");
    writeFileSync(config, "{}\n");
    const { status, out, err } = await lint([...args(spec), "--config", config]);
    expect(status).toBe(2);
    expect(out).toBe("");
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(line);
  });
});
