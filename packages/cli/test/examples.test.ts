// Every project under examples/ as its reader would use it: the protocol code generated from
// its own mcp-gen.config.json, its files type-checked with the generated code under the
// strict flags, then its server started and its clients run against it (the v1 SDK client
// 1.32.2 and the v2 SDK client 2.4.0, real peers). The docs' pages include their code from
// these files (tooling/docs/check-snippets.mjs refuses a page's code that comes from nowhere
// else). examples/deployment is run by deploy/frameworks/frameworks.test.ts and platforms/.
import { spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, typecheck } from "./helpers.js";
import {
  prepareExample,
  runScript,
  serveExample,
  transpiledExample,
  type ScriptRun,
} from "./support/example-project.js";

const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill()));

/** Starts the example's main.js on a free port: its URL (checked), and its stderr so far. */
async function serve(js: string): Promise<{ url: string; stderr: () => string }> {
  const server = await serveExample(js, children);
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  return server;
}

/** Runs one of the example's clients against `url` (killed after a minute). */
const runClient = (js: string, file: string, url: string): Promise<ScriptRun> =>
  runScript(join(js, file), [url], children);

describe("examples/hello-server", () => {
  it("type-checks with its generated code, serves one tool, and the v1 SDK client calls it", async () => {
    const { dir, sources } = await prepareExample("hello-server");
    expect(sources.sort()).toEqual(["client.ts", "main.ts", "server.ts"]);
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
    const js = transpiledExample(dir);
    const { url } = await serve(js);
    const client = await runClient(js, "client.js", url);
    expect(client.stderr).toBe("");
    expect(client.stdout).toBe('tools: add\nadd(2, 3): [{"type":"text","text":"5"}]\n');
    expect(client.status).toBe(0);
    await troubleshootingHolds(url);
    // A strict type-check of the output and a server start: 57 s alone at load average 29.
  }, 180_000);
});

/**
 * examples/typed-tools: tools typed by zod 4, Valibot, ArkType and a JSON Schema literal, one
 * server, called with valid and invalid arguments by the v1 SDK client 1.32.2 (a 2025-11-25
 * session) and the v2 SDK client 2.4.0 (2026-07-28): both see the same answers, invalid
 * arguments as a tool execution error naming the problem, in each library's words.
 */
describe("examples/typed-tools", () => {
  it("type-checks with its generated code; both eras get typed results and refusals naming the problem", async () => {
    const { dir, sources } = await prepareExample("typed-tools");
    expect(sources.sort()).toEqual([
      "calls.ts",
      "client-v1.ts",
      "client-v2.ts",
      "main.ts",
      "server.ts",
    ]);
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
    const js = transpiledExample(dir);
    const { url, stderr } = await serve(js);
    const refused = (tool: string, problem: string) =>
      `error: Input validation error: Invalid arguments for tool ${tool}: ${problem}`;
    const answers = [
      'search({"query":"e"}): {"titles":["Dune","Emma","Ulysses"]}',
      `search({"query":""}): ${refused("search", "/query: Too small: expected string to have >=1 characters")}`,
      'to_fahrenheit({"celsius":100}): {"fahrenheit":212}',
      `to_fahrenheit({"celsius":"hot"}): ${refused("to_fahrenheit", '/celsius: Invalid type: Expected number but received "hot"')}`,
      'forecast({"city":"Oslo","days":2}): {"city":"Oslo","days":2}',
      `forecast({"city":"Oslo","days":8}): ${refused("forecast", "/days: days must be at most 7 (was 8)")}`,
      'add({"a":2,"b":3}): {"sum":5}',
      `add({"a":2}): ${refused("add", "/ must have required property 'b'")}`,
    ];
    for (const [file, era] of [
      ["client-v1.js", "2025-11-25"],
      ["client-v2.js", "2026-07-28"],
    ] as const) {
      const run = await runClient(js, file, url);
      expect(run.stderr, file).toBe("");
      expect(run.stdout.trimEnd().split("\n"), file).toEqual([
        `connected: ${era}`,
        "tools: search, to_fahrenheit, forecast, add",
        ...answers,
      ]);
      expect(run.status, file).toBe(0);
    }
    expect(stderr()).toBe("");
  }, 240_000);
});

