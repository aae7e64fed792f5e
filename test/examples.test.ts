// Every project under examples/ as its reader would use it: the protocol code generated from
// its own mcp-gen.config.json, its files type-checked with the generated code under the
// strict flags, then its server started and its client run against it (the v1 SDK client
// 1.32.2, a real peer). The docs' pages include their code from these files
// (scripts/docs/check-snippets.mjs refuses a page's code that comes from nowhere else).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../generators/index.js";
import { loadRevision } from "../schema/index.js";
import { ROOT, SPEC_DIR, tempDir, typecheck, writeFiles } from "./helpers.js";
import { printedUntil } from "./support/project-processes.js";
import { transpileDir } from "../scripts/transpile-generated.mjs";

const EXAMPLES = join(ROOT, "examples");
const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill()));

/** The example copied out, with its generated code and node_modules; returns the folder. */
async function prepare(name: string): Promise<{ dir: string; sources: string[] }> {
  const dir = join(tempDir("mcp-gen-example-"), name);
  cpSync(join(EXAMPLES, name), dir, { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const config = JSON.parse(readFileSync(join(dir, "mcp-gen.config.json"), "utf8")) as {
    revisions: string[];
    out: string;
  };
  const [newest, ...older] = config.revisions.map((r) => loadRevision(SPEC_DIR, r));
  writeFiles(join(dir, config.out), await generate(newest!, undefined, { legacy: older }));
  const sources = readdirSync(dir).filter((f) => f.endsWith(".ts"));
  return { dir, sources };
}

describe("examples/hello-server", () => {
  it("type-checks with its generated code, serves one tool, and the v1 SDK client calls it", async () => {
    const { dir, sources } = await prepare("hello-server");
    expect(sources.sort()).toEqual(["client.ts", "main.ts", "server.ts"]);
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
    // The checkout's node_modules first (the SDK client, and the runtime package through its
    // workspace link), so transpileDir finds the runtime there and links nothing of its own.
    const js = join(dir, "..", "js");
    mkdirSync(js);
    symlinkSync(join(ROOT, "node_modules"), join(js, "node_modules"), "dir");
    transpileDir(dir, js);
    const server = spawn(process.execPath, [join(js, "main.js")], {
      env: { ...process.env, PORT: "0" },
    });
    children.push(server);
    const printed = await printedUntil(server, "\n");
    const url = /MCP server listening on (http:\/\/\S+)/.exec(printed)?.[1];
    expect(url, printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = spawnSync(process.execPath, [join(js, "client.js"), url!], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(client.stderr).toBe("");
    expect(client.stdout).toBe('tools: add\nadd(2, 3): [{"type":"text","text":"5"}]\n');
    expect(client.status).toBe(0);
    await troubleshootingHolds(url!);
    // A strict type-check of the output and a server start: 57 s alone at load average 29.
  }, 180_000);
});

/**
 * What docs/guide/troubleshooting.md says of the headers each era needs, against a real
 * generated server: its curl command as written, and each refusal its tables name.
 */
async function troubleshootingHolds(url: string) {
  const page = readFileSync(join(ROOT, "docs", "guide", "troubleshooting.md"), "utf8");
  const curl = /```sh\n(curl [\s\S]*?)```/.exec(page)![1]!;
  const ran = spawnSync("bash", ["-c", curl.replace("http://127.0.0.1:3000/mcp", url)], {
    encoding: "utf8",
  });
  expect(ran.status, ran.stderr).toBe(0);
  expect(JSON.parse(ran.stdout).result.content).toEqual([{ type: "text", text: "5" }]);

  const body = (meta = true) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "add",
        arguments: { a: 2, b: 3 },
        ...(meta && {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        }),
      },
    });
  const full = {
    "content-type": "application/json",
    "mcp-method": "tools/call",
    "mcp-protocol-version": "2026-07-28",
    "mcp-name": "add",
  };
  const without = (name: keyof typeof full) =>
    Object.fromEntries(Object.entries(full).filter(([key]) => key !== name));
  const answer = async (init: RequestInit) => {
    const response = await fetch(url, { method: "POST", body: body(), ...init });
    const text = await response.text();
    return { status: response.status, error: text ? JSON.parse(text).error : undefined };
  };
  for (const [header, message] of [
    ["mcp-method", "Header mismatch: missing Mcp-Method header"],
    ["mcp-protocol-version", "Header mismatch: missing MCP-Protocol-Version header"],
    ["mcp-name", "Header mismatch: missing Mcp-Name header"],
  ] as const)
    expect(await answer({ headers: without(header) }), header).toEqual({
      status: 400,
      error: { code: -32020, message },
    });
  expect(await answer({ headers: without("content-type") })).toMatchObject({
    status: 415,
    error: { message: "Content-Type must be application/json" },
  });
  expect(await answer({ method: "GET", body: null, headers: {} })).toMatchObject({
    status: 405,
    error: { message: "Method not allowed: use POST" },
  });
  expect(await answer({ headers: { ...full, origin: "https://evil.example" } })).toMatchObject({
    status: 403,
    error: { message: "Origin not allowed" },
  });
  expect(await answer({ headers: { ...full, "mcp-session-id": "gone" } })).toMatchObject({
    status: 404,
    error: { message: "Session not found" },
  });
  const version = { ...full, "mcp-protocol-version": "2020-01-01" };
  const unsupported = await fetch(url, {
    method: "POST",
    headers: version,
    body: body().replace('"2026-07-28"', '"2020-01-01"'),
  });
  expect(unsupported.status).toBe(400);
  expect((await unsupported.json()).error).toMatchObject({
    code: -32022,
    data: { supported: ["2026-07-28"] },
  });
}
