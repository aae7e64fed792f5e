import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { spawn } from "node:child_process";
import { runHere } from "./support/run-here.js";
import { whenSeen } from "./support/wait.js";
import { MANIFEST } from "../src/generators/output/output.js";
import { runtimeClosure } from "../src/generators/emit/runtime.js";
import {
  cli,
  fakeSpec,
  readFixture,
  CLI,
  SPEC_DIR,
  snapshotTree,
  tempDir,
  type CliResult,
} from "./helpers.js";

// Most of the CLI runs in-process (run() with captured output), and output planning is
// tested on fake trees in output.test.ts; a few tests spawn the built CLI end to end.

// The CLI runs outside the repository: its own mcp-gen.config.json (every era of the checkout)
// would otherwise give these runs their revisions.
const AWAY = tempDir();
const home = process.cwd();
beforeAll(() => process.chdir(AWAY));
afterAll(() => process.chdir(home));

/** What is at a path, for "nothing changed" assertions: a folder's files, a file, a link, or nothing. */
function snapshotPath(path: string): unknown {
  const found = lstatSync(path, { throwIfNoEntry: false });
  if (!found) return "absent";
  if (found.isSymbolicLink()) return `link to ${readlinkSync(path)}`;
  return found.isDirectory() ? snapshotTree(path) : readFileSync(path, "utf8");
}

