import { spawn } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { INSPECTOR, inspectorCommand } from "../src/cli/dev.js";
import { CLI, cli, ROOT, SPEC_DIR, tempDir } from "./helpers.js";
import { freePort } from "./support/free-port.js";
import { runHere } from "./support/run-here.js";
import { whenSeen, within } from "./support/wait.js";

/**
 * Deadlines that only fail, never wait. The first build (TypeScript loaded, the project
 * checked) and a generation of four revisions took 20-50 s on the busy 2-core machine.
 */
const FIRST_BUILD_MS = 240_000;
const STEP_MS = 120_000;

interface ProjectClient {
  callTool(params: { name: string; arguments: object }): Promise<{ content: unknown }>;
}

/** The project's own generated client, as built by dev into dist/mcp, over HTTP. */
async function projectClient(project: string, url: string): Promise<ProjectClient> {
  const at = (file: string) => pathToFileURL(join(project, "dist", "mcp", file)).href;
  const { createClient } = (await import(/* @vite-ignore */ at("client.js"))) as {
    createClient(options: { transport: unknown }): ProjectClient;
  };
  const { createHttpTransport } = (await import(/* @vite-ignore */ at("http-client.js"))) as {
    createHttpTransport(options: { url: string }): unknown;
  };
  return createClient({ transport: createHttpTransport({ url }) });
}

describe("the Inspector dev opens", () => {
  it("is the release the README and tooling/inspector.mjs pin", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(`npx -y ${INSPECTOR} --cli`);
    expect(readFileSync(join(ROOT, "tooling", "inspector.mjs"), "utf8")).toContain(
      `INSPECTOR = "${INSPECTOR}"`,
    );
    expect(inspectorCommand({ url: "http://127.0.0.1:3000/mcp" })).toEqual([
      "npx",
      "-y",
      INSPECTOR,
      "--server-url",
      "http://127.0.0.1:3000/mcp",
    ]);
    expect(inspectorCommand({ run: ["node", "dist/stdio.js"] }).slice(2)).toEqual([
      INSPECTOR,
      "node",
      "dist/stdio.js",
    ]);
  });
});

describe("mcp-gen dev refuses what it cannot run, in one line", () => {
  it("outside a project, with a bad port, without a tsconfig or its outDir", async () => {
    const away = tempDir("mcp-gen-dev-away-");
    // A folder of its own, with .git: the config search stops there.
    writeFileSync(join(away, ".git"), "");
    const none = await runHere(["dev"], away);
    expect(none.stderr).toMatch(
      /^mcp-gen: mcp-gen dev runs in a project with an mcp-gen\.config\.json \(as `mcp-gen init` makes\): none in \S+ or above\n$/,
    );
    expect(none.status).toBe(2);
    writeFileSync(join(away, "mcp-gen.config.json"), '{ "out": "src/mcp" }\n');
    const noTsconfig = await runHere(["dev"], away);
    expect(noTsconfig.stderr).toMatch(/tsconfig\.json not found \(--tsconfig names another\)\n$/);
    expect(noTsconfig.status).toBe(2);
    writeFileSync(join(away, "tsconfig.json"), '{ "compilerOptions": {} }\n');
    writeFileSync(join(away, "index.ts"), "export {};\n");
    const noOutDir = await runHere(["dev"], away);
    expect(noOutDir.stderr).toMatch(
      /sets no compilerOptions\.outDir: mcp-gen dev runs the server from the built output\n$/,
    );
    expect(noOutDir.status).toBe(1);
    const badPort = await runHere(["dev", "--port", "http"], away);
    expect(badPort.stderr).toBe(
      'mcp-gen: --port must be a port number from 0 to 65535 (0: any free port), not "http"\n',
    );
    expect(badPort.status).toBe(2);
  });
});

describe("mcp-gen dev", { tags: "process" }, () => {
  it("restarts on a good save, keeps the old server on a compile error, regenerates on a config change", async () => {
    const project = join(tempDir("mcp-gen-dev-"), "my-server");
    const init = cli(["init", project, "--spec", SPEC_DIR]);
    expect(init.status, init.stderr).toBe(0);
    // The checkout's node_modules stand in for the project's npm install.
    symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
    const handlers = join(project, "src", "handlers.ts");
    const original = readFileSync(handlers, "utf8");
    const sum = "String(a + b)";
    expect(original).toContain(sum);
    const edit = (to: string) => writeFileSync(handlers, original.replace(sum, to));

    const port = await freePort();
    const dev = spawn(process.execPath, [CLI, "dev", "--port", String(port)], { cwd: project });
    let stdout = "";
    let stderr = "";
    dev.stdout.on("data", (b: Buffer) => (stdout += b));
    dev.stderr.on("data", (b: Buffer) => (stderr += b));
    const count = (text: string, what: string) => what.split(text).length - 1;
    const until = (what: string, ready: () => boolean, ms = STEP_MS) =>
      whenSeen([dev.stdout, dev.stderr], ready, `mcp-gen dev: ${what}`, ms);
    const url = `http://127.0.0.1:${port}/mcp`;
    const sumOf = async () =>
      (
        await (
          await projectClient(project, url)
        ).callTool({ name: "add", arguments: { a: 2, b: 3 } })
      ).content;
    const exited = new Promise<number | null>((resolve) => dev.on("exit", resolve));
    try {
      await until("started", () => stdout.includes(`server started at ${url}`), FIRST_BUILD_MS);
      // Printed right after, but a later write: it may come in a chunk of its own.
      const inspect = `inspect it with: npx -y ${INSPECTOR} --server-url ${url}`;
      await until("the Inspector's command", () => stdout.includes(inspect));
      expect(await sumOf()).toEqual([{ type: "text", text: "5" }]);

      edit("String(a + b + 1000)");
      await until("restarted", () => stdout.includes(`server restarted at ${url}`));
      expect(await sumOf()).toEqual([{ type: "text", text: "1005" }]);

      edit("String(a + b + nope)");
      await until("build failed", () => stderr.includes("mcp-gen dev: build failed (1 error)"));
      expect(stderr).toMatch(
        /^src\/handlers\.ts:\d+:\d+: error TS2304: Cannot find name 'nope'\.$/m,
      );
      expect(stderr).toContain("the server keeps running the last good build");
      expect(await sumOf()).toEqual([{ type: "text", text: "1005" }]);

      edit("String(a + b + 2000)");
      await until("restarted after the fix", () => count("server restarted", stdout) === 2);
      expect(await sumOf()).toEqual([{ type: "text", text: "2005" }]);

      // The config saved again: generate runs again, and the server restarts on its output.
      const config = join(project, "mcp-gen.config.json");
      writeFileSync(config, readFileSync(config, "utf8"));
      await until("regenerated", () => count("mcp-gen: MCP schema", stdout) === 2);
      await until("restarted after generate", () => count("server restarted", stdout) === 3);
      expect(await sumOf()).toEqual([{ type: "text", text: "2005" }]);
      expect(dev.exitCode).toBeNull();
    } finally {
      dev.kill("SIGINT");
    }
    expect(await within(exited, "mcp-gen dev to exit on SIGINT")).toBe(0);
    // The server went with it.
    await expect(fetch(url, { method: "POST" })).rejects.toThrow();
  });
});
