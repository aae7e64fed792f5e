// Straight-line input (withInput): one handler that logs, reports progress, samples, elicits
// and lists roots with plain `await`s, served by the generated dual-era server over loopback
// HTTP to the generated client in both eras (2026-07-28 rounds of input_required; a
// 2025-11-25 session, where the dispatcher asks the client on the session). It must give
// what the same tool written with inputRequired branches gives, with each question asked
// once and no log or progress notification sent twice.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generatedDualEra } from "./support/dual-era-server.js";

type Any = any;
type Era = "modern" | "legacy";
const SECRET = "a-test-secret-of-at-least-32-chars!!";

let generated: { dispatcher: Any; http: Any; client: Any; httpClient: Any };
let served: { url: string; close(): Promise<void> };
const versions = new Set<string>();

const text = (t: string) => ({ type: "text", text: t });
const SAMPLE = {
  messages: [{ role: "user", content: text("Summarise the sea") }],
  maxTokens: 50,
};
const CONFIRM = {
  mode: "form",
  message: "Write the report?",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
};

/** The report both tools answer with. */
const report = (summary: string, action: string, roots: number) =>
  ({ content: [text(`${summary}; ${action}; ${roots} roots`)] }) as const;

/** research, written straight: every ask awaited where it is needed. */
function straight(d: Any) {
  return d.withInput(
    async (_args: Any, ctx: Any, input: Any) => {
      await ctx.log("info", "start");
      await ctx.sendProgress(20, 100);
      const sampled = await input.createMessage(SAMPLE);
      await ctx.log("info", "sampled");
      // Two asks in one round.
      const [confirmed, roots] = await Promise.all([input.elicit(CONFIRM), input.listRoots()]);
      await ctx.sendProgress(70, 100);
      return report(sampled.content.text, confirmed.action, roots.roots.length);
    },
    { secret: SECRET },
  );
}

/** research, written with inputRequired branches: the comparison. */
function branching(d: Any) {
  return async (_args: Any, ctx: Any) => {
    // The client sends back the last round's answers only: earlier ones ride in the state.
    const sampled =
      ctx.inputResponse("s", "sampling/createMessage") ??
      (await d.openStateFor(ctx, { secret: SECRET }));
    if (!sampled) {
      await ctx.log("info", "start");
      await ctx.sendProgress(20, 100);
      return d.inputRequired(ctx, {
        inputRequests: { s: { method: "sampling/createMessage", params: SAMPLE } },
      });
    }
    const confirmed = ctx.inputResponse("c", "elicitation/create", { params: CONFIRM });
    const roots = ctx.inputResponse("r", "roots/list");
    if (!confirmed || !roots) {
      await ctx.log("info", "sampled");
      return d.inputRequired(ctx, {
        inputRequests: {
          c: { method: "elicitation/create", params: CONFIRM },
          r: { method: "roots/list" },
        },
        requestState: await d.sealStateFor(ctx, sampled, { secret: SECRET }),
      });
    }
    await ctx.sendProgress(70, 100);
    return report(sampled.content.text, confirmed.action, roots.roots.length);
  };
}

beforeAll(async () => {
  const dir = await generatedDualEra("ts");
  const [dispatcher, http, client, httpClient] = await Promise.all(
    ["dispatcher.js", "http-server.js", "client.js", "http-client.js"].map(
      (m) => import(join(dir, m)),
    ),
  );
  generated = { dispatcher, http, client, httpClient };
  let calls = 0;
  const tools: Record<string, Any> = {
    straight: straight(dispatcher),
    branching: branching(dispatcher),
    // Asks something else on each round: not deterministic.
    drifting: dispatcher.withInput(
      async (_args: Any, _ctx: Any, input: Any) =>
        input.elicit({ ...CONFIRM, message: `Round ${++calls}?` }),
      { secret: SECRET },
    ),
    // Catches the ask's error and answers anyway.
    swallowing: dispatcher.withInput(
      async (_args: Any, _ctx: Any, input: Any) => {
        try {
          await input.listRoots();
        } catch {
          // a handler must not do this
        }
        return { content: [text("no roots")] };
      },
      { secret: SECRET },
    ),
  };
  const server = dispatcher.createServerDispatcher(
    {
      "tools/list": () => ({
        tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: "object" } })),
        ttlMs: 0,
        cacheScope: "public",
      }),
      "tools/call": (params: Any, ctx: Any) => {
        versions.add(ctx.protocolVersion);
        return tools[params.name](params.arguments, ctx);
      },
    },
    { serverInfo: { name: "straight", version: "1.0.0" }, capabilities: { logging: {} } },
  );
  served = await http.serveHttp(server);
});
afterAll(() => served?.close());

/** A client of `era`, its input handlers counted, and what one call of `tool` saw. */
async function run(era: Era, tool: string) {
  const handlers = {
    "sampling/createMessage": vi.fn(async () => ({
      role: "assistant",
      content: text("calm"),
      model: "stub",
    })),
    "elicitation/create": vi.fn(async () => ({ action: "accept", content: { ok: true } })),
    "roots/list": vi.fn(async () => ({ roots: [{ uri: "file:///a" }, { uri: "file:///b" }] })),
  };
  const client = generated.client.createClient({
    transport: generated.httpClient.createHttpTransport({ url: served.url }),
    inputHandlers: handlers,
    ...(era === "legacy" ? { era: "legacy" } : {}),
  });
  const progress: number[] = [];
  const logs: unknown[] = [];
  const result = await client.callTool(
    { name: tool, arguments: {} },
    {
      onProgress: (p: Any) => progress.push(p.progress),
      onLog: (l: Any) => logs.push(l.data),
      logLevel: "info",
    },
  );
  await client.close?.();
  const asked = Object.fromEntries(
    Object.entries(handlers).map(([method, fn]) => [method, fn.mock.calls.length]),
  );
  return { content: result.content, progress, logs, asked };
}

const VERSION: Record<Era, string> = { modern: "2026-07-28", legacy: "2025-11-25" };

describe.each(["modern", "legacy"] as const)("withInput, %s era", (era) => {
  it("gets what the branching handler gets: the answers, each asked once, notifications once", async () => {
    versions.clear();
    const straightRun = await run(era, "straight");
    expect([...versions]).toEqual([VERSION[era]]);
    expect(straightRun).toEqual(await run(era, "branching"));
    expect(straightRun).toEqual({
      content: [text("calm; accept; 2 roots")],
      progress: [20, 70],
      logs: ["start", "sampled"],
      asked: { "sampling/createMessage": 1, "elicitation/create": 1, "roots/list": 1 },
    });
  });
});

describe.each(["modern", "legacy"] as const)("withInput's contract, %s era", (era) => {
  it("an ask that differs on replay fails the call, naming the ask", async () => {
    const { content } = await run(era, "drifting");
    expect(content).toEqual([
      text(expect.stringMatching(/ask #1 \(elicitation\/create\) differs from the one made/)),
    ]);
  });

  it("a handler that catches an open ask's error fails the call, not answers it", async () => {
    const { content, asked } = await run(era, "swallowing");
    expect(content).toEqual([text(expect.stringMatching(/returned while an ask was open/))]);
    expect(asked["roots/list"]).toBe(0);
  });
});
