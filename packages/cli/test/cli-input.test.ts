import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findConfig, loadConfig } from "../src/cli/config.js";
import { jsonErrorOffset } from "../src/cli/json-position.js";
import { GENERATOR_NAMES } from "../src/generators/emit/index.js";
import { findRevision } from "../src/schema/revisions.js";
import { fakeSpec, readFixture, SPEC_DIR, tempDir } from "./helpers.js";
import { runHere } from "./support/run-here.js";

// Odd command lines and config files: each refused in one line naming the flag or the
// config file, before any schema is read or anything written. All in-process.

/** Runs the CLI in `cwd`; expects one line on stderr, the status, and no output folder. */
async function refused(args: string[], status: number, message: RegExp, cwd = tempDir()) {
  const r = await runHere(
    [...args, ...(args.includes("--out") ? [] : ["--out", join(cwd, "out")])],
    cwd,
  );
  expect(r.status, r.stderr).toBe(status);
  expect(r.stderr).toMatch(/^[^\n]*\n$/);
  expect(r.stderr.trimEnd()).toMatch(message);
  expect(existsSync(join(cwd, "out"))).toBe(false);
  return r;
}

function configIn(dir: string, config: object | string): string {
  const path = join(dir, "mcp-gen.config.json");
  writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  return path;
}

describe("odd command lines", () => {
  it("an empty --generators or --revisions (an unset variable) is a usage error", async () => {
    const available = GENERATOR_NAMES.join(", ");
    await refused(
      ["generate", "--spec", SPEC_DIR, "--generators", ""],
      2,
      new RegExp(`^mcp-gen: --generators is empty; name at least one of ${available}$`),
    );
    await refused(
      ["generate", "--spec", SPEC_DIR, "--generators", " , "],
      2,
      /--generators is empty/,
    );
    await refused(
      ["generate", "--spec", SPEC_DIR, "--revisions", ""],
      2,
      /^mcp-gen: --revisions is empty; name at least one revision$/,
    );
  });

  it("a revision listed twice, by the same name or as latest and its date", async () => {
    await refused(
      ["generate", "--spec", SPEC_DIR, "--revisions", "2026-07-28,2025-03-26,2026-07-28"],
      1,
      /^mcp-gen: --revisions lists '2026-07-28' twice$/,
    );
    await refused(
      ["generate", "--spec", SPEC_DIR, "--revisions", "latest,2025-11-25,2026-07-28"],
      1,
      /^mcp-gen: --revisions names 2026-07-28 twice \('latest' and '2026-07-28'\)$/,
    );
  });

  it("older revisions with generators that do not serve them (only the dispatcher and client emit legacy/)", async () => {
    await refused(
      [
        "generate",
        "--spec",
        SPEC_DIR,
        "--generators",
        "validators",
        "--revisions",
        "2026-07-28,2025-03-26",
      ],
      1,
      /^mcp-gen: --revisions lists older revisions \(2025-03-26\), but only the dispatcher and client generators serve them \(legacy\/<revision>\/\); --generators chose types, methods, validators: add dispatcher or client, or generate one revision$/,
    );
  });

  it("a mistyped command is named, with the commands there are", async () => {
    const r = await runHere(["gen", "--spec", SPEC_DIR]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "mcp-gen: unknown command 'gen' (did you mean generate?); commands: generate, revisions, inspect, init, diff, client, dev, lint\n",
    );
    expect((await runHere(["--debug", "frobnicate"])).stderr).toMatch(
      /^mcp-gen: unknown command 'frobnicate'; commands: /,
    );
    // The default command still takes options alone, and `help` is commander's.
    expect((await runHere(["help"])).stdout).toMatch(/^Usage: mcp-gen/);
  });
});