/** One clear line on stderr, the exit code, nothing written to the output folder and no staging folder left. */
async function expectCleanFailure(
  args: string[],
  status: number,
  message: RegExp,
  out: string,
  spawned = false,
) {
  const before = snapshotPath(out);
  const r = spawned ? cli([...args, "--out", out], AWAY) : await runHere([...args, "--out", out]);
  expect(r.status, r.stderr).toBe(status);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(snapshotPath(out)).toEqual(before);
  expect(
    readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.mcp-gen-`)),
  ).toEqual([]);
  if (lstatSync(out, { throwIfNoEntry: false })?.isDirectory())
    expect(readdirSync(out).filter((n) => n.startsWith(".mcp-gen-staging-"))).toEqual([]);
  return r;
}

const mini = () => fakeSpec(readFixture("mini-schema.ts"));
const fixtureLines = readFixture("mini-schema.ts").split("\n").length;

describe("mcp-gen generate: bad input is one line, exit 1, nothing written", () => {
  it("a missing spec folder (the built CLI)", async () => {
    const out = join(tempDir(), "out");
    await expectCleanFailure(
      ["generate", "--spec", "/no/such/spec"],
      1,
      /^mcp-gen: spec folder not found: \/no\/such\/spec.*: git clone https:\/\/github\.com\/modelcontextprotocol\/modelcontextprotocol\)$/m,
      out,
      true,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("an unknown revision lists the available ones", async () => {
    await expectCleanFailure(
      ["generate", "--spec", SPEC_DIR, "--revision", "1999-01-01"],
      1,
      /^mcp-gen: unknown revision '1999-01-01' .*available: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, latest$/,
      join(tempDir(), "out"),
    );
  });

  it("a schema.ts with a syntax error names file:line:col", async () => {
    const spec = fakeSpec("export interface A {\n  a: string;\n  b: = 1;\n}\n");
    await expectCleanFailure(
      ["generate", "--spec", spec],
      1,
      /^mcp-gen: .*schema\/2030-01-01\/schema\.ts:3:\d+: syntax error: .+/,
      join(spec, "out"),
    );
  });

  it("an unsupported construct names file:line:col and the construct", async () => {
    const spec = fakeSpec(
      readFixture("mini-schema.ts") + "\nexport type Pair = [string, number];\n",
    );
    await expectCleanFailure(
      ["generate", "--spec", spec],
      1,
      new RegExp(
        `^mcp-gen: .*schema\\.ts:${fixtureLines + 1}:\\d+: unsupported construct: tuple type \\(\`\\[string, number\\]\`\\)$`,
      ),
      join(spec, "out"),
    );
  });

  it("TypeScript that tsc rejects fails with tsc's location and message", async () => {
    const spec = fakeSpec(readFixture("mini-schema.ts") + "\nexport type Loop = Loop | string;\n");
    await expectCleanFailure(
      ["generate", "--spec", spec],
      1,
      new RegExp(
        `^mcp-gen: .*schema\\.ts:${fixtureLines + 1}:13: error TS2456: Type alias 'Loop' circularly references itself\\.$`,
      ),
      join(spec, "out"),
    );
  });

  it("a schema.ts that cannot be read", async () => {
    const spec = tempDir();
    mkdirSync(join(spec, "schema", "2030-01-01", "schema.ts"), { recursive: true });
    await expectCleanFailure(
      ["generate", "--spec", spec],
      1,
      /^mcp-gen: cannot read .*schema\.ts: EISDIR: /,
      join(spec, "out"),
    );
  });

  it("an existing output folder is left untouched on failure", async () => {
    const out = tempDir();
    writeFileSync(join(out, "notes.md"), "mine");
    await expectCleanFailure(
      ["generate", "--spec", SPEC_DIR, "--revision", "nope"],
      1,
      /unknown revision 'nope'/,
      out,
    );
  });

  it("usage errors exit 2 (the built CLI)", async () => {
    const r = cli(["generate", "--no-such-flag"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("mcp-gen: unknown option '--no-such-flag'\n");
    expect((await runHere(["frobnicate", "x"])).status).toBe(2);
    const missing = await runHere(["generate", "--revision"]);
    expect([missing.status, missing.stderr]).toEqual([
      2,
      "mcp-gen: option '--revision <rev>' argument missing\n",
    ]);
    // Commander's suggestion is folded into the one line.
    const typo = await runHere(["generate", "--spc", "x"]);
    expect([typo.status, typo.stderr]).toEqual([
      2,
      "mcp-gen: unknown option '--spc' (did you mean --spec?)\n",
    ]);
  });

  it("an unknown generator is a config error", async () => {
    await expectCleanFailure(
      ["generate", "--spec", SPEC_DIR, "--generators", "types,nope"],
      1,
      /unknown generator 'nope'; available: types, methods, validators, dispatcher/,
      join(tempDir(), "out"),
    );
  });

  it("a config file that is not JSON (line:col), or a folder", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), "{\n  nope\n}\n");
    await expectCleanFailure(
      ["generate", "--config", join(dir, "bad.json")],
      1,
      /^mcp-gen: .*bad\.json:2:3: not valid JSON: Expected property name or '\}'$/,
      join(dir, "out"),
    );
    await expectCleanFailure(
      ["generate", "--config", dir],
      1,
      new RegExp(`^mcp-gen: ${dir} is a folder, not a config file`),
      join(dir, "out"),
    );
  });
});

