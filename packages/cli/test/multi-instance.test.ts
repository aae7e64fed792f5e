// Beyond one machine: two server PROCESSES of one generated dual-era server behind a
// round-robin proxy. Modern requests go to any instance (multi round-trip rounds included:
// request state is sealed with a secret both share); legacy sessions are pinned to the
// instance that opened them, as a load balancer does by the Mcp-Session-Id header it saw on
// the initialize response.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";

type Any = any;

// One instance: a tool that asks for a name over two rounds, keeping round one's answer in
// sealed request state, and says which instance served each round.
const SERVER = `
import { createServerDispatcher, inputRequired, sealStateFor, openStateFor } from "./dispatcher.js";
import { serveHttp } from "./http-server.js";
const secret = process.env.STATE_SECRET;
const me = process.env.INSTANCE;
const ask = (key, message) => ({ [key]: { method: "elicitation/create", params: { mode: "form", message, requestedSchema: { type: "object", properties: { v: { type: "string" } } } } } });
const d = createServerDispatcher({
  "tools/call": async (params, ctx) => {
    const state = await openStateFor(ctx, { secret });
    const first = ctx.inputResponse("first", "elicitation/create");
    const second = ctx.inputResponse("second", "elicitation/create");
    if (!state) return inputRequired(ctx, { inputRequests: ask("first", "First?"), requestState: await sealStateFor(ctx, { rounds: [me] }, { secret }) });
    if (!second) return inputRequired(ctx, { inputRequests: ask("second", "Second?"), requestState: await sealStateFor(ctx, { rounds: [...state.rounds, me], first: first?.content?.v }, { secret }) });
    return { content: [{ type: "text", text: JSON.stringify({ first: state.first, second: second.content?.v, rounds: [...state.rounds, me] }) }] };
  },
}, { serverInfo: { name: "instance-" + me, version: "1.0.0" } });
const server = await serveHttp(d);
console.log("LISTENING " + server.url);
`;

const children: ChildProcess[] = [];
let proxy: Server;
let proxyUrl: string;
const hits: string[] = [];

function startInstance(dir: string, name: string): Promise<URL> {
  const child = spawn(process.execPath, [join(dir, "server.js")], {
    env: { ...process.env, STATE_SECRET: "a secret both instances share!!", INSTANCE: name },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b) => {
      out += b;
      const m = /LISTENING (\S+)/.exec(out);
      if (m) resolve(new URL(m[1]!));
    });
    child.on("exit", (code) => reject(new Error(`instance ${name} exited ${code}: ${out}`)));
  });
}

beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const dir = writeGenerated(files);
  writeFileSync(join(dir, "server.js"), SERVER);
  const backends = await Promise.all([startInstance(dir, "a"), startInstance(dir, "b")]);
  const pinned = new Map<string, URL>();
  let next = 0;
  // Round robin, except requests naming a session: those go where the session was opened.
  proxy = createServer((req, res) => {
    const session = req.headers["mcp-session-id"];
    const backend =
      typeof session === "string" && pinned.has(session)
        ? pinned.get(session)!
        : backends[next++ % backends.length]!;
    hits.push(backend.port);
    const upstream = httpRequest(
      {
        host: backend.hostname,
        port: backend.port,
        path: backend.pathname,
        method: req.method,
        headers: { ...req.headers, host: backend.host },
      },
      (answer) => {
        const minted = answer.headers["mcp-session-id"];
        if (typeof minted === "string") pinned.set(minted, backend);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill();
  await new Promise((resolve) => proxy?.close(resolve));
});

describe("two instances behind a round-robin proxy", () => {
  it("a modern client's rounds land on both instances and complete (shared state secret)", async () => {
    const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["client"]);
    const dir = writeGenerated(files);
    const [client, http] = await Promise.all(
      ["client.js", "http-client.js"].map((m) => import(join(dir, m))),
    );
    const answers: Record<string, string> = { "First?": "one", "Second?": "two" };
    const c = client.createClient({
      transport: http.createHttpTransport({ url: proxyUrl }),
      inputHandlers: {
        "elicitation/create": async (p: Any) => ({
          action: "accept",
          content: { v: answers[p.message] },
        }),
      },
    });
    const result = JSON.parse((await c.callTool({ name: "two-rounds" })).content[0].text);
    expect(result.first).toBe("one");
    expect(result.second).toBe("two");
    expect(new Set(result.rounds)).toEqual(new Set(["a", "b"]));
  });

  it("a legacy client's session stays on one instance, its elicitations included", async () => {
    const client = new V1Client(
      { name: "v1", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (r) => ({
      action: "accept",
      content: { v: r.params.message === "First?" ? "uno" : "dos" },
    }));
    hits.length = 0;
    await client.connect(new V1HttpTransport(new URL(proxyUrl)));
    const result = JSON.parse(
      ((await client.callTool({ name: "two-rounds", arguments: {} })).content as Any)[0].text,
    );
    expect([result.first, result.second]).toEqual(["uno", "dos"]);
    // Every round ran on the instance that holds the session.
    expect(new Set(result.rounds).size).toBe(1);
    expect(new Set(hits).size).toBe(1);
    await client.close();
  });
});