describe("the config file", () => {
  it("rejects unknown keys", async () => {
    const dir = tempDir();
    configIn(dir, { spec: SPEC_DIR, output: "x" });
    expect(() => loadConfig(undefined, dir)).toThrow(/unknown key 'output'/);
    await refused(["generate"], 1, /mcp-gen\.config\.json: unknown key 'output'/, dir);
  });

  it("is found in the working folder or above it, up to a folder holding .git", async () => {
    const top = tempDir();
    const deep = join(top, "repo", "packages", "sdk");
    mkdirSync(deep, { recursive: true });
    const path = configIn(top, { spec: SPEC_DIR });
    expect(findConfig(undefined, deep)).toBe(path);
    expect((await runHere(["revisions"], deep)).stdout).toMatch(/^2024-11-05\n/);
    // A repository's top ends the search: a config above it belongs to something else.
    mkdirSync(join(top, "repo", ".git"));
    expect(findConfig(undefined, deep)).toBeUndefined();
    expect((await runHere(["revisions"], deep)).stderr).toMatch(/^mcp-gen: no spec folder: /);
    const inRepo = configIn(join(top, "repo"), { spec: SPEC_DIR });
    expect(findConfig(undefined, deep)).toBe(inRepo);
  });

  it("JSON errors give line:col, where V8 gives a character position or none at all", async () => {
    const dir = tempDir();
    const path = configIn(dir, '{\n  "spec": "x",\n  "revision": tru\n}\n');
    // V8 names the token and quotes the text, but not where: the line break after "tru".
    await refused(
      ["generate"],
      1,
      new RegExp(`^mcp-gen: ${path}:3:18: not valid JSON: Unexpected token "\\\\n"$`),
      dir,
    );
    configIn(dir, '{\n  "spec": "x",\n}\n');
    await refused(
      ["generate"],
      1,
      new RegExp(`^mcp-gen: ${path}:3:1: not valid JSON: Expected double-quoted property name$`),
      dir,
    );
    // The scanner agrees with JSON.parse on what is valid.
    for (const text of [
      '{"a": [1, -2.5e+3, true, null, "\\u00e9\\n"]}',
      "01",
      "[1,]",
      '"\\x"',
      "1 2",
      "",
    ]) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(jsonErrorOffset(text) === -1, text).toBe(valid);
    }
  });

  it("every error about a config setting names the config file", async () => {
    const dir = tempDir();
    const path = configIn(dir, {});
    const cases: [object, RegExp][] = [
      [{ spec: SPEC_DIR, revisions: [] }, /'revisions' is empty; name at least one revision$/],
      [
        { spec: SPEC_DIR, revisions: ["2026-07-28", "2026-07-28"] },
        /'revisions' lists '2026-07-28' twice$/,
      ],
      [{ spec: SPEC_DIR, generators: [] }, /'generators' is empty; name at least one of types, /],
      [
        { spec: SPEC_DIR, generators: ["types", "bogus"] },
        /'generators' has unknown generator 'bogus'; available: types, /,
      ],
      [
        { spec: SPEC_DIR, revision: "1999-01-01" },
        /unknown revision '1999-01-01' in .*; available: /,
      ],
      [{ spec: join(dir, "nowhere") }, /spec folder not found: /],
      [
        { spec: SPEC_DIR, revisions: ["2026-07-28", "2025-03-26"], generators: ["types"] },
        /'revisions' lists older revisions \(2025-03-26\), .*; 'generators' chose types: /,
      ],
      [
        { spec: SPEC_DIR, revisions: ["2025-11-25", "2025-06-18"] },
        /needs a stateless newest revision/,
      ],
    ];
    for (const [config, message] of cases) {
      configIn(dir, config);
      const r = await refused(["generate"], 1, message, dir);
      expect(r.stderr, JSON.stringify(config)).toMatch(new RegExp(`^mcp-gen: ${path}: `));
    }
    // A flag's error is the flag's, even with a config present.
    configIn(dir, { spec: SPEC_DIR, revision: "latest" });
    expect(
      (await refused(["generate", "--spec", join(dir, "nowhere")], 1, /spec folder not found/, dir))
        .stderr,
    ).not.toMatch(/config\.json/);
  });

  it("--spec pointing inside a checkout's schema/ folder names the checkout to pass instead", () => {
    for (const inside of [join(SPEC_DIR, "schema"), join(SPEC_DIR, "schema", "2026-07-28")]) {
      expect(() => findRevision(inside), inside).toThrow(
        `spec folder not found: ${inside} is inside the checkout's schema/ folder; pass --spec ${SPEC_DIR}`,
      );
    }
    // A sibling whose name merely starts with "schema" is not inside it.
    expect(() => findRevision(join(SPEC_DIR, "schemata"))).toThrow(/has no schema\/ folder/);
  });

  it("an empty revision folder, dated or draft, is named when asked for", async () => {
    const spec = fakeSpec(readFixture("mini-schema.ts"), "2030-01-01");
    mkdirSync(join(spec, "schema", "2031-02-02"));
    mkdirSync(join(spec, "schema", "draft"));
    for (const name of ["2031-02-02", "draft"]) {
      await refused(
        ["generate", "--spec", spec, "--revision", name],
        1,
        new RegExp(
          `^mcp-gen: ${join(spec, "schema", name)} has no schema\\.ts; revisions with one: 2030-01-01, latest$`,
        ),
      );
    }
    // latest is the newest folder with a schema.ts.
    expect(JSON.parse((await runHere(["inspect", "--spec", spec, "--json"])).stdout).revision).toBe(
      "2030-01-01",
    );
  });
});
