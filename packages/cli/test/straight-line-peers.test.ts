// Straight-line input (withInput) against the peers people run: the v1 SDK client 1.32.2
// (2025-11-25 sessions, where the server asks on the session), the v2 SDK client 2.4.0 in its
// default mode (2025-11-25: it negotiates 2026-07-28 only when asked to) and in auto mode
// (2026-07-28 rounds of input_required), over stdio (the server a child process) and Streamable
// HTTP, and the generated client in both eras over stdio (over HTTP: straight-line.test.ts).
// Each must get from the tool written with plain `await`s what it gets from the same tool
// written with inputRequired branches: the answer, each question asked once, each log and
// progress notification once; and withInput's contract errors (an ask that differs on replay,
// an ask's error caught) must reach it as the call's error.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  Client as V2Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedDualEra } from "./support/dual-era-server.js";
import { within } from "./support/wait.js";

type Any = any;
type Wire = "stdio" | "http";
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

/**
 * The server's tools, a module beside the generated files: the stdio script and this process
 * (for HTTP) serve the same ones. Each answer names the protocol version its handler saw.
 */
const SERVER_MODULE = `import {
  createServerDispatcher, inputRequired, openStateFor, sealStateFor, withInput,
} from "./dispatcher.js";
const SECRET = "a-test-secret-of-at-least-32-chars!!";
const text = (t) => ({ type: "text", text: t });
const SAMPLE = { messages: [{ role: "user", content: text("Summarise the sea") }], maxTokens: 50 };
const CONFIRM = {
  mode: "form",
  message: "Write the report?",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
};
const report = (ctx, summary, action, roots) => ({
  content: [text(\`\${summary}; \${action}; \${roots} roots; \${ctx.protocolVersion}\`)],
});
const tools = {
  // research, written straight: every ask awaited where it is needed, two in one round.
  straight: withInput(async (_args, ctx, input) => {
    await ctx.log("info", "start");
    await ctx.sendProgress(20, 100);
    const sampled = await input.createMessage(SAMPLE);
    await ctx.log("info", "sampled");
    const [confirmed, roots] = await Promise.all([input.elicit(CONFIRM), input.listRoots()]);
    await ctx.sendProgress(70, 100);
    return report(ctx, sampled.content.text, confirmed.action, roots.roots.length);
  }, { secret: SECRET }),
  // research, written with inputRequired branches: the comparison.
  branching: async (_args, ctx) => {
    const sampled =
      ctx.inputResponse("s", "sampling/createMessage") ?? (await openStateFor(ctx, { secret: SECRET }));
    if (!sampled) {
      await ctx.log("info", "start");
      await ctx.sendProgress(20, 100);
      return inputRequired(ctx, {
        inputRequests: { s: { method: "sampling/createMessage", params: SAMPLE } },
      });
    }
    const confirmed = ctx.inputResponse("c", "elicitation/create", { params: CONFIRM });
    const roots = ctx.inputResponse("r", "roots/list");
    if (!confirmed || !roots) {
      await ctx.log("info", "sampled");
      return inputRequired(ctx, {
        inputRequests: {
          c: { method: "elicitation/create", params: CONFIRM },
          r: { method: "roots/list" },
        },
        requestState: await sealStateFor(ctx, sampled, { secret: SECRET }),
      });
    }
    await ctx.sendProgress(70, 100);
    return report(ctx, sampled.content.text, confirmed.action, roots.roots.length);
  },
  // Asks something else on each round: not deterministic.
  drifting: withInput(
    async (_args, _ctx, input) => input.elicit({ ...CONFIRM, message: \`Round \${++rounds}?\` }),
    { secret: SECRET },
  ),
  // Catches the ask's error and answers anyway.
  swallowing: withInput(async (_args, _ctx, input) => {
    try {
      await input.listRoots();
    } catch {
      // a handler must not do this
    }
    return { content: [text("no roots")] };
  }, { secret: SECRET }),
};
let rounds = 0;
export function createServer() {
  return createServerDispatcher(
    {
      "tools/list": () => ({
        tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: "object" } })),
        ttlMs: 0,
        cacheScope: "public",
      }),
      "tools/call": (params, ctx) => tools[params.name](params.arguments, ctx),
    },
    { serverInfo: { name: "straight", version: "1.0.0" }, capabilities: { logging: {} } },
  );
}
`;