/**
 * examples/server-features: one dual-era server whose handlers use every server feature the
 * guide's pages show (docs/guide/server/), asked by the v1 SDK client 1.32.2 in a legacy
 * session (2025-11-25: client-v1.ts) and by the v2 SDK client 2.4.0 in its auto mode
 * (2026-07-28, stateless: client-v2.ts), one after the other against one server process;
 * the Tasks extension, which neither SDK client speaks, by tasks-client.ts over fetch. Each
 * client prints one line per feature ("feature: what it saw"), asserted one feature at a time.
 */
describe("examples/server-features", () => {
  type Lines = Record<string, string>;
  let dir: string;
  let sources: string[];
  const seen: { v1: Lines; v2: Lines; tasks: Lines; v1Printed: string; serverStderr: string } = {
    v1: {},
    v2: {},
    tasks: {},
    v1Printed: "",
    serverStderr: "",
  };

  /** A client's lines by feature, after checking it ran cleanly. */
  const linesOf = (client: ScriptRun): Lines => {
    expect(client.stderr).toBe("");
    expect(client.status, client.stdout).toBe(0);
    return Object.fromEntries(
      client.stdout
        .trimEnd()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)]),
    );
  };

  beforeAll(async () => {
    ({ dir, sources } = await prepareExample("server-features"));
    const js = transpiledExample(dir);
    const server = await serve(js);
    const v1 = await runClient(js, "client-v1.js", server.url);
    seen.v1 = linesOf(v1);
    seen.v1Printed = v1.stdout;
    seen.v2 = linesOf(await runClient(js, "client-v2.js", server.url));
    seen.tasks = linesOf(await runClient(js, "tasks-client.js", server.url));
    seen.serverStderr = server.stderr();
  }, 180_000);

  it("type-checks with its generated code under the strict flags", () => {
    expect(sources.sort()).toEqual([
      "client-common.ts",
      "client-v1.ts",
      "client-v2.ts",
      "main.ts",
      "research.ts",
      "server.ts",
      "tasks-client.ts",
    ]);
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
    // A strict type-check of the output with both SDKs' types: about a minute under load.
  }, 180_000);

  it("serves each client in its era, every feature once", () => {
    const features = [
      "connected",
      "logging",
      "progress",
      "cancellation",
      "elicitation",
      "url elicitation",
      "sampling",
      "roots",
      "request state",
      "straight line",
      "one tool",
      "one tool, straight",
      "prompts",
      "resources",
      "completions",
      "subscriptions",
      "tasks",
    ];
    expect(Object.keys(seen.v1)).toEqual(features);
    expect(Object.keys(seen.v2)).toEqual([...features.slice(0, -1), "honored", "tasks"]);
    expect(seen.v1["connected"]).toBe("server-features, 2025-11-25");
    expect(seen.v2["connected"]).toBe("server-features, 2026-07-28");
    // The overview page shows what the v1 client prints.
    const page = readFileSync(join(ROOT, "docs", "guide", "server", "index.md"), "utf8");
    expect(/```text\n([\s\S]*?)```/.exec(page)?.[1]).toBe(seen.v1Printed);
  });

  it("prompts and resources: arguments typed, a template listed, read and completed", () => {
    for (const seenBy of [seen.v1, seen.v2]) {
      expect(seenBy["prompts"]).toBe("Review this rust code.");
      expect(seenBy["resources"]).toBe("note://{name}; Notes, kept in memory; welcome");
    }
  });

  it("logging: info and above, debug filtered out; legacy after logging/setLevel, modern per request", () => {
    const info = '[{"level":"info","logger":"tidy","data":{"removed":3}}]';
    expect(seen.v1["logging"]).toBe(info);
    expect(seen.v2["logging"]).toBe(info);
  });

  it("progress: each step with its total and message, then the result", () => {
    const progress = "1/3 counted 1, 2/3 counted 2, 3/3 counted 3; counted to 3";
    expect(seen.v1["progress"]).toBe(progress);
    expect(seen.v2["progress"]).toBe(progress);
  });

  it("cancellation: the client's call rejects, and the handler's signal stops its work", () => {
    expect(seen.v1["cancellation"]).toBe(
      "cancelled (McpError: MCP error -32001: enough) after 1 progress",
    );
    expect(seen.v2["cancellation"]).toBe("cancelled (SdkError: enough) after 1 progress");
    // The server's count, once per client: its loop ended on the abort, not at 50.
    // Besides the deprecation warnings (sampling and roots asked: SEP-2577), once each.
    const lines = seen.serverStderr
      .split("\n")
      .filter((l) => !/DeprecationWarning|--trace-dep/.test(l));
    expect(lines.join("\n")).toMatch(/^count stopped at \d\ncount stopped at \d\n$/);
  });

  it("elicitation: a form answered, and URL mode (an elicitationId added for 2025-11-25)", () => {
    expect(seen.v1["elicitation"]).toBe("Hello, Ada");
    expect(seen.v2["elicitation"]).toBe("Hello, Grace");
    expect(seen.v1["url elicitation"]).toBe("calendar link: accept");
    expect(seen.v2["url elicitation"]).toBe("calendar link: accept");
  });

  it("sampling and roots: the client's answers reach the handler", () => {
    expect(seen.v1["sampling"]).toBe("a haiku for 1 message(s)");
    expect(seen.v2["sampling"]).toBe("a haiku for 1 message(s)");
    expect(seen.v1["roots"]).toBe("file:///home/ada/project");
    expect(seen.v2["roots"]).toBe("file:///home/grace/project");
  });

  it("request state: the first round's answer comes back sealed in the third", () => {
    expect(seen.v1["request state"]).toBe("ordered: large pizza, basil");
    expect(seen.v2["request state"]).toBe("ordered: small pizza, olives");
  });

  it("deprecations: asking for sampling and roots warns once each on the server's stderr", () => {
    const warned = seen.serverStderr.match(/DeprecationWarning: .*$/gm) ?? [];
    expect(warned).toEqual([
      "DeprecationWarning: MCP 2026-07-28 deprecates sampling/createMessage (SEP-2577; removal 2027-07-28 at the earliest); used by an input request (inputRequired)",
      "DeprecationWarning: MCP 2026-07-28 deprecates roots/list (SEP-2577; removal 2027-07-28 at the earliest); used by an input request (inputRequired)",
    ]);
  });

  it("one tool: logs, progress, sampling and roots, alike in both styles and both eras", () => {
    for (const [seenBy, user] of [
      [seen.v1, "ada"],
      [seen.v2, "grace"],
    ] as const) {
      expect(seenBy["one tool"]).toBe(
        `a haiku for 1 message(s) (notes for file:///home/${user}/project/tides.md, in root ` +
          "project); progress 20/100 70/100; logs researching tides",
      );
      expect(seenBy["one tool, straight"]).toBe(seenBy["one tool"]);
    }
  });

  it("straight line: withInput's tool gets what the branching one gets, in both eras", () => {
    expect(seen.v1["straight line"]).toBe(seen.v1["request state"]);
    expect(seen.v2["straight line"]).toBe(seen.v2["request state"]);
  });

  it("completions: the values that start with what is typed", () => {
    expect(seen.v1["completions"]).toBe("java, javascript (total 2)");
    expect(seen.v2["completions"]).toBe("java, javascript (total 2)");
  });

  it("subscriptions: resources/updated and list_changed, on the GET stream and on subscriptions/listen", () => {
    const both = "note://welcome, notifications/resources/list_changed";
    expect(seen.v1["subscriptions"]).toBe(both);
    expect(seen.v2["subscriptions"]).toBe(both);
    // Asked for tool list changes too; the listen handler honors resources only.
    expect(JSON.parse(seen.v2["honored"]!)).toEqual({
      resourcesListChanged: true,
      resourceSubscriptions: ["note://welcome"],
    });
  });

  it("tasks: a task handle, polled to its result, or cancelled; the result itself without the extension", () => {
    expect(seen.tasks).toEqual({
      handle: "task working, poll every 100 ms",
      task: "completed: report: 42 sales",
      cancelled: "cancelled (Cancelled by the client)",
    });
    expect(seen.v1["tasks"]).toBe("report: 42 sales");
    expect(seen.v2["tasks"]).toBe("report: 42 sales");
  });
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
