// examples/client-features, the code of the client guide (docs/guide/client/): each example
// a script of the GENERATED dual-era client, type-checked with its generated code under the
// strict flags, then run with node against real servers of each era, what it prints checked
// line by line:
// - legacy (2025-11-25 sessions): a v1 SDK 1.32.2 server (packages/cli/test/fixtures/client-features-v1.mjs),
//   which asks for input with requests of its own;
// - modern (2026-07-28): examples/server-features (mcp-gen's own generated server, the server
//   guide's example), and a v2 SDK 2.4.0 server for tools and resources
//   (packages/cli/test/fixtures/client-features-v2.mjs);
// - stdio: the v2 SDK server as a script, and @modelcontextprotocol/server-everything 2026.8.31;
// - OAuth: a generated server as a protected resource of the test authorization server.
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type { Server as HttpServer } from "node:http";
import { join } from "node:path";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFeaturesV1Server } from "./fixtures/client-features-v1.mjs";
import { clientFeaturesV2Server } from "./fixtures/client-features-v2.mjs";
import { fixture, ROOT, typecheck } from "./helpers.js";
import { listen, stop, v1SessionfulHandler } from "./support/dual-era-client.js";
import {
  prepareExample,
  runScript,
  serveExample,
  transpiledExample,
  type ScriptRun,
} from "./support/example-project.js";
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from "./support/oauth-server.js";
import { serveProtected } from "./support/protected-server.js";

const children: ChildProcess[] = [];
const servers: HttpServer[] = [];
const closers: (() => Promise<unknown>)[] = [];
let dir: string;
let sources: string[];
let js: string;
/** The peers' URLs: the v1 SDK (legacy), server-features and the v2 SDK (modern), OAuth. */
const peers = { v1: "", features: "", v2: "", oauth: "" };
let as: TestAuthorizationServer;

/** Starts examples/server-features's main.js on a free port: its URL. */
async function serverFeatures(): Promise<string> {
  const { dir: features } = await prepareExample("server-features");
  return (await serveExample(transpiledExample(features), children)).url;
}

/** The v2 SDK server in its modern mode (2026-07-28 only), behind node:http. */
async function v2Modern(): Promise<string> {
  const handler = createMcpHandler(() => clientFeaturesV2Server(), { legacy: "reject" });
  const node = toNodeHandler(handler);
  closers.push(() => handler.close());
  // node:http's message types say `method?: string | undefined`, the SDK's `method?: string`.
  const { url, server } = await listen(
    (req, res, body) => node(req as Parameters<typeof node>[0], res, body),
    [],
  );
  servers.push(server);
  return url;
}

/**
 * A server generated with the example's own code (2026-07-28 and the legacy revisions), as a
 * protected resource of the test authorization server: its `whoami` tool names the token's subject.
 */
async function protectedServer(): Promise<string> {
  as = await startTestAuthorizationServer({ subject: "ada" });
  const { PROTOCOL } = await import(join(js, "mcp", "protocol.js"));
  const { createServerDispatcher } = await import(join(js, "mcp", "dispatcher.js"));
  const dispatcher = createServerDispatcher(
    {
      "tools/list": () => ({
        tools: [{ name: "whoami", inputSchema: { type: "object" } }],
        ttlMs: 0,
        cacheScope: "private",
      }),
      // The principal is "<issuer> <subject>": the subject is the user.
      "tools/call": (_params: unknown, ctx: { principal?: string }) => ({
        content: [{ type: "text", text: String(ctx.principal?.split(" ").at(-1)) }],
      }),
    },
    { serverInfo: { name: "protected", version: "1.0.0" } },
  );
  const server = await serveProtected(PROTOCOL, dispatcher, as, { scopesSupported: ["mcp:tools"] });
  closers.push(
    () => server.close(),
    () => as.close(),
  );
  return server.url;
}

beforeAll(async () => {
  ({ dir, sources } = await prepareExample("client-features"));
  js = transpiledExample(dir);
  const v1 = await listen(v1SessionfulHandler(clientFeaturesV1Server), []);
  servers.push(v1.server);
  peers.v1 = v1.url;
  [peers.features, peers.v2, peers.oauth] = await Promise.all([
    serverFeatures(),
    v2Modern(),
    protectedServer(),
  ]);
}, 180_000);

afterAll(async () => {
  children.forEach((child) => child.kill());
  await Promise.all([...servers.map(stop), ...closers.map((close) => close())]);
});