describe("mcp-gen generate: what is in the way of the output", () => {
  const typesOnly = (spec: string) => ["generate", "--spec", spec, "--generators", "types"];

  it("an empty --out (an unset variable) or config 'out' is refused, and the folder's own files stay", async () => {
    const spec = mini();
    const here = tempDir();
    writeFileSync(join(here, "types.ts"), "// mine\n");
    writeFileSync(join(here, "handlers.ts"), "// my handlers\n");
    const before = snapshotPath(here);
    const r = await runHere(["generate", "--spec", spec, "--out", ""], here);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^mcp-gen: --out is empty \(an unset variable\?\): name the output folder, or "\." for this one\n$/,
    );
    writeFileSync(join(here, "mcp-gen.config.json"), JSON.stringify({ spec, out: "" }));
    const c = await runHere(["generate"], here);
    expect(c.status).not.toBe(0);
    expect(c.stderr).toMatch(/^mcp-gen: .*mcp-gen\.config\.json: 'out' is empty/);
    rmSync(join(here, "mcp-gen.config.json"));
    expect(snapshotPath(here)).toEqual(before);
  });

  it("--check names the command to rerun with the options that decide the output, quoted for a shell", async () => {
    const spec = mini();
    const out = join(spec, "my out");
    const args = ["generate", "--spec", spec, "--generators", "types", "--out", out, "--auth"];
    const missing = await runHere([...args, "--check"]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toBe(
      `mcp-gen: ${out} does not exist; run mcp-gen generate --spec ${spec} --out '${out}' --generators types --auth\n`,
    );
    expect((await runHere(args)).status).toBe(0);
    expect((await runHere([...args, "--check"])).status).toBe(0);
    writeFileSync(
      join(out, "types.ts"),
      readFileSync(join(out, "types.ts"), "utf8") + "// edited\n",
    );
    const stale = await runHere([...args, "--check"]);
    expect(stale.status).toBe(3);
    expect(stale.stderr.split("\n")[0]).toMatch(
      /: 1 of \d+ files stale; run mcp-gen generate --spec \S+ --out '.*my out' --generators types --auth$/,
    );
    // A broken schema is not "stale": exit 1, so CI can tell the two apart.
    writeFileSync(
      join(spec, "schema", "2030-01-01", "schema.ts"),
      "export type Pair = [string, number];\n",
    );
    expect((await runHere([...args, "--check"])).status).toBe(1);
  });

  it("a file at the output path", async () => {
    const spec = mini();
    writeFileSync(join(spec, "out"), "a file");
    await expectCleanFailure(
      typesOnly(spec),
      1,
      /^mcp-gen: .*out is a file, not a folder; move it away or choose another --out$/,
      join(spec, "out"),
    );
  });

  it("a dangling symlink at the output path, or at a generated file's path", async () => {
    const spec = mini();
    symlinkSync(join(spec, "nowhere"), join(spec, "out"));
    await expectCleanFailure(
      typesOnly(spec),
      1,
      /^mcp-gen: .*out is a symbolic link to nothing \(dangling\)/,
      join(spec, "out"),
    );
    const out = join(spec, "out2");
    mkdirSync(out);
    symlinkSync(join(spec, "nowhere.ts"), join(out, "types.ts"));
    await expectCleanFailure(
      typesOnly(spec),
      1,
      /^mcp-gen: .*out2\/types\.ts is a symbolic link, not a file mcp-gen generated/,
      out,
    );
  });

  it("a file the user owns at a generated path", async () => {
    const spec = mini();
    const out = join(spec, "out");
    mkdirSync(out);
    writeFileSync(join(out, "types.ts"), "// my own types\n");
    const r = await expectCleanFailure(
      typesOnly(spec),
      1,
      /types\.ts exists and was not generated by mcp-gen/,
      out,
    );
    expect(r.stdout).toBe("");
  });
});

describe("mcp-gen generate: failures while writing", () => {
  afterEach(() => {
    delete process.env["MCP_GEN_TEST_FAULT"];
  });

  it.each(["ENOSPC", "EACCES", "EROFS", "EROFS@move"])(
    "%s (simulated) is one line and the output stays as it was",
    async (fault) => {
      const spec = mini();
      const out = join(spec, "out");
      expect(
        (await runHere(["generate", "--spec", spec, "--generators", "types", "--out", out])).status,
      ).toBe(0);
      writeFileSync(
        join(spec, "schema", "2030-01-01", "schema.ts"),
        readFixture("mini-schema.ts") + "\nexport type AddedLater = string;\n",
      );
      process.env["MCP_GEN_TEST_FAULT"] = fault;
      const code = fault.split("@")[0]!;
      const why =
        code === "ENOSPC"
          ? `${code}: .*`
          : `${out} ${code === "EROFS" ? "is read-only" : "is not writable"} \\(${code}\\)`;
      await expectCleanFailure(
        ["generate", "--spec", spec, "--generators", "types"],
        1,
        new RegExp(`^mcp-gen: could not write .*out: ${why}; the output was left as it was$`),
        out,
      );
    },
  );

  it("ENOSPC from the built CLI: one line, exit 1, no output folder", async () => {
    const spec = mini();
    const r = spawnCli(
      ["generate", "--spec", spec, "--generators", "types", "--out", join(spec, "out")],
      { MCP_GEN_TEST_FAULT: "ENOSPC" },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^mcp-gen: could not write .*out: ENOSPC: [^\n]*\n$/);
    expect(readdirSync(spec)).toEqual(["schema"]);
  });
});