let stdioServer: { command: string; args: string[]; stderr: "ignore" };
let httpUrl: URL;
let generated: { client: Any; stdio: Any };
let closeHttp: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const dir = await generatedDualEra("ts");
  writeFileSync(join(dir, "straight-server.mjs"), SERVER_MODULE);
  const script = join(dir, "straight-stdio.mjs");
  writeFileSync(
    script,
    `import { createServer } from "./straight-server.mjs";
import { serveStdio } from "./stdio.js";
serveStdio(createServer());
`,
  );
  stdioServer = { command: process.execPath, args: [script], stderr: "ignore" };
  const [server, http, client, stdio] = await Promise.all(
    ["straight-server.mjs", "http-server.js", "client.js", "stdio.js"].map(
      (m) => import(join(dir, m)),
    ),
  );
  generated = { client, stdio };
  const served = await http.serveHttp(server.createServer());
  httpUrl = new URL(served.url);
  closeHttp = () => served.close();
});
afterAll(() => closeHttp?.());

const text = (t: string) => ({ type: "text", text: t });
type Method = "sampling/createMessage" | "elicitation/create" | "roots/list";

/** What one call saw: its content, the progress and logs it was sent, the questions asked. */
interface Seen {
  content: unknown;
  progress: number[];
  logs: unknown[];
  asked: Record<Method, number>;
}

/** A fresh record of one call, and the client's answers to the server's questions, counted. */
function oneCall() {
  const seen: Seen = {
    content: undefined,
    progress: [],
    logs: [],
    asked: { "sampling/createMessage": 0, "elicitation/create": 0, "roots/list": 0 },
  };
  const answers: Record<Method, () => Promise<Any>> = {
    "sampling/createMessage": async () => {
      seen.asked["sampling/createMessage"]++;
      return { role: "assistant", content: text("calm"), model: "stub" };
    },
    "elicitation/create": async () => {
      seen.asked["elicitation/create"]++;
      return { action: "accept", content: { ok: true } };
    },
    "roots/list": async () => {
      seen.asked["roots/list"]++;
      return { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] };
    },
  };
  return { seen, answers };
}

/**
 * Records the progress the server sends, off the SDK client's transport: the SDK clients call
 * `onprogress` a tick after reading a progress notification but retire its token on reading
 * the response, so a progress read in the same chunk as the answer (stdio, a busy client) is
 * dropped as "unknown token" (Protocol._onprogress), however the handler is written. And the
 * v2 SDK's `onprogress` also reports its own input rounds (progress 1, 2, ...).
 */
function tapProgress(client: { transport?: Any }, current: () => Seen): void {
  const transport = client.transport;
  const inner = transport.onmessage;
  transport.onmessage = (message: Any, extra: unknown) => {
    if (message.method === "notifications/progress")
      current().progress.push(message.params.progress);
    inner(message, extra);
  };
}
/** Asks for progress (a progressToken on each request); tapProgress records it. */
const wantProgress = () => undefined;

/** A connected client: calls one tool at a time. */
interface Peer {
  call(tool: string): Promise<Seen>;
  close(): Promise<void>;
}
const CAPABILITIES = { sampling: {}, elicitation: {}, roots: {} };

async function v1Sdk(wire: Wire): Promise<Peer> {
  const client = new V1Client({ name: "v1", version: "1.0.0" }, { capabilities: CAPABILITIES });
  let current = oneCall();
  client.setRequestHandler(CreateMessageRequestSchema, () =>
    current.answers["sampling/createMessage"](),
  );
  client.setRequestHandler(ElicitRequestSchema, () => current.answers["elicitation/create"]());
  client.setRequestHandler(ListRootsRequestSchema, () => current.answers["roots/list"]());
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void current.seen.logs.push(n.params.data),
  );
  await client.connect(
    wire === "stdio" ? new V1StdioTransport(stdioServer) : new V1HttpTransport(httpUrl),
  );
  await client.setLoggingLevel("info");
  tapProgress(client, () => current.seen);
  return {
    async call(name) {
      current = oneCall();
      const { seen } = current;
      const result = await client.callTool({ name, arguments: {} }, undefined, {
        onprogress: wantProgress,
      });
      return { ...seen, content: result.content };
    },
    close: () => client.close(),
  };
}

