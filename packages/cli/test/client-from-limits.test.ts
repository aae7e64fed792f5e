// `mcp-gen client --from` on listings built to make it work for minutes: every cap is one
// line and a non-zero exit before anything slow runs (the listing formatted, the file
// printed). The caps count what makes the output grow (enum members and any other JSON
// value, nesting, bytes over all pages), not only subschemas and entries. And what --from
// names: a `$VAR` is refused (no shell expands it), a file is a file only when it is one.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceOf } from "../src/cli/server-listing.js";
import { SPEC_DIR, tempDir } from "./helpers.js";
import { runHere } from "./support/run-here.js";

/** `mcp-gen client --from <from>` in a folder holding `tools.json` (when a listing is given). */
async function client(from: string, listing?: unknown, dir = tempDir("mcp-gen-from-limits-")) {
  if (listing !== undefined) writeFileSync(join(dir, "tools.json"), JSON.stringify(listing));
  const run = await runHere(["client", "--from", from, "--out", "src/tools.ts"], dir);
  return { status: run.status, stderr: run.stderr, dir };
}

const tool = (inputSchema: object) => ({ tools: [{ name: "t", inputSchema }] });

describe("a hostile listing file: one line, exit 1, nothing written", () => {
  it("counts enum members against a tool's 20,000 subschemas", async () => {
    const members = Array.from({ length: 20_001 }, (_, i) => `v${i}`);
    const run = await client(
      "tools.json",
      tool({ type: "object", properties: { e: { enum: members } } }),
    );
    expect(run.stderr).toBe(
      'mcp-gen: tool "t" has more than 20000 subschemas (enum members counted); mcp-gen reads no more\n',
    );
    expect(run.status).toBe(1);
  });

  it("counts every JSON value of the listing (examples, consts, unknown keywords) against 50,000", async () => {
    const examples = Array.from({ length: 50_001 }, (_, i) => i);
    const run = await client("tools.json", tool({ type: "object", examples }));
    expect(run.stderr).toBe(
      "mcp-gen: tools.json: holds more than 50000 JSON values (schemas, properties, enum members, examples); mcp-gen reads at most 50000\n",
    );
    expect(run.status).toBe(1);
  });

  it("refuses JSON nested deeper than 128 levels anywhere, not only in subschemas", async () => {
    const dir = tempDir("mcp-gen-from-limits-");
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    writeFileSync(
      join(dir, "tools.json"),
      `{"tools":[{"name":"t","inputSchema":{"type":"object","x-deep":${deep}}}]}`,
    );
    const run = await client("tools.json", undefined, dir);
    expect(run.stderr).toBe(
      "mcp-gen: tools.json: nests deeper than 128 levels; mcp-gen reads no deeper\n",
    );
    expect(run.status).toBe(1);
  });
});

/** A stdio server (initialize-based) whose tools/list never ends: pages of 2 MB each, counted in `pages.log`. */
const ENDLESS_PAGES = `
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const send = (x) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...x }) + "\\n");
  if (m.method === "initialize")
    return send({ result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "big", version: "1" } } });
  if (m.method === "tools/list") {
    appendFileSync("pages.log", "page\\n");
    const n = Number(m.params?.cursor ?? 0);
    const tools = Array.from({ length: 5 }, (_, i) => ({ name: "t" + n + "_" + i, description: "x".repeat(400000), inputSchema: { type: "object" } }));
    return send({ result: { tools, nextCursor: String(n + 1) } });
  }
  send({ error: { code: -32601, message: "Method not found" } });
});
`;

describe("a server whose listing never ends", () => {
  it("stops reading at 8 MiB over all pages, one line naming the cap", async () => {
    const dir = tempDir("mcp-gen-from-pages-");
    writeFileSync(join(dir, "server.mjs"), ENDLESS_PAGES);
    const run = await runHere(
      [
        "client",
        "--from",
        `${process.execPath} server.mjs`,
        "--out",
        "src/tools.ts",
        "--revisions",
        "2025-11-25",
        "--spec",
        SPEC_DIR,
      ],
      dir,
    );
    expect(run.stderr).toBe(
      `mcp-gen: the server '${process.execPath}' lists more than 8388608 bytes (tools, prompts and resource templates together); mcp-gen reads at most 8388608\n`,
    );
    expect(run.status).toBe(1);
    // 2 MB a page: the fifth passes the cap; nothing is asked after it.
    expect(readFileSync(join(dir, "pages.log"), "utf8").split("\n").length - 1).toBe(5);
  }, 120_000);
});

describe("what --from names: no silent expansion, a file only when it is one", () => {
  const usage = (from: string) => {
    try {
      sourceOf(from);
    } catch (error) {
      return (error as Error).message;
    }
    return undefined;
  };

  it("refuses $VAR, ${VAR} and $5 (no shell runs to expand them) instead of passing empty words", () => {
    const advice =
      "mcp-gen runs the command without a shell and expands no variables: let your shell expand it (double quotes around the value), or single-quote it to pass it as written";
    expect(usage("node server.js --token $TOKEN")).toBe(
      `--from 'node server.js --token $TOKEN' uses $TOKEN; ${advice}`,
    );
    expect(usage("node ${HOME}/server.js")).toBe(
      `--from 'node \${HOME}/server.js' uses $HOME; ${advice}`,
    );
    expect(usage('node server.js "$5"')).toBe(`--from 'node server.js "$5"' uses $5; ${advice}`);
    // Single-quoted or escaped, a dollar is the program's, as written.
    expect(sourceOf("node server.js '$x' a\\$b")).toEqual({
      kind: "command",
      command: "node",
      args: ["server.js", "$x", "a$b"],
    });
  });

  it("takes a command whose last word ends in .json for a command, and a file only when it is one", () => {
    const dir = tempDir("mcp-gen-from-source-");
    mkdirSync(join(dir, "my listings"));
    const spaced = join(dir, "my listings", "tools.json");
    writeFileSync(spaced, "{}");
    expect(sourceOf(spaced)).toEqual({ kind: "file", path: spaced });
    expect(sourceOf("node server.js --config config.json")).toEqual({
      kind: "command",
      command: "node",
      args: ["server.js", "--config", "config.json"],
    });
    // One word naming a .json that is not there: the file is missing, not a program.
    expect(usage(join(dir, "gone.json"))).toBe(`--from ${join(dir, "gone.json")}: no such file`);
  });
});