function spawnCli(args: string[], env: Record<string, string>): CliResult {
  const previous = { ...process.env };
  Object.assign(process.env, env);
  try {
    return cli(args, AWAY);
  } finally {
    for (const key of Object.keys(env)) if (previous[key] === undefined) delete process.env[key];
  }
}

describe("mcp-gen: a bug in mcp-gen is one line too, with the stack only under --debug", () => {
  afterEach(() => {
    vi.doUnmock("../src/generators/print/render.js");
    vi.doUnmock("../src/generators/emit/methods.js");
    vi.doUnmock("../src/generators/emit/types.js");
    vi.resetModules();
  });

  it("a printer emitting code that does not parse names the generated file and place", async () => {
    vi.resetModules();
    // A printer bug in a file outside the layouts matched to prettier (not preformatted): it
    // is still checked to parse before anything is written.
    vi.doMock("../src/generators/emit/methods.js", async (importOriginal) => {
      const real = await importOriginal<typeof import("../src/generators/emit/methods.js")>();
      const emit: typeof real.methodsGenerator.emit = (ctx) =>
        real.methodsGenerator
          .emit(ctx)
          .map((f) =>
            f.path === "methods.ts"
              ? { ...f, code: `${f.code}\nexport const = 1;\n`, preformatted: false }
              : f,
          );
      return { methodsGenerator: { ...real.methodsGenerator, emit } };
    });
    const { run: runMocked } = await import("../src/cli/run.js");
    const spec = mini();
    const err: string[] = [];
    const status = await runMocked(
      ["generate", "--spec", spec, "--generators", "methods", "--out", join(spec, "out")],
      { out: () => {}, err: (l) => err.push(l) },
    );
    expect(status).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^mcp-gen: generated methods\.ts:\d+:\d+: internal error: the generated code does not parse \(.+\); nothing was written$/,
    );
    expect(existsSync(join(spec, "out"))).toBe(false);
  });

  it("a printer that throws: one line naming the error; --debug adds the stack", async () => {
    vi.resetModules();
    vi.doMock("../src/generators/emit/types.js", async (importOriginal) => {
      const real = await importOriginal<typeof import("../src/generators/emit/types.js")>();
      const emit = () => (undefined as unknown as { name: string }[])[0]!.name;
      return { typesGenerator: { ...real.typesGenerator, emit } };
    });
    const { run: runMocked } = await import("../src/cli/run.js");
    const spec = mini();
    const args = ["generate", "--spec", spec, "--generators", "types", "--out", join(spec, "out")];
    const err: string[] = [];
    expect(await runMocked(args, { out: () => {}, err: (l) => err.push(l) })).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(
        /^mcp-gen: internal error: TypeError: Cannot read properties of undefined \(reading '0'\) \(rerun with --debug for the stack trace\)$/,
      ),
    ]);
    const debug: string[] = [];
    expect(
      await runMocked(["--debug", ...args], { out: () => {}, err: (l) => debug.push(l) }),
    ).toBe(1);
    expect(debug[0]).toMatch(
      /^mcp-gen: internal error: TypeError: Cannot read properties of undefined \(reading '0'\)$/,
    );
    expect(debug.slice(1).join("\n")).toMatch(/^TypeError: .*\n\s+at /);
    expect(existsSync(join(spec, "out"))).toBe(false);
  });
});