/** The runtime's deprecation warnings in `stderr` (Node's format), and the other lines. */
function deprecationWarnings(stderr: string): { warnings: string[]; rest: string } {
  const warnings: string[] = [];
  const rest = stderr
    .split("\n")
    .filter((line) => {
      const warning = /^\(node:\d+\) \[MCP_DEPRECATED\] DeprecationWarning: (.*)$/.exec(line);
      if (warning) warnings.push(warning[1]!);
      return !warning && !line.startsWith("(Use `node --trace-deprecation");
    })
    .join("\n");
  return { warnings, rest };
}

/** Everything an example printed, each run's output whole, for the pages' output blocks. */
const printed = new Set<string>();

/** Runs one example with `args`: its lines, after checking it ran cleanly. */
async function run(example: string, ...args: string[]): Promise<string[]> {
  const ran: ScriptRun = await runScript(join(js, `${example}.js`), args, children);
  // Input handlers for what 2026-07-28 deprecates warn once each (core/deprecation.ts).
  const { warnings, rest } = deprecationWarnings(ran.stderr);
  expect(rest, ran.stdout).toBe("");
  if (example === "input")
    expect(warnings).toEqual([
      "MCP 2026-07-28 deprecates sampling/createMessage (SEP-2577; removal 2027-07-28 at the earliest); used by a client input handler",
      "MCP 2026-07-28 deprecates roots/list (SEP-2577; removal 2027-07-28 at the earliest); used by a client input handler",
    ]);
  expect(ran.status, ran.stdout).toBe(0);
  printed.add(ran.stdout);
  return ran.stdout.trimEnd().split("\n");
}