const v2Sdk =
  (mode: "default" | "auto") =>
  async (wire: Wire): Promise<Peer> => {
    const client = new V2Client(
      { name: "v2", version: "1.0.0" },
      {
        capabilities: CAPABILITIES,
        ...(mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {}),
      },
    );
    let current = oneCall();
    client.setRequestHandler("sampling/createMessage", () =>
      current.answers["sampling/createMessage"](),
    );
    client.setRequestHandler("elicitation/create", () => current.answers["elicitation/create"]());
    client.setRequestHandler("roots/list", () => current.answers["roots/list"]());
    client.setNotificationHandler(
      "notifications/message",
      (n) => void current.seen.logs.push(n.params.data),
    );
    await client.connect(
      wire === "stdio" ? new V2StdioTransport(stdioServer) : new V2HttpTransport(httpUrl),
    );
    // A 2025-11-25 session sets its log level once; a 2026-07-28 request asks in its _meta.
    const modern = client.getNegotiatedProtocolVersion() === MODERN;
    if (!modern) await client.setLoggingLevel("info");
    tapProgress(client, () => current.seen);
    return {
      async call(name) {
        current = oneCall();
        const { seen } = current;
        const result = await client.callTool(
          { name, arguments: {}, ...(modern ? { _meta: { [LOG_LEVEL_META_KEY]: "info" } } : {}) },
          { onprogress: wantProgress },
        );
        return { ...seen, content: result.content };
      },
      close: () => client.close(),
    };
  };

const generatedClient =
  (era: "auto" | "legacy") =>
  async (wire: Wire): Promise<Peer> => {
    expect(wire, "over HTTP: straight-line.test.ts").toBe("stdio");
    let current = oneCall();
    const client = generated.client.createClient({
      transport: generated.stdio.createStdioTransport(stdioServer),
      inputHandlers: {
        "sampling/createMessage": () => current.answers["sampling/createMessage"](),
        "elicitation/create": () => current.answers["elicitation/create"](),
        "roots/list": () => current.answers["roots/list"](),
      },
      era,
    });
    return {
      async call(name) {
        current = oneCall();
        const { seen } = current;
        const result = await client.callTool(
          { name, arguments: {} },
          {
            onProgress: (p: Any) => seen.progress.push(p.progress),
            onLog: (l: Any) => seen.logs.push(l.data),
            logLevel: "info",
          },
        );
        return { ...seen, content: result.content };
      },
      close: () => client.close(),
    };
  };

const PEERS: [string, string, Wire[], (wire: Wire) => Promise<Peer>][] = [
  ["the v1 SDK client 1.32.2", LEGACY, ["stdio", "http"], v1Sdk],
  ["the v2 SDK client 2.4.0, default mode", LEGACY, ["stdio", "http"], v2Sdk("default")],
  ["the v2 SDK client 2.4.0, auto mode", MODERN, ["stdio", "http"], v2Sdk("auto")],
  ["the generated client, era auto", MODERN, ["stdio"], generatedClient("auto")],
  ["the generated client, era legacy", LEGACY, ["stdio"], generatedClient("legacy")],
];
const CASES = PEERS.flatMap(([name, version, wires, connect]) =>
  wires.map((wire) => [name, wire, version, connect] as const),
);

describe.each(CASES)("%s over %s (%s)", (_name, wire, version, connect) => {
  // One connection (one server process on stdio) for the tests of a peer.
  let peer: Peer | undefined;
  beforeAll(async () => void (peer = await within(connect(wire), `the ${wire} connection`)));
  afterAll(() => peer?.close());
  const call = (tool: string) => within(peer!.call(tool), `the call of ${tool}`);

  it("withInput's tool gets what the branching one gets: each asked once, notifications once", async () => {
    const straight = await call("straight");
    expect(straight).toEqual(await call("branching"));
    expect(straight).toEqual({
      content: [text(`calm; accept; 2 roots; ${version}`)],
      progress: [20, 70],
      logs: ["start", "sampled"],
      asked: { "sampling/createMessage": 1, "elicitation/create": 1, "roots/list": 1 },
    });
  });

  it("an ask that differs on replay fails the call, naming the ask", async () => {
    const { content } = await call("drifting");
    expect(content).toEqual([
      text(expect.stringMatching(/ask #1 \(elicitation\/create\) differs from the one made/)),
    ]);
  });

  it("a handler that catches an open ask's error fails the call, not answers it", async () => {
    const { content, asked } = await call("swallowing");
    expect(content).toEqual([text(expect.stringMatching(/returned while an ask was open/))]);
    expect(asked["roots/list"]).toBe(0);
  });
});