describe("mcp-gen generate end to end (the built CLI)", { tags: "process" }, () => {
  // The runtime sources a 2025-06-18 output's entry points reach (no tasks, no HTTP modules):
  // counted here, so a new runtime module changes the expectation with the output.
  const vendored = runtimeClosure(["core", "server", "client", "transport", "node/stdio"]);
  it.each([
    // Imports @mcp-gen/runtime: only the files printed from the schema and their re-exports.
    ["package", [], 9],
    // And the runtime sources, under runtime/.
    ["vendor", ["--runtime", "vendor"], 9 + vendored.length],
  ] as const)(
    "fills the output folder for a real revision, and --check agrees (runtime %s)",
    (mode, flags, count) => {
      const out = join(tempDir(), "out");
      const args = ["generate", "--spec", SPEC_DIR, "--revision", "2025-06-18", "--out", out];
      const r = cli([...args, ...flags]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          `MCP schema 2025-06-18 -> .*out/ \\(${count} written, 0 unchanged, 0 removed\\)`,
        ),
      );
      expect(readdirSync(out).sort()).toEqual(
        [
          MANIFEST,
          "client.ts",
          "dispatcher.ts",
          "handlers.ts",
          "index.ts",
          "methods.ts",
          "protocol.ts",
          ...(mode === "vendor" ? ["runtime"] : []),
          "stdio.ts",
          "types.ts",
          "validators.ts",
        ].sort(),
      );
      const manifest = JSON.parse(readFileSync(join(out, MANIFEST), "utf8"));
      expect(manifest.generatedWith.runtime).toBe(mode);
      // The manifest lists the runtime/ files too: they are this generation's to remove.
      if (mode === "vendor") {
        expect(manifest.files).toEqual(
          expect.arrayContaining(["protocol.ts", "runtime/server/router.ts"]),
        );
        expect(Object.keys(snapshotTree(join(out, "runtime"))).sort()).toEqual(vendored);
      } else expect(manifest.generatedWith.runtimeVersions).toMatch(/^\^\d+\.\d+\.\d+/);
      const check = cli([...args, ...flags, "--check"]);
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toMatch(/is up to date with MCP schema 2025-06-18/);
      // The other mode is another output: --check names the option that made this one.
      const other = cli([
        ...args,
        "--runtime",
        mode === "vendor" ? "package" : "vendor",
        "--check",
      ]);
      expect(other.status).toBe(3);
      expect(other.stderr).toMatch(new RegExp(`generated with --runtime ${mode}`));
    },
  );

  it("refuses an unknown --runtime, and a config 'runtime' that is not a mode", () => {
    const r = cli(["generate", "--spec", SPEC_DIR, "--runtime", "copy"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^mcp-gen: --runtime is 'copy'; use package or vendor\n$/);
    const dir = tempDir();
    writeFileSync(join(dir, "mcp-gen.config.json"), JSON.stringify({ spec: SPEC_DIR, runtime: 1 }));
    expect(cli([], dir).stderr).toMatch(/'runtime' must be a string/);
    writeFileSync(
      join(dir, "mcp-gen.config.json"),
      JSON.stringify({ spec: SPEC_DIR, runtime: "copy" }),
    );
    const bad = cli([], dir);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/mcp-gen.config.json: 'runtime' is 'copy'; use package or vendor/);
  });

  it("a config 'handlers' file outside the output stands in for the handlers.ts skeleton", () => {
    const dir = tempDir();
    const config = {
      spec: SPEC_DIR,
      revision: "2025-06-18",
      out: "gen",
      generators: ["dispatcher"],
    };
    const writeConfig = (extra: object) =>
      writeFileSync(join(dir, "mcp-gen.config.json"), JSON.stringify({ ...config, ...extra }));
    // Without the key the skeleton is the output's (written once, when missing).
    writeConfig({});
    expect(cli([], dir).status).toBe(0);
    const skeleton = readFileSync(join(dir, "gen", "handlers.ts"), "utf8");
    expect(skeleton).toMatch(/"tools\/call"/);
    rmSync(join(dir, "gen", "handlers.ts"));
    // With it and no such file yet: one warning, and no skeleton in the output.
    writeConfig({ handlers: "src/handlers.ts" });
    const missing = cli([], dir);
    expect(missing.status, missing.stderr).toBe(0);
    expect(existsSync(join(dir, "gen", "handlers.ts"))).toBe(false);
    expect(existsSync(join(dir, "gen", "dispatcher.ts"))).toBe(true);
    expect(missing.stderr).toBe(
      "mcp-gen: warning: src/handlers.ts (the config's 'handlers') cannot be read; generate writes no handlers.ts skeleton while 'handlers' is set\n",
    );
    // The file names every method but tools/call: that one alone is noted.
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "handlers.ts"), skeleton.replaceAll("tools/call", "x"));
    const noted = cli([], dir);
    expect(noted.status, noted.stderr).toBe(0);
    expect(noted.stderr).toBe(
      "mcp-gen: note: src/handlers.ts has no handler for tools/call (answered: method not found)\n",
    );
    // --check holds the output without the skeleton up to date, and reports only staleness.
    const check = cli(["generate", "--check"], dir);
    expect(check.status, check.stderr).toBe(0);
    expect(check.stderr).toBe("");
    writeConfig({ handlers: " " });
    const empty = cli([], dir);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/'handlers' is empty; name a file, or leave it out\n$/);
  }, 180_000);

  it("reads defaults from mcp-gen.config.json, relative to the config file; flags win", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "mcp-gen.config.json"),
      JSON.stringify({ spec: SPEC_DIR, revision: "2024-11-05", out: "gen", generators: ["types"] }),
    );
    const r = cli([], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(dir, "gen")).sort()).toEqual([MANIFEST, "index.ts", "types.ts"]);
    expect(readFileSync(join(dir, "gen", "types.ts"), "utf8")).toMatch(
      /from MCP schema 2024-11-05/,
    );
    expect(cli(["generate", "--revision", "2025-03-26"], dir).status).toBe(0);
    expect(readFileSync(join(dir, "gen", "types.ts"), "utf8")).toMatch(
      /from MCP schema 2025-03-26/,
    );
  });
});