describe("examples/client-features", () => {
  it("type-checks with its generated code under the strict flags", () => {
    expect(sources).toEqual([
      "connect-http.ts",
      "connect-stdio.ts",
      "decline.ts",
      "input.ts",
      "logging.ts",
      "oauth.ts",
      "pagination.ts",
      "progress.ts",
      "prompts.ts",
      "resources.ts",
      "subscriptions.ts",
      "tasks.ts",
      "tools.ts",
    ]);
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
  }, 180_000);

  it("connect-http: one client finds each server's era, and what it speaks", async () => {
    const [v1, features, v2] = await Promise.all([
      run("connect-http", peers.v1),
      run("connect-http", peers.features),
      run("connect-http", peers.v2),
    ]);
    expect(v1).toEqual(["era: legacy", "server: v1-peer, speaks 2025-11-25"]);
    expect(features).toEqual(["era: modern", "server: server-features, speaks 2026-07-28"]);
    expect(v2).toEqual(["era: modern", "server: v2-peer, speaks 2026-07-28"]);
  });

  it("connect-stdio: a modern server (v2 SDK) and a legacy one (server-everything) over stdio", async () => {
    const everything = join(
      ROOT,
      "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    const [v2, legacy] = await Promise.all([
      run("connect-stdio", process.execPath, fixture("client-features-v2.mjs")),
      run("connect-stdio", process.execPath, everything, "stdio"),
    ]);
    expect(v2).toEqual(["era: modern", "tools: 3"]);
    expect(legacy[0]).toBe("era: legacy");
    expect(Number(/^tools: (\d+)$/.exec(legacy[1]!)?.[1])).toBeGreaterThan(10);
  });

  it("tools: text, structuredContent, isError and a refused call, in both eras", async () => {
    const [v1, v2] = await Promise.all([run("tools", peers.v1), run("tools", peers.v2)]);
    const calls = [
      "add: 5",
      'weather: {"city":"Oslo","temperature":12,"conditions":"rain"}',
      "divide: isError true, cannot divide by zero",
    ];
    expect(v1).toEqual([
      "tools: add, weather, divide, greet, connect_calendar, haiku, show_roots, tidy, count, write_note",
      ...calls,
      // The v1 SDK answers a tool it does not have with a result; the v2 SDK with an error.
      "no_such_tool: isError true, MCP error -32602: Tool no_such_tool not found",
    ]);
    expect(v2).toEqual(["tools: add, weather, divide", ...calls, "no_such_tool: McpError -32602"]);
  });

  it("pagination: every page, and one page at a time", async () => {
    const [v1, v2] = await Promise.all([run("pagination", peers.v1), run("pagination", peers.v2)]);
    const all = "resources: note://welcome, note://readme, note://changelog";
    // The v1 peer pages by two; the v2 SDK lists in one page.
    expect(v1).toEqual([`pages: 2, ${all}`, "after the first page: note://changelog"]);
    expect(v2).toEqual([`pages: 1, ${all}`, "after the first page: none"]);
  });

  it("resources: read, and a template filled in", async () => {
    const expected = [
      "note://welcome: Hello",
      "templates: weather://{city}",
      'weather://Oslo: {"city":"Oslo","temperature":12,"conditions":"rain"}',
    ];
    expect(await run("resources", peers.v1)).toEqual(expected);
    expect(await run("resources", peers.v2)).toEqual(expected);
  });

  it("subscriptions: resources/subscribe on a legacy session, subscriptions/listen on a modern server", async () => {
    const [legacy, modern] = await Promise.all([
      run("subscriptions", peers.v1),
      run("subscriptions", peers.features),
    ]);
    const heard = ["updated: note://welcome", "list changed: notifications/resources/list_changed"];
    expect(legacy).toEqual([...heard, "unsubscribed"]);
    expect(modern).toEqual([...heard, "listen: done listening"]);
  });

  it("prompts and completions", async () => {
    const expected = [
      "prompt: review(language, focus)",
      "completions: java, javascript",
      "user: Review this java code.",
    ];
    expect(await run("prompts", peers.v1)).toEqual(expected);
    expect(await run("prompts", peers.features)).toEqual(expected);
  });

  it("logging: info and above on the call's onLog; logging/setLevel on a legacy session only", async () => {
    const [legacy, modern] = await Promise.all([
      run("logging", peers.v1),
      run("logging", peers.features),
    ]);
    const info = { level: "info", logger: "tidy", data: { removed: 3 } };
    expect(legacy).toHaveLength(2);
    expect(JSON.parse(legacy[0]!.slice("logs: ".length))).toEqual([info]);
    expect(legacy[1]).toBe("setLevel: warning");
    expect(modern).toHaveLength(1);
    expect(JSON.parse(modern[0]!.slice("logs: ".length))).toEqual([info]);
  });

  it("progress, cancellation and a timeout", async () => {
    const expected = [
      "progress: 1/3 counted 1, 2/3 counted 2, 3/3 counted 3; counted to 3",
      "cancelled: enough",
      "timeout: RequestTimeoutError",
    ];
    const [legacy, modern] = await Promise.all([
      run("progress", peers.v1),
      run("progress", peers.features),
    ]);
    expect(legacy).toEqual(expected);
    expect(modern).toEqual(expected);
  });

  it("input: the same handlers answer a legacy server's requests and a modern server's input_required", async () => {
    const expected = [
      "elicitation: Hello, Ada",
      "url elicitation: calendar link: accept",
      "sampling: a haiku for 1 message(s)",
      "roots: file:///home/ada/project",
      "roots now: file:///home/ada/other",
    ];
    const [legacy, modern] = await Promise.all([
      run("input", peers.v1),
      run("input", peers.features),
    ]);
    expect(legacy).toEqual(expected);
    expect(modern).toEqual(expected);
  });

  it("decline: a legacy server is told decline; a modern call ends with InputDeclinedError", async () => {
    const [legacy, modern] = await Promise.all([
      run("decline", peers.v1),
      run("decline", peers.features),
    ]);
    expect(legacy).toEqual(["declined, the server answered: Hello, stranger"]);
    expect(modern).toEqual(["declined: InputDeclinedError"]);
  });

  it("tasks: callTool polls the task to its result; callToolTask's handle; cancel", async () => {
    expect(await run("tasks", peers.features)).toEqual([
      "callTool: report: 42 sales",
      "task: working -> completed; report: 42 sales",
      "cancelled: TaskCancelledError",
    ]);
  });

  it("oauth: the first call authorizes (discovery, registration, code flow) and carries the token", async () => {
    expect(await run("oauth", peers.oauth)).toEqual(["whoami: ada"]);
    const paths = as.requests.map((r) => r.path);
    expect(paths.some((p) => p.endsWith("/register"))).toBe(true);
    expect(as.requests.filter((r) => r.params["grant_type"] === "authorization_code")).toHaveLength(
      1,
    );
  });

  // Last: the runs above filled `printed`.
  it("the guide's output blocks are what the examples printed", () => {
    const pages = readdirSync(join(ROOT, "docs", "guide", "client")).filter((f) =>
      f.endsWith(".md"),
    );
    const blocks = pages.flatMap((page) =>
      [
        ...readFileSync(join(ROOT, "docs", "guide", "client", page), "utf8").matchAll(
          /```text\n([\s\S]*?)```/g,
        ),
      ].map((m) => ({ page, block: m[1]! })),
    );
    expect(blocks.length).toBeGreaterThan(10);
    for (const { page, block } of blocks) expect(printed, `${page}:\n${block}`).toContain(block);
  });
});
