// Issue 35 F2 end to end: one resources/read of a 2 KB URI built to make a backtracking
// matcher try every split froze a server for 7 s, and a tools/list sent next to it waited as
// long. A generated 2026-07-28 server PROCESS (its event loop apart from the test's, so that
// a frozen server fails the deadline instead of freezing the test) serves the two templates
// of the finding; the v2 SDK client 2.4.0 sends the hostile reads and a tools/list together.
// All are answered (the reads: -32602, not found) under a generous deadline, and the server
// still reads ordinary URIs afterwards. Counts and answers are asserted, never durations.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";
import { within } from "./support/wait.js";

const SERVER = `
import { defineResources, defineServer, resourceTemplate } from "./dispatcher.js";
import { serveHttp } from "./http-server.js";
const cache = { ttlMs: 0, cacheScope: "public" };
const echo = (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }], ...cache });
const resources = defineResources(
  [
    resourceTemplate({ template: { uriTemplate: "data://{a}.{b}.{c}.{d}.json", name: "data" }, read: echo }),
    resourceTemplate({ template: { uriTemplate: "log://{service}-{date}-{level}.log", name: "log" }, read: echo }),
  ],
  { list: cache },
);
const tools = [{ name: "ping", inputSchema: { type: "object" } }];
const mcp = defineServer(
  { resources, handlers: { "tools/list": () => ({ tools, ...cache }) } },
  { serverInfo: { name: "hostile-uri", version: "1.0.0" }, capabilities: { tools: {} } },
);
const server = await serveHttp(mcp.dispatcher);
console.log("LISTENING " + server.url);
`;

let child: ChildProcess | undefined;
let url: URL;

beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"));
  const dir = writeGenerated(files);
  writeFileSync(join(dir, "server.js"), SERVER);
  const started = spawn(process.execPath, [join(dir, "server.js")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = started;
  let output = "";
  url = await within(
    new Promise<URL>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        const listening = /LISTENING (\S+)/.exec(output);
        if (listening) resolve(new URL(listening[1]!));
      };
      started.stdout!.on("data", read);
      started.stderr!.on("data", read);
      started.on("exit", (code) => reject(new Error(`server exited ${code}: ${output}`)));
    }),
    "the server listening",
    60_000,
  );
}, 120_000);

afterAll(() => {
  child?.kill();
});

/** 2 KB after the scheme: separators only, then a character that makes the match fail late. */
const hostile = (scheme: string, separator: string) =>
  scheme + separator.repeat(2048 - scheme.length - 1) + "x";

describe("resources/read of hostile URIs against a generated server process", () => {
  it("answers 2 KB adversarial reads and a concurrent tools/list, then reads as before", async () => {
    const client = new V2Client(
      { name: "hostile", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new V2HttpTransport(url));
    const answered: string[] = [];
    const settle = <T>(what: string, promise: Promise<T>) =>
      promise.then(
        (value) => (answered.push(what), { ok: true as const, value }),
        (error: unknown) => (answered.push(what), { ok: false as const, error }),
      );
    const uris = [hostile("data://", "."), hostile("log://", "-")];
    const sent = [
      settle("read data", client.readResource({ uri: uris[0]! })),
      settle("read log", client.readResource({ uri: uris[1]! })),
      settle("tools/list", client.listTools()),
    ];
    // A deadline, not a timing: before the fix the server was still matching hours later.
    const [data, log, list] = await within(Promise.all(sent), "all three answered", 30_000);
    expect(answered.sort()).toEqual(["read data", "read log", "tools/list"]);
    for (const [read, uri] of [
      [data, uris[0]!],
      [log, uris[1]!],
    ] as const)
      expect(read).toMatchObject({
        ok: false,
        error: { code: -32602, message: expect.stringContaining(`Resource ${uri} not found`) },
      });
    expect(list).toMatchObject({ ok: true, value: { tools: [{ name: "ping" }] } });

    expect(await client.readResource({ uri: "data://1.2.3.4.json" })).toMatchObject({
      contents: [{ text: JSON.stringify({ a: "1", b: "2", c: "3", d: "4" }) }],
    });
    expect(await client.readResource({ uri: "log://api-7-error.log" })).toMatchObject({
      contents: [{ text: JSON.stringify({ service: "api", date: "7", level: "error" }) }],
    });
    await client.close();
  });
});
