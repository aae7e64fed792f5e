import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, SPEC_DIR, snapshotTree, tempDir } from "./helpers.js";

type Any = any;

function npm(args: string[], cwd: string) {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", timeout: 300_000 });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

describe("mcp-gen init", () => {
  let project: string;
  const children: Any[] = [];

  beforeAll(() => {
    project = join(tempDir(), "my-server");
    const r = cli(["init", project, "--spec", SPEC_DIR, "--revision", "2026-07-28"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/created an MCP server project in .*my-server/);
  });

  afterAll(() => {
    for (const child of children) child.kill();
  });

  it("refuses a folder that is not empty, unless forced (and even then keeps existing files)", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "README.md"), "mine\n");
    const refused = cli(["init", dir, "--spec", SPEC_DIR]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/is not empty/);
    expect(Object.keys(snapshotTree(dir))).toEqual(["README.md"]);
    const forced = cli(["init", dir, "--spec", SPEC_DIR, "--force"]);
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("mine\n");
    expect(cli(["init", tempDir(), "--spec", SPEC_DIR, "--revision", "2025-11-25"]).stderr).toMatch(/needs a revision with stateless requests/);
  });

  it("installs, builds and passes its own tests with its README's commands", () => {
    const readme = readFileSync(join(project, "README.md"), "utf8");
    for (const command of ["npm install", "npm run build", "npm test", "npm start", "npm run start:stdio"]) expect(readme).toContain(command);
    const install = npm(["install", "--no-audit", "--no-fund", "--prefer-offline"], project);
    expect(install.status, install.output).toBe(0);
    const test = npm(["test"], project);
    expect(test.status, test.output).toBe(0);
    expect(test.output).toMatch(/# pass 3/);
    expect(test.output).toMatch(/# fail 0/);
  }, 300_000);

  const greetOver = async (transport: Any) => {
    const { createClient } = await import(join(project, "dist", "mcp", "client.js"));
    const asked: Any[] = [];
    const client = createClient({
      transport,
      inputHandlers: {
        "elicitation/create": (params: Any) => {
          asked.push(params);
          return { action: "accept", content: { name: "Grace" } };
        },
      },
    });
    const result = await client.callTool({ name: "greet" });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Grace!" }]);
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toBe("What is your name?");
    const prompt = await client.getPrompt({ name: "haiku", arguments: { topic: "rain" } });
    expect(JSON.stringify(prompt.messages)).toContain("haiku about rain");
    await client.close();
  };

  it("starts on stdio, and the generated client runs the example tool's round trip", async () => {
    const { createStdioTransport } = await import(join(project, "dist", "mcp", "stdio.js"));
    await greetOver(createStdioTransport({ command: process.execPath, args: [join(project, "dist", "stdio.js")], cwd: project }));
  });

  it("starts on HTTP (127.0.0.1), and the generated client runs the example tool's round trip", async () => {
    const child = spawn(process.execPath, [join(project, "dist", "http.js")], { cwd: project, env: { ...process.env, PORT: "0" } });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (b) => {
        out += b;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
    });
    const { createHttpTransport } = await import(join(project, "dist", "mcp", "http-client.js"));
    await greetOver(createHttpTransport({ url }));
    // The same process serves legacy clients: the v1 SDK (what most hosts embed) and the v2
    // SDK in its default mode, concurrently with each other.
    await Promise.all([v1Greets(new V1HttpTransport(new URL(url))), v2Greets(url)]);
    child.kill();
  });

  it("serves the v1 SDK client over stdio (a legacy session for the process)", async () => {
    await v1Greets(new V1StdioTransport({ command: process.execPath, args: [join(project, "dist", "stdio.js")], cwd: project }));
  });

  const v1Greets = async (transport: Any) => {
    const client = new V1Client({ name: "v1-host", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add", "greet"]);
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).content).toEqual([{ type: "text", text: "3" }]);
    expect((await client.callTool({ name: "greet", arguments: {} })).content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(JSON.stringify((await client.getPrompt({ name: "haiku", arguments: { topic: "tea" } })).messages)).toContain("haiku about tea");
    expect((await client.readResource({ uri: "memo://welcome" })).contents).toHaveLength(1);
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(1);
    await client.close();
  };

  const v2Greets = async (url: string) => {
    const client = new V2Client({ name: "v2-host", version: "1.0.0" });
    await client.connect(new V2HttpTransport(new URL(url)));
    // No elicitation capability declared: the tool greets plainly instead of asking.
    expect((await client.callTool({ name: "greet", arguments: {} })).content).toEqual([{ type: "text", text: "Hello, whoever you are!" }]);
    await client.close();
  };

  it("regenerating after a revision change rewrites only generated files", () => {
    const userFiles = ["src/mcp/handlers.ts", "src/server.ts", "src/http.ts", "src/stdio.ts", "src/test/server.test.ts", "package.json", "README.md", "tsconfig.json"];
    const before = snapshotTree(project);
    const config = JSON.parse(readFileSync(join(project, "mcp-gen.config.json"), "utf8"));
    expect(config.revisions).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);
    const { revisions: _dualEra, ...rest } = config;
    writeFileSync(join(project, "mcp-gen.config.json"), JSON.stringify({ ...rest, revision: "2025-11-25" }, null, 2));
    const r = spawnSync(process.execPath, [join(project, "node_modules", "mcp-gen", "dist", "cli", "main.js")], { cwd: project, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const after = snapshotTree(project);
    for (const file of userFiles) expect(after[file], file).toBe(before[file]);
    expect(after["src/mcp/types.ts"]).toMatch(/^\/\/ Code generated by mcp-gen .* from MCP schema 2025-11-25/);
    // Files the older revision does not have are removed: they were generated.
    expect(after["src/mcp/http-server.ts"]).toBeUndefined();
    expect(before["src/mcp/http-server.ts"]).toBeDefined();
  });
});
