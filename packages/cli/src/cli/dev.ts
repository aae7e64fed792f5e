import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { McpGenError } from "../schema/diagnostics.js";
import { display } from "./check.js";
import { CONFIG_FILE, findConfig } from "./config.js";
import { buildLayout, watchBuild } from "./dev-build.js";
import { DevServer } from "./dev-server.js";
import type { Io } from "./io.js";
import { settings } from "./settings.js";
import { interrupted, watchGeneration } from "./watch.js";

// `mcp-gen dev`: an init project's edit loop. Regenerate on a schema or config change, build
// the user's code on save, and restart the server after each good build, in one terminal.

/** The MCP Inspector release the README and tooling/inspector.mjs use. */
export const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

export interface DevOptions {
  config?: string;
  spec?: string;
  /** The HTTP server's port (default: PORT, else 3000, as `npm start`). */
  port?: string;
  /** Build only; print the command a stdio client runs. */
  stdio?: boolean;
  /** The built file to run (default: outDir's http.js, or stdio.js). */
  entry?: string;
  tsconfig?: string;
  inspector?: boolean;
  debug?: boolean;
}

/** The Inspector's command line: against a URL, or running a stdio server itself. */
export function inspectorCommand(target: { url: string } | { run: string[] }): string[] {
  return "url" in target
    ? ["npx", "-y", INSPECTOR, "--server-url", target.url]
    : ["npx", "-y", INSPECTOR, ...target.run];
}

function portOf(options: DevOptions): string {
  const text = (options.port ?? process.env["PORT"] ?? "3000").trim();
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new McpGenError(
      "usage",
      `--port must be a port number from 0 to 65535 (0: any free port), not ${JSON.stringify(text)}`,
    );
  return text;
}

/** The project's folder (its config's), its tsconfig, and what is built where. */
function devProject(options: DevOptions) {
  const config = findConfig(options.config);
  if (config === undefined)
    throw new McpGenError(
      "usage",
      `mcp-gen dev runs in a project with an ${CONFIG_FILE} (as \`mcp-gen init\` makes): none in ${display(process.cwd())} or above`,
    );
  const dir = dirname(config);
  const tsconfig = resolve(options.tsconfig ?? join(dir, "tsconfig.json"));
  if (!existsSync(tsconfig))
    throw new McpGenError("usage", `${display(tsconfig)} not found (--tsconfig names another)`);
  const layout = buildLayout(tsconfig);
  const s = settings(options);
  // Generated JavaScript with declarations (an init project's src/mcp) is not compiled by
  // tsc: it is copied into the build, as the project's build script copies it.
  const inRoot = relative(layout.rootDir, s.out);
  const copyTo =
    s.target === "js+dts" && !inRoot.startsWith("..") && !isAbsolute(inRoot)
      ? join(layout.outDir, inRoot)
      : undefined;
  const entry = resolve(
    options.entry ?? join(layout.outDir, options.stdio ? "stdio.js" : "http.js"),
  );
  return { dir, tsconfig, out: s.out, copyTo, entry };
}

/** Spawns the Inspector (its output forwarded, prefixed); it ends with dev. */
function openInspector(command: string[], cwd: string, io: Io): ChildProcess {
  io.out(`mcp-gen dev: opening the MCP Inspector: ${command.join(" ")}`);
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    // npx is npx.cmd on Windows, which only a shell runs.
    shell: process.platform === "win32",
  });
  child.stdout!.on("data", (b: Buffer) => io.out(`[inspector] ${String(b).trimEnd()}`));
  child.stderr!.on("data", (b: Buffer) => io.err(`[inspector] ${String(b).trimEnd()}`));
  child.on("error", (error) => io.err(`mcp-gen dev: cannot run npx: ${error.message}`));
  return child;
}

export async function devCommand(options: DevOptions, io: Io): Promise<number> {
  const port = portOf(options);
  const project = devProject(options);
  const stdioRun = ["node", relative(project.dir, project.entry)];
  // Armed first: a Ctrl-C during the first build still stops everything started.
  const stopped = interrupted();
  let inspector: ChildProcess | undefined;
  let hinted = false;
  // Once, at the first good start: the Inspector, or the command that opens it.
  const inspect = (command: string[]) => {
    if (hinted) return;
    hinted = true;
    if (options.inspector) inspector = openInspector(command, project.dir, io);
    else io.out(`mcp-gen dev: inspect it with: ${command.join(" ")}`);
  };
  const server = options.stdio
    ? undefined
    : new DevServer(
        {
          entry: project.entry,
          cwd: project.dir,
          env: { ...process.env, PORT: port },
          listening: (url) => inspect(inspectorCommand({ url })),
        },
        io,
      );
  let lastBuildGood = false;
  const ready = () => {
    if (server) return void server.restart();
    io.out(`mcp-gen dev: built; a stdio client runs: ${stdioRun.join(" ")}`);
    inspect(inspectorCommand({ run: stdioRun }));
  };
  const generation = await watchGeneration(options, io, () => {
    if (project.copyTo) {
      // Replaced, not merged: a file generation removed must not stay importable from dist/.
      rmSync(project.copyTo, { recursive: true, force: true });
      cpSync(project.out, project.copyTo, { recursive: true });
    }
    if (lastBuildGood) ready();
  });
  const build = watchBuild(project.tsconfig, io, (errors) => {
    lastBuildGood = errors === 0;
    if (lastBuildGood) return ready();
    io.err(
      `mcp-gen dev: build failed (${errors} error${errors === 1 ? "" : "s"}); ${server ? "the server keeps running the last good build" : `${display(project.entry)} is the last good build`}`,
    );
  });
  io.out(`mcp-gen dev: watching ${display(project.dir)} (Ctrl-C to stop)`);
  await stopped;
  build.close();
  await generation.close();
  await server?.stop();
  inspector?.kill();
  return 0;
}