describe("the auth option", () => {
  it("--auth (or config auth) adds the JWT verifier and the OAuth client and nothing else; without it the output has no module importing a library", async () => {
    const plain = join(tempDir(), "out");
    const withAuth = join(tempDir(), "out");
    expect(
      (
        await runHere([
          "generate",
          "--spec",
          SPEC_DIR,
          "--revision",
          "2026-07-28",
          "--out",
          plain,
          "--runtime",
          "vendor",
        ])
      ).status,
    ).toBe(0);
    expect(
      (
        await runHere([
          "generate",
          "--spec",
          SPEC_DIR,
          "--revision",
          "2026-07-28",
          "--out",
          withAuth,
          "--auth",
          "--runtime",
          "vendor",
        ])
      ).status,
    ).toBe(0);
    const [a, b] = [snapshotTree(plain), snapshotTree(withAuth)];
    const added = Object.keys(b).filter((f) => !(f in a));
    const client = [
      "addresses",
      "assertion",
      "discovery",
      "dpop",
      "grant",
      "network",
      "oauth-challenge",
      "oauth-client",
      "oauth-tokens",
      "reauthorization",
      "registration",
      "store",
    ].map((m) => `runtime/auth/${m}.ts`);
    const verify = ["dpop-proof", "dpop-replay", "jwt", "verify"].map(
      (m) => `runtime/auth/${m}.ts`,
    );
    expect(added.sort()).toEqual(["auth.ts", ...client, ...verify].sort());
    for (const file of Object.keys(a).filter((f) => f !== MANIFEST))
      expect(b[file], file).toBe(a[file]);
    expect(b["runtime/auth/jwt.ts"]).toMatch(/from "jose"/);
    expect(b["runtime/auth/grant.ts"]).toMatch(/from "oauth4webapi"/);
    expect(Object.values(a).some((text) => /from "(jose|oauth4webapi)"/.test(text))).toBe(false);
    // The config key does the same; it must be a boolean.
    const dir = tempDir();
    writeFileSync(
      join(dir, "mcp-gen.config.json"),
      JSON.stringify({
        spec: SPEC_DIR,
        revision: "2026-07-28",
        out: "gen",
        auth: true,
        runtime: "vendor",
      }),
    );
    expect((await runHere([], dir)).status).toBe(0);
    expect(existsSync(join(dir, "gen", "runtime", "auth", "jwt.ts"))).toBe(true);
    writeFileSync(
      join(dir, "mcp-gen.config.json"),
      JSON.stringify({ spec: SPEC_DIR, auth: "yes" }),
    );
    const bad = await runHere([], dir);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/'auth' must be true or false/);
  });
});

