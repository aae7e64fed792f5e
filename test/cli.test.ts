import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { cli, fakeSpec, readFixture, ROOT, SPEC_DIR, snapshotTree, tempDir } from "./helpers.js";

/** One clear line on stderr, the exit code, and nothing written to the output folder. */
function expectCleanFailure(args: string[], status: number, message: RegExp, out: string) {
  const before = snapshotTree(out);
  const r = cli([...args, "--out", out]);
  expect(r.status, r.stderr).toBe(status);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(snapshotTree(out)).toEqual(before);
  return r;
}

describe("mcp-gen generate: bad input", () => {
  it("a missing spec folder", () => {
    const out = join(tempDir(), "out");
    expectCleanFailure(["generate", "--spec", "/no/such/spec"], 1, /^mcp-gen: spec folder not found: \/no\/such\/spec/, out);
    expect(existsSync(out)).toBe(false);
  });

  it("an unknown revision lists the available ones", () => {
    const out = join(tempDir(), "out");
    expectCleanFailure(
      ["generate", "--spec", SPEC_DIR, "--revision", "1999-01-01"],
      1,
      /^mcp-gen: unknown revision '1999-01-01' .*available: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, latest$/,
      out,
    );
  });

  it("a schema.ts with a syntax error names file:line:col", () => {
    const spec = fakeSpec("export interface A {\n  a: string;\n  b: = 1;\n}\n");
    expectCleanFailure(["generate", "--spec", spec], 1, /^mcp-gen: .*schema\/2030-01-01\/schema\.ts:3:\d+: syntax error: .+/, join(spec, "out"));
  });

  it("an unsupported construct names file:line:col and the construct", () => {
    const spec = fakeSpec(readFixture("mini-schema.ts") + "\nexport type Pair = [string, number];\n");
    const lines = readFixture("mini-schema.ts").split("\n").length;
    expectCleanFailure(
      ["generate", "--spec", spec],
      1,
      new RegExp(`^mcp-gen: .*schema\\.ts:${lines + 1}:\\d+: unsupported construct: tuple type \\(\`\\[string, number\\]\`\\)$`),
      join(spec, "out"),
    );
  });

  it("an existing output folder is left untouched on failure", () => {
    const out = tempDir();
    writeFileSync(join(out, "notes.md"), "mine");
    expectCleanFailure(["generate", "--spec", SPEC_DIR, "--revision", "nope"], 1, /unknown revision 'nope'/, out);
  });

  it("usage errors exit 2", () => {
    const r = cli(["generate", "--no-such-flag"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--no-such-flag'/);
    expect(cli(["frobnicate", "x"]).status).toBe(2);
    expect(cli(["generate", "--revision"]).status).toBe(2);
  });

  it("an unknown generator is a config error", () => {
    const out = join(tempDir(), "out");
    expectCleanFailure(["generate", "--spec", SPEC_DIR, "--generators", "types,nope"], 1, /unknown generator 'nope'; available: types, methods, validators, dispatcher/, out);
  });
});

describe("mcp-gen generate: writing", () => {
  it("fills the output folder, and --check agrees", () => {
    const out = join(tempDir(), "out");
    const r = cli(["generate", "--spec", SPEC_DIR, "--revision", "2025-06-18", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/MCP schema 2025-06-18 -> .*out\/ \(21 written, 0 unchanged, 0 removed\)/);
    expect(readdirSync(out).sort()).toEqual(["client.ts", "dispatcher.ts", "handlers.ts", "index.ts", "methods.ts", "protocol.ts", "runtime", "stdio.ts", "types.ts", "validators.ts"]);
    const check = cli(["generate", "--spec", SPEC_DIR, "--revision", "2025-06-18", "--out", out, "--check"]);
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/is up to date with MCP schema 2025-06-18/);
  });

  it("is byte-identical across runs, and a rerun writes nothing", () => {
    const a = join(tempDir(), "a");
    const b = join(tempDir(), "b");
    expect(cli(["generate", "--spec", SPEC_DIR, "--out", a]).status).toBe(0);
    expect(cli(["generate", "--spec", SPEC_DIR, "--out", b]).status).toBe(0);
    expect(snapshotTree(a)).toEqual(snapshotTree(b));
    const again = cli(["generate", "--spec", SPEC_DIR, "--out", a]);
    expect(again.stdout).toMatch(/\(0 written, 26 unchanged, 0 removed, 1 user-owned kept\)/);
  });

  it("--check lists stale files and exits 1, writing nothing", () => {
    const out = join(tempDir(), "out");
    cli(["generate", "--spec", SPEC_DIR, "--revision", "2025-11-25", "--out", out]);
    const before = snapshotTree(out);
    const r = cli(["generate", "--spec", SPEC_DIR, "--revision", "2026-07-28", "--out", out, "--check"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/out of date with MCP schema 2026-07-28/);
    expect(r.stderr).toMatch(/out\/types\.ts/);
    expect(r.stderr).toMatch(/out\/methods\.ts/);
    expect(snapshotTree(out)).toEqual(before);
  });

  it("--check notices an edited generated file", () => {
    const out = join(tempDir(), "out");
    cli(["generate", "--spec", SPEC_DIR, "--out", out]);
    writeFileSync(join(out, "methods.ts"), readFileSync(join(out, "methods.ts"), "utf8") + "\n// edited\n");
    const r = cli(["generate", "--spec", SPEC_DIR, "--out", out, "--check"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/methods\.ts/);
    expect(r.stderr).not.toMatch(/types\.ts/);
  });

  it("never overwrites a file the user owns", () => {
    const out = tempDir();
    writeFileSync(join(out, "types.ts"), "// my own types\n");
    const r = expectCleanFailure(["generate", "--spec", SPEC_DIR], 1, /types\.ts exists and was not generated by mcp-gen/, out);
    expect(r.stdout).toBe("");
    expect(readFileSync(join(out, "types.ts"), "utf8")).toBe("// my own types\n");
  });

  it("keeps user files beside generated ones and removes stale generated files", () => {
    const out = tempDir();
    writeFileSync(join(out, "handlers.ts"), "export const mine = 1;\n");
    mkdirSync(join(out, "sub"));
    const header = "// Code generated by mcp-gen 0.0.1 from MCP schema 2020-01-01 (schema.ts sha256 000000000000). DO NOT EDIT.\n";
    writeFileSync(join(out, "sub", "old.ts"), header + "export {};\n");
    const r = cli(["generate", "--spec", SPEC_DIR, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/26 written, 0 unchanged, 1 removed, 1 user-owned kept/);
    expect(readFileSync(join(out, "handlers.ts"), "utf8")).toBe("export const mine = 1;\n");
    expect(existsSync(join(out, "sub", "old.ts"))).toBe(false);
    expect(readdirSync(out).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("writes handlers.ts once and never overwrites it", () => {
    const out = join(tempDir(), "out");
    expect(cli(["generate", "--spec", SPEC_DIR, "--out", out]).status).toBe(0);
    const skeleton = readFileSync(join(out, "handlers.ts"), "utf8");
    expect(skeleton).toMatch(/"tools\/call": async \(_params, _ctx\) => \{\n\s+\/\/ TODO: implement tools\/call\./);
    expect(skeleton.split("\n")[0]).not.toMatch(/Code generated/);
    // What the dispatcher answers by itself is not overridden by a "not implemented" stub.
    expect(skeleton).not.toMatch(/"server\/discover":/);
    expect(skeleton).toMatch(/\/\/ server\/discover: answered by the dispatcher/);
    expect(readFileSync(join(out, "index.ts"), "utf8")).not.toMatch(/stdio|http-server/);
    writeFileSync(join(out, "handlers.ts"), "// mine\n");
    const again = cli(["generate", "--spec", SPEC_DIR, "--revision", "2025-11-25", "--out", out]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/1 user-owned kept/);
    expect(readFileSync(join(out, "handlers.ts"), "utf8")).toBe("// mine\n");
    expect(readFileSync(join(out, "dispatcher.ts"), "utf8")).toMatch(/from MCP schema 2025-11-25/);
    expect(cli(["generate", "--spec", SPEC_DIR, "--revision", "2025-11-25", "--out", out, "--check"]).status).toBe(0);
  });

  it("reads defaults from mcp-gen.config.json, relative to the config file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mcp-gen.config.json"), JSON.stringify({ spec: SPEC_DIR, revision: "2024-11-05", out: "gen", generators: ["types"] }));
    const r = cli([], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(dir, "gen")).sort()).toEqual(["index.ts", "types.ts"]);
    expect(readFileSync(join(dir, "gen", "types.ts"), "utf8")).toMatch(/from MCP schema 2024-11-05/);
    // Flags win over the config.
    expect(cli(["generate", "--revision", "2025-03-26"], dir).status).toBe(0);
    expect(readFileSync(join(dir, "gen", "types.ts"), "utf8")).toMatch(/from MCP schema 2025-03-26/);
  });

  it("rejects a config with unknown keys", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mcp-gen.config.json"), JSON.stringify({ spec: SPEC_DIR, output: "x" }));
    const r = cli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/unknown key 'output'/);
  });
});

describe("mcp-gen revisions and inspect", () => {
  it("lists revisions, oldest first, marking the latest", () => {
    const r = cli(["revisions", "--spec", SPEC_DIR]);
    expect(r.stdout.trim().split("\n")).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28 (latest)"]);
    expect(JSON.parse(cli(["revisions", "--spec", SPEC_DIR, "--json"]).stdout).latest).toBe("2026-07-28");
  });

  it("uses draft/ only when asked for by name", () => {
    const spec = fakeSpec(readFixture("mini-schema.ts"), "2030-01-01");
    mkdirSync(join(spec, "schema", "draft"));
    writeFileSync(join(spec, "schema", "draft", "schema.ts"), readFixture("mini-schema.ts").replace('"2099-01-01"', '"DRAFT-2031"'));
    expect(cli(["revisions", "--spec", spec]).stdout.trim()).toBe("2030-01-01 (latest)");
    const latest = JSON.parse(cli(["inspect", "--spec", spec, "--json"]).stdout) as { revision: string };
    expect(latest.revision).toBe("2030-01-01");
    const draft = JSON.parse(cli(["inspect", "--spec", spec, "--revision", "draft", "--json"]).stdout) as { revision: string; protocolVersion: string };
    expect(draft).toMatchObject({ revision: "draft", protocolVersion: "DRAFT-2031" });
    expect(cli(["inspect", "--spec", spec, "--revision", "2031-01-01"]).stderr).toMatch(/available: 2030-01-01, draft, latest/);
  });

  it("inspect --json for 2026-07-28", () => {
    const r = cli(["inspect", "--spec", SPEC_DIR, "--revision", "2026-07-28", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      revision: string;
      protocolVersion: string;
      methods: { method: string; kind: string; directions: string[]; type: string; params: string; result: string | null; inputRequired: boolean }[];
      inputRequests: string[];
      errors: Record<string, number>;
    };
    expect(doc.revision).toBe("2026-07-28");
    expect(doc.protocolVersion).toBe("2026-07-28");
    const requests = doc.methods.filter((m) => m.kind === "request");
    expect(requests).toHaveLength(10);
    expect(requests.every((m) => m.directions.length === 1 && m.directions[0] === "client->server")).toBe(true);
    expect(doc.methods.filter((m) => m.inputRequired).map((m) => m.method).sort()).toEqual(["prompts/get", "resources/read", "tools/call"]);
    expect(doc.inputRequests.sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    expect(doc.methods.find((m) => m.method === "tools/call")).toMatchObject({
      type: "CallToolRequest",
      params: "CallToolRequestParams",
      result: "CallToolResult",
    });
    expect(doc.methods.find((m) => m.method === "server/discover")?.result).toBe("DiscoverResult");
    const notifications = doc.methods.filter((m) => m.kind === "notification");
    expect(notifications.find((m) => m.method === "notifications/cancelled")?.directions).toEqual(["client->server", "server->client"]);
    expect(notifications.find((m) => m.method === "notifications/progress")?.directions).toEqual(["server->client"]);
    expect(doc.errors).toMatchObject({ PARSE_ERROR: -32700, HEADER_MISMATCH: -32020, UNSUPPORTED_PROTOCOL_VERSION: -32022 });
  });

  it("inspect --json for 2025-11-25 shows both directions", () => {
    const doc = JSON.parse(cli(["inspect", "--spec", SPEC_DIR, "--revision", "2025-11-25", "--json"]).stdout) as {
      methods: { method: string; directions: string[]; result: string | null }[];
    };
    const both = doc.methods.filter((m) => m.directions.length === 2).map((m) => m.method);
    expect(both).toEqual(expect.arrayContaining(["ping", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]));
    expect(doc.methods.find((m) => m.method === "ping")?.result).toBe("EmptyResult");
    expect(doc.methods.find((m) => m.method === "roots/list")?.directions).toEqual(["server->client"]);
  });

  it("inspect prints a readable table", () => {
    const r = cli(["inspect", "--spec", SPEC_DIR, "--revision", "2026-07-28"]);
    expect(r.stdout).toMatch(/^ {2}tools\/call +client->server +CallToolRequestParams -> CallToolResult {2}\[input_required\]$/m);
    expect(r.stdout).toMatch(/elicitation\/create +needs client capability elicitation/);
  });

  it.each([[], ["generate"], ["revisions"], ["inspect"]])("--help on %j", (...command) => {
    const r = cli([...command, "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: mcp-gen/);
    expect(r.stdout).toMatch(/--spec|Commands:/);
  });
});

describe("mcp-gen generate --watch", () => {
  it("regenerates when schema.ts changes, reports a bad save and keeps watching", async () => {
    const spec = fakeSpec(readFixture("mini-schema.ts"));
    const out = join(spec, "out");
    const schemaTs = join(spec, "schema", "2030-01-01", "schema.ts");
    const child = spawn(process.execPath, [join(ROOT, "dist", "cli", "main.js"), "generate", "--watch", "--spec", spec, "--out", out]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b) => (stdout += b));
    child.stderr.on("data", (b) => (stderr += b));
    const until = async (what: () => boolean) => {
      for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(what()).toBe(true);
    };
    try {
      await until(() => stdout.includes("watching"));
      expect(readFileSync(join(out, "types.ts"), "utf8")).not.toMatch(/AddedLater/);
      writeFileSync(schemaTs, readFixture("mini-schema.ts") + "\nexport type AddedLater = string;\n");
      await until(() => existsSync(join(out, "types.ts")) && readFileSync(join(out, "types.ts"), "utf8").includes("AddedLater"));
      writeFileSync(schemaTs, readFixture("mini-schema.ts") + "\nexport type Broken = [string];\n");
      await until(() => stderr.includes("unsupported construct: tuple type"));
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
