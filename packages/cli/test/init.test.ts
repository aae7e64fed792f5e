import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer as createNetServer } from "node:net";
import { delimiter, dirname, join, relative, sep } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installSuite, NODE22 } from "../../../tooling/conformance/setup.mjs";
import { cli, CLI_ROOT, ROOT, SPEC_DIR, snapshotTree, tempDir } from "./helpers.js";
import { startTestAuthorizationServer } from "./support/oauth-server.js";
import { freePort, npm, packWithBundledSpec, printedUntil } from "./support/project-processes.js";

type Any = any;

/** The environment that runs `node` (and npm itself) as Node 22: its folder first on PATH. */
const node22Env = () => ({
  ...process.env,
  PATH: `${dirname(NODE22)}${delimiter}${process.env["PATH"]}`,
});

const SECRET = "shared-secret-0123456789abcdefghijklmnopqrstuvw";
const OTHER_SECRET = "other-secret-0123456789abcdefghijklmnopqrstuvwxy";

// The path a user takes: mcp-gen as a packed tarball (what the registry would serve),
// installed into a folder of its own, runs init; the project installs and builds from it.
describe("mcp-gen init, from an installed mcp-gen", () => {
  let project: string;
  let authProject: string;
  /** The packed CLI (with the released schemas) and runtime packages. */
  let tarball: string;
  let runtimeTarball: string;
  let installedCli: string;
  const children: Any[] = [];

  beforeAll(() => {
    tarball = packWithBundledSpec();
    // The runtime package, packed as the registry would serve it.
    const packDir = tempDir("mcp-gen-pack-runtime-");
    const packed = npm(
      [
        "pack",
        "--ignore-scripts",
        "--pack-destination",
        packDir,
        join(ROOT, "packages", "runtime"),
      ],
      packDir,
    );
    expect(packed.status, packed.output).toBe(0);
    runtimeTarball = join(
      packDir,
      readdirSync(packDir).find((f) => f.endsWith(".tgz"))!,
    );
    const tool = tempDir("mcp-gen-tool-");
    writeFileSync(join(tool, "package.json"), '{ "name": "tool", "private": true }\n');
    const installed = npm(
      ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, runtimeTarball],
      tool,
    );
    expect(installed.status, installed.output).toBe(0);
    expect(installed.output).not.toMatch(/prepare|tsc: not found/);
    installedCli = join(tool, "node_modules", "@mcp-gen", "cli", "dist", "cli", "main.js");
    // No spec checkout anywhere: run where no config is found, no --spec, no --revision. The
    // installed mcp-gen's bundled schemas are the default (their latest is 2026-07-28).
    const userDir = tempDir("mcp-gen-user-");
    project = join(userDir, "my-server");
    const r = spawnSync(process.execPath, [installedCli, "init", "my-server"], {
      cwd: userDir,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /created an MCP server project in .*my-server \(\d+ files written\)\n/,
    );
    expect(r.stdout).not.toMatch(/kept/);
    const config = JSON.parse(readFileSync(join(project, "mcp-gen.config.json"), "utf8"));
    expect(config.spec).toBeUndefined();
    expect(config.revisions[0]).toBe("2026-07-28");
    // The dependency resolves the way mcp-gen was installed: from the tarball, by a path
    // relative to the project (the registry has no such version).
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(pkg.devDependencies["@mcp-gen/cli"]).toBe(
      `file:${relative(project, tarball).split(sep).join("/")}`,
    );
    expect(pkg.devDependencies["mcp-gen"]).toBeUndefined();
    // Its libraries: the runtime package (installed the same way, so a fix reaches the project
    // through npm update) and src/validate.ts's (tool arguments checked against inputSchema),
    // at mcp-gen's own tested versions; without --auth the JWT verifier's jose is not there.
    const ours = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8")).devDependencies;
    expect(pkg.dependencies).toEqual({
      "@mcp-gen/runtime": `file:${relative(project, runtimeTarball).split(sep).join("/")}`,
      ajv: `^${ours.ajv}`,
      "ajv-formats": `^${ours["ajv-formats"]}`,
    });
    // It compiles with the TypeScript and Node types mcp-gen is tested with, pinned: never
    // whatever release is newest the day it is installed.
    const own = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8"));
    expect(pkg.devDependencies).toMatchObject({
      typescript: own.dependencies.typescript,
      "@types/node": ours["@types/node"],
    });
    expect(existsSync(join(project, "src", "mcp", "runtime"))).toBe(false);
    expect(existsSync(join(project, "src", "mcp", "auth.ts"))).toBe(false);
    authProject = join(tempDir(), "my-protected-server");
    const a = spawnSync(
      process.execPath,
      [installedCli, "init", authProject, "--auth", "--spec", SPEC_DIR, "--revision", "2026-07-28"],
      { encoding: "utf8" },
    );
    expect(a.status, a.stderr).toBe(0);
  }, 300_000);

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
    expect(cli(["init", tempDir(), "--spec", SPEC_DIR, "--revision", "2025-11-25"]).stderr).toMatch(
      /needs a revision with stateless requests/,
    );
    const file = join(tempDir(), "a-file");
    writeFileSync(file, "mine\n");
    const onFile = cli(["init", file, "--spec", SPEC_DIR]);
    expect([onFile.status, onFile.stderr]).toEqual([
      1,
      `mcp-gen: ${file} is a file, not a folder; mcp-gen init writes only into a new or empty folder\n`,
    ]);
    // A user-owned file where a generated one goes: init fails before writing anything.
    const owned = tempDir();
    mkdirSync(join(owned, "src", "mcp"), { recursive: true });
    writeFileSync(join(owned, "src", "mcp", "types.d.ts"), "// mine\n");
    const conflict = cli(["init", owned, "--spec", SPEC_DIR, "--force"]);
    expect(conflict.status).toBe(1);
    expect(conflict.stderr).toMatch(/types\.d\.ts exists and was not generated by mcp-gen/);
    expect(snapshotTree(owned)).toEqual({ "src/mcp/types.d.ts": "// mine\n" });
    // Two full generations and three refusals, each a CLI process: 69 s at load average 17.
  }, 180_000);

  it("installs, builds and passes its own tests with its README's commands", () => {
    const readme = readFileSync(join(project, "README.md"), "utf8");
    for (const command of [
      "npm install",
      "npm run build",
      "npm test",
      "npm start",
      "npm run start:stdio",
      "npm run dev",
    ])
      expect(readme).toContain(command);
    // Exactly the README's `npm install`: the dependency init wrote resolves by itself.
    const install = npm(["install", "--no-audit", "--no-fund", "--prefer-offline"], project);
    expect(install.status, install.output).toBe(0);
    const test = npm(["test"], project);
    expect(test.status, test.output).toBe(0);
    expect(test.output).toMatch(/# pass 13\n# fail 0/);
    expect(test.output).toMatch(/# fail 0/);
  }, 300_000);

  // The Node 22 the conformance setup installs (its node --test takes no folder, and would
  // run src/**/*.test.ts itself since it strips types: the script names the compiled files).
  it("builds and passes its own tests on Node 22 too", () => {
    installSuite();
    const env = node22Env();
    expect(spawnSync("node", ["-p", "process.version"], { env, encoding: "utf8" }).stdout).toMatch(
      /^v22\./,
    );
    // `npm test` is `npm run build` then the tests: dist/ is rebuilt by Node 22's tsc run.
    rmSync(join(project, "dist"), { recursive: true, force: true });
    const test = npm(["test"], project, env);
    expect(test.status, test.output).toBe(0);
    expect(test.output).toContain("> tsc -p tsconfig.json");
    expect(test.output).toMatch(/# pass 13\n# fail 0/);
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
    await greetOver(
      createStdioTransport({
        command: process.execPath,
        args: [join(project, "dist", "stdio.js")],
        cwd: project,
        stderr: "ignore",
      }),
    );
  });

  // The point of the runtime package: a fix released as runtime N+1 reaches the project through
  // its package manager, with nothing regenerated. N+1 here is this checkout's runtime with the
  // next patch version and one message changed, packed as the registry would serve it.
  it("takes a patched runtime release through npm install alone: no regeneration, new behaviour", async () => {
    const patched = tempDir("mcp-gen-runtime-next-");
    cpSync(join(ROOT, "packages", "runtime"), patched, {
      recursive: true,
      filter: (from) => !from.includes("node_modules"),
    });
    const manifest = JSON.parse(readFileSync(join(patched, "package.json"), "utf8"));
    const next = semver.inc(manifest.version, "patch")!;
    writeFileSync(join(patched, "package.json"), JSON.stringify({ ...manifest, version: next }));
    const tools = join(patched, "dist", "server", "tools.js");
    const code = readFileSync(join(patched, "dist", "server", "tools.js"), "utf8");
    const message = "`Tool ${params.name} not found`";
    expect(code).toContain(message);
    writeFileSync(tools, code.replace(message, `${message.slice(0, -1)} (runtime ${next})\``));
    const packDir = tempDir("mcp-gen-pack-next-");
    expect(
      npm(["pack", "--ignore-scripts", "--pack-destination", packDir, patched], packDir).status,
    ).toBe(0);
    const generated = snapshotTree(join(project, "src", "mcp"));
    const update = npm(
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        join(packDir, readdirSync(packDir)[0]!),
      ],
      project,
    );
    expect(update.status, update.output).toBe(0);
    try {
      const installed = join(project, "node_modules", "@mcp-gen", "runtime", "package.json");
      expect(JSON.parse(readFileSync(installed, "utf8")).version).toBe(next);
      // Nothing generated changed, and the output still accepts the runtime it now runs on.
      expect(snapshotTree(join(project, "src", "mcp"))).toEqual(generated);
      const check = npm(["run", "check"], project);
      expect(check.status, check.output).toBe(0);
      // The server process, started afresh, runs the patched runtime.
      const { createStdioTransport } = await import(join(project, "dist", "mcp", "stdio.js"));
      const { createClient } = await import(join(project, "dist", "mcp", "client.js"));
      const client = createClient({
        transport: createStdioTransport({
          command: process.execPath,
          args: [join(project, "dist", "stdio.js")],
          cwd: project,
          stderr: "ignore",
        }),
      });
      await expect(client.callTool({ name: "no-such-tool" })).rejects.toThrow(
        `Tool no-such-tool not found (runtime ${next})`,
      );
      await client.close();
    } finally {
      // The tests after this one run on the release under test again.
      const back = npm(
        ["install", "--no-audit", "--no-fund", "--prefer-offline", runtimeTarball],
        project,
      );
      expect(back.status, back.output).toBe(0);
    }
  }, 300_000);

  /** Starts the project's HTTP server; resolves to its URL and what it wrote on stderr so far. */
  const startHttp = (env: NodeJS.ProcessEnv, node = process.execPath) => {
    const child = spawn(node, [join(project, "dist", "http.js")], {
      cwd: project,
      env: { ...env, PORT: "0" },
    });
    children.push(child);
    let stderr = "";
    child.stderr.on("data", (b) => (stderr += b));
    return new Promise<{ url: string; stderr: () => string; child: Any }>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (b) => {
        out += b;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
        if (m) resolve({ url: m[1]!, stderr: () => stderr, child });
      });
      child.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}${stderr}`)));
    });
  };

  it("starts on HTTP (127.0.0.1), and the generated client runs the example tool's round trip", async () => {
    const { NODE_ENV: _unset, MCP_REQUEST_STATE_SECRETS: _none, ...devEnv } = process.env;
    const server = await startHttp(devEnv);
    const { createHttpTransport } = await import(join(project, "dist", "mcp", "http-client.js"));
    await greetOver(createHttpTransport({ url: server.url }));
    // The same process serves legacy clients: the v1 SDK (what most hosts embed) and the v2
    // SDK in its default mode, concurrently with each other.
    await Promise.all([v1Greets(new V1HttpTransport(new URL(server.url))), v2Greets(server.url)]);
    // Development without secrets: a random one, said once on stderr, whatever the traffic.
    expect(
      server
        .stderr()
        .match(/MCP_REQUEST_STATE_SECRETS is not set: .*random secret for this process only/g),
    ).toHaveLength(1);
    server.child.kill();
  });

  it("outside development, refuses to start without MCP_REQUEST_STATE_SECRETS: one line, exit 1", () => {
    const { MCP_REQUEST_STATE_SECRETS: _none, ...env } = process.env;
    for (const entry of ["http.js", "stdio.js"]) {
      const r = spawnSync(process.execPath, [join(project, "dist", entry)], {
        cwd: project,
        env: { ...env, NODE_ENV: "production", PORT: "0" },
        encoding: "utf8",
        input: "",
      });
      expect(r.status, entry).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(
        /^error: MCP_REQUEST_STATE_SECRETS is not set \(NODE_ENV=production\): .*\n$/,
      );
    }
  });

  it("a port in use, or a PORT that is no port number: one line naming it, exit 1", async () => {
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const held = (holder.address() as { port: number }).port;
    const start = (port: string) =>
      spawnSync(process.execPath, [join(project, "dist", "http.js")], {
        cwd: project,
        env: { ...process.env, MCP_REQUEST_STATE_SECRETS: SECRET, PORT: port },
        encoding: "utf8",
        timeout: 30_000,
      });
    try {
      const inUse = start(String(held));
      expect([inUse.status, inUse.stdout, inUse.stderr]).toEqual([
        1,
        "",
        `error: port ${held} is in use on 127.0.0.1: stop what holds it, or set PORT to another port\n`,
      ]);
    } finally {
      holder.close();
    }
    for (const port of ["abc", "70000", "-1", "3000x"]) {
      const bad = start(port);
      expect([bad.status, bad.stdout, bad.stderr], port).toEqual([
        1,
        "",
        `error: PORT must be a port number from 0 to 65535 (0: any free port), not "${port}"\n`,
      ]);
    }
  });

  // A round's retry may reach another instance (no sticky sessions for modern clients): it
  // opens the state there only when both were started with the same MCP_REQUEST_STATE_SECRETS.
  it("instances (on Node 22) sharing MCP_REQUEST_STATE_SECRETS serve each other's rounds; others refuse them", async () => {
    installSuite();
    const env = (secrets: string) => ({
      ...process.env,
      NODE_ENV: "production",
      MCP_REQUEST_STATE_SECRETS: secrets,
    });
    const [a, b, c] = await Promise.all([
      startHttp(env(SECRET), NODE22),
      startHttp(env(`${OTHER_SECRET},${SECRET}`), NODE22),
      startHttp(env(OTHER_SECRET), NODE22),
    ]);
    const { createClient } = await import(join(project, "dist", "mcp", "client.js"));
    const { createHttpTransport } = await import(join(project, "dist", "mcp", "http-client.js"));
    const balanced = (...urls: string[]) => {
      const transports = urls.map((url) => createHttpTransport({ url }));
      let next = 0;
      return createClient({
        era: "modern",
        transport: {
          request: (m: Any, o: Any) => transports[next++ % transports.length].request(m, o),
          notify: (m: Any) => transports[0].notify(m),
        },
        inputHandlers: {
          "elicitation/create": () => ({ action: "accept", content: { name: "Lin" } }),
        },
      });
    };
    const hello = [{ type: "text", text: "Hello, Lin!" }];
    // b lists a's secret second (a rotation in progress): it opens what a sealed.
    expect((await balanced(a.url, b.url).callTool({ name: "greet" })).content).toEqual(hello);
    await expect(balanced(a.url, c.url).callTool({ name: "greet" })).rejects.toThrow(
      /invalid requestState: signature mismatch/,
    );
    for (const server of [a, b, c]) {
      expect(server.stderr()).not.toMatch(/random secret/);
      server.child.kill();
    }
  });

  it("serves the v1 SDK client over stdio on Node 22 (a legacy session for the process)", async () => {
    installSuite();
    await v1Greets(
      new V1StdioTransport({
        command: NODE22,
        args: [join(project, "dist", "stdio.js")],
        cwd: project,
        stderr: "ignore",
      }),
    );
  });

  const v1Greets = async (transport: Any) => {
    const client = new V1Client(
      { name: "v1-host", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Ada" },
    }));
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add", "greet"]);
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).content).toEqual([
      { type: "text", text: "3" },
    ]);
    // Arguments that do not fit add's inputSchema: refused as a tool execution error, add not run.
    const wrong = await client.callTool({ name: "add", arguments: { a: "1", b: 2 } });
    expect(wrong).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: "Input validation error: Invalid arguments for tool add: /a must be number",
        },
      ],
    });
    expect((await client.callTool({ name: "greet", arguments: {} })).content).toEqual([
      { type: "text", text: "Hello, Ada!" },
    ]);
    expect(
      JSON.stringify(
        (await client.getPrompt({ name: "haiku", arguments: { topic: "tea" } })).messages,
      ),
    ).toContain("haiku about tea");
    expect((await client.readResource({ uri: "memo://welcome" })).contents).toHaveLength(1);
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(1);
    await client.close();
  };

  const v2Greets = async (url: string) => {
    const client = new V2Client({ name: "v2-host", version: "1.0.0" });
    await client.connect(new V2HttpTransport(new URL(url)));
    // No elicitation capability declared: the tool greets plainly instead of asking.
    expect((await client.callTool({ name: "greet", arguments: {} })).content).toEqual([
      { type: "text", text: "Hello, whoever you are!" },
    ]);
    await client.close();
  };

  it("an --auth project: 401 with a challenge without a token; the generated client authorizes (code flow), steps up on 403 insufficient_scope, refreshes; 401 for another resource's token", async () => {
    const pkg = JSON.parse(readFileSync(join(authProject, "package.json"), "utf8"));
    expect(pkg.dependencies).toEqual({
      "@mcp-gen/runtime": expect.stringMatching(/^file:.*\.tgz$/),
      ajv: expect.stringMatching(/^\^8\./),
      "ajv-formats": expect.stringMatching(/^\^3\./),
      jose: expect.stringMatching(/^\^6\./),
      oauth4webapi: expect.stringMatching(/^\^3\./),
    });
    const install = npm(["install", "--no-audit", "--no-fund", "--prefer-offline"], authProject);
    expect(install.status, install.output).toBe(0);
    const test = npm(["test"], authProject);
    expect(test.status, test.output).toBe(0);
    // The default project's eight tests and the authorization one.
    expect(test.output).toMatch(/# pass 15\n# fail 0/);
    const as = await startTestAuthorizationServer();
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    // Misconfigured (no issuer, a bad MCP_DPOP): one line, exit 1, no stack trace.
    const { OAUTH_ISSUER: _no, ...bare } = process.env;
    for (const [extra, line] of [
      [{}, /\nerror: OAUTH_ISSUER is not set \(see src\/auth.ts\)\n$/],
      [
        { OAUTH_ISSUER: as.issuer, MCP_DPOP: "maybe" },
        /\nerror: MCP_DPOP must be accept, require or off, not "maybe"\n$/,
      ],
    ] as const) {
      const r = spawnSync(process.execPath, [join(authProject, "dist", "http.js")], {
        cwd: authProject,
        env: { ...bare, PORT: "0", ...extra },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      // (after the development warning about MCP_REQUEST_STATE_SECRETS)
      expect(r.stderr).toMatch(line);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    // No OAUTH_JWKS_URL: the server finds the JWKS in the issuer's metadata.
    const env = {
      ...process.env,
      PORT: String(port),
      OAUTH_ISSUER: as.issuer,
      MCP_RESOURCE_URL: resource,
    };
    const child = spawn(process.execPath, [join(authProject, "dist", "http.js")], {
      cwd: authProject,
      env,
    });
    children.push(child);
    try {
      await printedUntil(child, "listening on");
      const post = (message: object, token?: string) =>
        fetch(resource, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(message),
        });
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        },
      };
      const anonymous = await post(initialize);
      expect(anonymous.status).toBe(401);
      const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      // MCP_DPOP defaults to accept: DPoP is offered beside Bearer.
      expect(anonymous.headers.get("www-authenticate")).toBe(
        `Bearer scope="mcp:tools", resource_metadata="${metadataUrl}", DPoP algs="ES256", resource_metadata="${metadataUrl}"`,
      );
      expect(await (await fetch(metadataUrl)).json()).toMatchObject({
        resource,
        authorization_servers: [as.issuer],
        scopes_supported: ["mcp:tools"],
      });

      // The project's generated client, authorizing itself with its generated OAuth client
      // (auth.ts): discovery from the 401, registration, authorization code + PKCE with the
      // resource indicator, the redirect followed headlessly as a test must.
      const { createClient } = await import(join(authProject, "dist", "mcp", "client.js"));
      const { createHttpTransport } = await import(
        join(authProject, "dist", "mcp", "http-client.js")
      );
      const { createOAuthClient, headlessRedirect, memoryTokenStore } = await import(
        join(authProject, "dist", "mcp", "auth.js")
      );
      const store = memoryTokenStore();
      const auth = createOAuthClient({
        serverUrl: resource,
        redirect: headlessRedirect("http://127.0.0.1:9/callback"),
        store,
        insecureLoopback: true,
      });
      const client = createClient({ transport: createHttpTransport({ url: resource, auth }) });
      const authorizations = () => as.requests.filter((r) => r.path.endsWith("/authorize"));
      const refreshes = () =>
        as.requests.filter(
          (r) => r.path.endsWith("/token") && r.params["grant_type"] === "refresh_token",
        ).length;
      expect((await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).content).toEqual([
        { type: "text", text: "5" },
      ]);
      expect(authorizations().map((r) => r.params["resource"])).toEqual([resource]);
      // whoami needs mcp:profile: 403 insufficient_scope, the client steps up and succeeds.
      expect((await client.callTool({ name: "whoami", arguments: {} })).content).toEqual([
        { type: "text", text: `${as.issuer} alice` },
      ]);
      expect(authorizations().map((r) => r.params["scope"])).toEqual([
        "mcp:tools",
        "mcp:tools mcp:profile",
      ]);
      // An expired token is refreshed, without a new authorization.
      const tokens = await store.getTokens(resource);
      await store.setTokens(resource, { ...tokens, expiresAt: Date.now() });
      expect((await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).content).toEqual([
        { type: "text", text: "2" },
      ]);
      expect([refreshes(), authorizations().length]).toEqual([1, 2]);
      await client.close();

      const token = await as.mintToken({ aud: resource, scope: "mcp:tools" });
      const whoami = {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "whoami", arguments: {} },
      };
      const refused = await post(initialize, token).then(async (r) => {
        const session = r.headers.get("mcp-session-id")!;
        return fetch(resource, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${token}`,
            "mcp-session-id": session,
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify(whoami),
        });
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get("www-authenticate")).toMatch(
        /^Bearer error="insufficient_scope", scope="mcp:tools mcp:profile", error_description="[^"]+", resource_metadata="[^"]+"$/,
      );

      // Stepped up, the v1 SDK (a legacy client, given the token as a header) calls it.
      const stepped = await as.mintToken({ aud: resource, scope: "mcp:tools mcp:profile" });
      const v1 = new V1Client({ name: "v1-host", version: "1.0.0" });
      await v1.connect(
        new V1HttpTransport(new URL(resource), {
          requestInit: { headers: { authorization: `Bearer ${stepped}` } },
        }),
      );
      expect((await v1.callTool({ name: "whoami", arguments: {} })).content).toEqual([
        { type: "text", text: `${as.issuer} alice` },
      ]);
      await v1.close();

      const foreign = await post(
        initialize,
        await as.mintToken({ aud: "http://127.0.0.1:1/other", scope: "mcp:tools mcp:profile" }),
      );
      expect(foreign.status).toBe(401);
      expect(foreign.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    } finally {
      child.kill();
      await as.close();
    }
  }, 300_000);

  // Uses the --auth project the test above installed and built.
  it("an --auth project's npm run dev:auth stand-in issues tokens the server takes (whoami with mcp:profile)", async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const dev = spawn(process.execPath, [join(authProject, "dist", "dev-auth.js")], {
      cwd: authProject,
      env: { ...process.env, DEV_AUTH_PORT: "0", MCP_RESOURCE_URL: resource },
    });
    children.push(dev);
    const printed = await printedUntil(dev, "Ctrl-C");
    const issuer = /^OAUTH_ISSUER=(\S+)$/m.exec(printed)![1]!;
    const [basic, profile] = [...printed.matchAll(/^token \([^)]*\): +(\S+)$/gm)].map((m) => m[1]!);
    const server = spawn(process.execPath, [join(authProject, "dist", "http.js")], {
      cwd: authProject,
      env: { ...process.env, PORT: String(port), OAUTH_ISSUER: issuer, MCP_RESOURCE_URL: resource },
    });
    children.push(server);
    try {
      await printedUntil(server, "listening on");
      const call = async (token: string) => {
        const v1 = new V1Client({ name: "v1-host", version: "1.0.0" });
        await v1.connect(
          new V1HttpTransport(new URL(resource), {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        );
        try {
          return await v1.callTool({ name: "whoami", arguments: {} }).then(
            (r: Any) => r.content,
            (e: Error) => e.message,
          );
        } finally {
          await v1.close();
        }
      };
      expect(await call(profile!)).toEqual([{ type: "text", text: `${issuer} developer` }]);
      expect(await call(basic!)).toMatch(/insufficient scope/i);
    } finally {
      server.kill();
      dev.kill();
    }
  }, 120_000);

  it("regenerating after a revision change rewrites only generated files", () => {
    const userFiles = [
      "src/handlers.ts",
      "src/server.ts",
      "src/request-state.ts",
      "src/validate.ts",
      "src/http.ts",
      "src/stdio.ts",
      "src/test/server.test.ts",
      "package.json",
      "README.md",
      "tsconfig.json",
    ];
    const before = snapshotTree(project);
    const config = JSON.parse(readFileSync(join(project, "mcp-gen.config.json"), "utf8"));
    expect(config.revisions).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);
    const { revisions: _dualEra, ...rest } = config;
    writeFileSync(
      join(project, "mcp-gen.config.json"),
      JSON.stringify({ ...rest, revision: "2025-11-25" }, null, 2),
    );
    const r = spawnSync(
      process.execPath,
      [join(project, "node_modules", "@mcp-gen", "cli", "dist", "cli", "main.js")],
      { cwd: project, encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    const after = snapshotTree(project);
    for (const file of userFiles) expect(after[file], file).toBe(before[file]);
    // JavaScript with declarations (the project's target), the TypeScript under source/.
    for (const file of ["types.js", "types.d.ts", "source/types.ts"])
      expect(after[`src/mcp/${file}`]).toMatch(
        /^\/\/ Code generated by mcp-gen .* from MCP schema 2025-11-25/,
      );
    expect(after["src/mcp/types.ts"]).toBeUndefined();
    // Files the older revision does not have are removed: they were generated.
    for (const file of ["http-server.js", "http-server.d.ts", "http-server.d.ts.map"]) {
      expect(after[`src/mcp/${file}`]).toBeUndefined();
      expect(before[`src/mcp/${file}`]).toBeDefined();
    }
  });
});