describe("mcp-gen revisions and inspect", () => {
  it("lists revisions, oldest first, marking the latest", async () => {
    const r = cli(["revisions", "--spec", SPEC_DIR]);
    expect(r.stdout.trim().split("\n")).toEqual([
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2026-07-28 (latest)",
    ]);
    expect(
      JSON.parse((await runHere(["revisions", "--spec", SPEC_DIR, "--json"])).stdout),
    ).toMatchObject({ latest: "2026-07-28", draft: false });
  });

  it("uses draft/ only when asked for by name", async () => {
    const spec = fakeSpec(readFixture("mini-schema.ts"), "2030-01-01");
    mkdirSync(join(spec, "schema", "draft"));
    writeFileSync(
      join(spec, "schema", "draft", "schema.ts"),
      readFixture("mini-schema.ts").replace('"2099-01-01"', '"DRAFT-2031"'),
    );
    expect((await runHere(["revisions", "--spec", spec])).stdout.trim().split("\n")).toEqual([
      "2030-01-01 (latest)",
      "draft (unreleased; used only with --revision draft)",
    ]);
    expect(JSON.parse((await runHere(["revisions", "--spec", spec, "--json"])).stdout)).toEqual({
      revisions: ["2030-01-01"],
      latest: "2030-01-01",
      draft: true,
    });
    const latest = JSON.parse((await runHere(["inspect", "--spec", spec, "--json"])).stdout) as {
      revision: string;
    };
    expect(latest.revision).toBe("2030-01-01");
    const draft = JSON.parse(
      (await runHere(["inspect", "--spec", spec, "--revision", "draft", "--json"])).stdout,
    ) as { revision: string; protocolVersion: string };
    expect(draft).toMatchObject({ revision: "draft", protocolVersion: "DRAFT-2031" });
    expect((await runHere(["inspect", "--spec", spec, "--revision", "2031-01-01"])).stderr).toMatch(
      /available: 2030-01-01, draft, latest/,
    );
  });

  it("inspect --json for 2026-07-28", async () => {
    const r = await runHere(["inspect", "--spec", SPEC_DIR, "--revision", "2026-07-28", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      revision: string;
      protocolVersion: string;
      methods: {
        method: string;
        kind: string;
        directions: string[];
        type: string;
        params: string;
        result: string | null;
        inputRequired: boolean;
      }[];
      inputRequests: string[];
      errors: Record<string, number>;
    };
    expect(doc.revision).toBe("2026-07-28");
    expect(doc.protocolVersion).toBe("2026-07-28");
    const requests = doc.methods.filter((m) => m.kind === "request");
    expect(requests).toHaveLength(10);
    expect(
      requests.every((m) => m.directions.length === 1 && m.directions[0] === "client->server"),
    ).toBe(true);
    expect(
      doc.methods
        .filter((m) => m.inputRequired)
        .map((m) => m.method)
        .sort(),
    ).toEqual(["prompts/get", "resources/read", "tools/call"]);
    expect(doc.inputRequests.sort()).toEqual([
      "elicitation/create",
      "roots/list",
      "sampling/createMessage",
    ]);
    expect(doc.methods.find((m) => m.method === "tools/call")).toMatchObject({
      type: "CallToolRequest",
      params: "CallToolRequestParams",
      result: "CallToolResult",
    });
    expect(doc.methods.find((m) => m.method === "server/discover")?.result).toBe("DiscoverResult");
    const notifications = doc.methods.filter((m) => m.kind === "notification");
    expect(notifications.find((m) => m.method === "notifications/cancelled")?.directions).toEqual([
      "client->server",
      "server->client",
    ]);
    expect(notifications.find((m) => m.method === "notifications/progress")?.directions).toEqual([
      "server->client",
    ]);
    expect(doc.errors).toMatchObject({
      PARSE_ERROR: -32700,
      HEADER_MISMATCH: -32020,
      UNSUPPORTED_PROTOCOL_VERSION: -32022,
    });
  });

  it("inspect --json for 2025-11-25 shows both directions", async () => {
    const doc = JSON.parse(
      (await runHere(["inspect", "--spec", SPEC_DIR, "--revision", "2025-11-25", "--json"])).stdout,
    ) as {
      methods: { method: string; directions: string[]; result: string | null }[];
    };
    const both = doc.methods.filter((m) => m.directions.length === 2).map((m) => m.method);
    expect(both).toEqual(
      expect.arrayContaining(["ping", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]),
    );
    expect(doc.methods.find((m) => m.method === "ping")?.result).toBe("EmptyResult");
    expect(doc.methods.find((m) => m.method === "roots/list")?.directions).toEqual([
      "server->client",
    ]);
  });

  it("inspect prints a readable table", async () => {
    const r = await runHere(["inspect", "--spec", SPEC_DIR, "--revision", "2026-07-28"]);
    expect(r.stdout).toMatch(
      /^ {2}tools\/call +client->server +CallToolRequestParams -> CallToolResult {2}\[input_required\]$/m,
    );
    expect(r.stdout).toMatch(/elicitation\/create +needs client capability elicitation/);
  });

  it.each([[], ["generate"], ["revisions"], ["inspect"]])("--help on %j", async (...command) => {
    const r = await runHere([...command, "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: mcp-gen/);
    expect(r.stdout).toMatch(/--spec|Commands:/);
    if (command.length === 0)
      expect(r.stdout).toMatch(/--debug +on failure, also print the stack trace/);
    // The config is looked for upwards (findConfig), not only in the working folder.
    if (command.length > 0)
      expect(r.stdout.replace(/\s+/g, " ")).toMatch(
        /--config <file> config file \(default: the nearest mcp-gen\.config\.json here or in a folder above/,
      );
  });
});

describe("mcp-gen generate --watch", { tags: "process" }, () => {
  it("regenerates when schema.ts changes, reports a bad save and keeps watching", async () => {
    const spec = fakeSpec(readFixture("mini-schema.ts"));
    const out = join(spec, "out");
    const schemaTs = join(spec, "schema", "2030-01-01", "schema.ts");
    const child = spawn(
      process.execPath,
      [CLI, "generate", "--watch", "--spec", spec, "--out", out, "--generators", "types"],
      { cwd: AWAY },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b) => (stdout += b));
    child.stderr.on("data", (b) => (stderr += b));
    // Checked on each chunk the watcher prints: it prints a line after each run (the summary
    // once the files are written, or the error).
    const until = (what: () => boolean) =>
      whenSeen([child.stdout, child.stderr], what, `the watcher: ${what.toString()}`);
    try {
      await until(() => stdout.includes("watching"));
      expect(readFileSync(join(out, "types.ts"), "utf8")).not.toMatch(/AddedLater/);
      writeFileSync(
        schemaTs,
        readFixture("mini-schema.ts") + "\nexport type AddedLater = string;\n",
      );
      await until(
        () =>
          existsSync(join(out, "types.ts")) &&
          readFileSync(join(out, "types.ts"), "utf8").includes("AddedLater"),
      );
      writeFileSync(schemaTs, readFixture("mini-schema.ts") + "\nexport type Broken = [string];\n");
      await until(() => stderr.includes("unsupported construct: tuple type"));
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(readFileSync(join(out, "types.ts"), "utf8")).toMatch(/AddedLater/);
      writeFileSync(schemaTs, readFixture("mini-schema.ts") + "\nexport type Fixed = number;\n");
      await until(() => readFileSync(join(out, "types.ts"), "utf8").includes("Fixed"));
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGINT");
    }
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
  });
});
