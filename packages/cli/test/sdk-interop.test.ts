// Interop: mcp-gen's GENERATED client (2026-07-28) against a server written with the v2
// TypeScript SDK 2.4.0, over Streamable HTTP on loopback. The SDK tools, prompt and resource
// answer `input_required` (multi round-trip); the generated client must fulfil every input
// request with its handlers and retry until the final result.
import { once } from "node:events";
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  McpServer,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { generatedFiles, writeGenerated } from "./helpers.js";

type Any = any;
const REVISION = "2026-07-28";

/** All generated files transpiled into ONE folder, so modules share classes (McpError...). */
async function importAll(
  files: readonly { path: string; content: string }[],
  modules: string[],
): Promise<Any[]> {
  const dir = writeGenerated(files);
  return Promise.all(modules.map((m) => import(join(dir, m))));
}

/** The SDK server: one factory, fresh instance per HTTP request (the SDK's per-request model). */
const codec = createRequestStateCodec<{ topic: string }>({
  key: "interop-test-key-0123456789abcdef-0123",
});
function sdkServer(): McpServer {
  const server = new McpServer(
    { name: "sdk-interop", version: "1.0.0" },
    { requestState: { verify: codec.verify } },
  );
  const nameSchema = z.object({ name: z.string() });
  // (1) One elicitation, then the answer on the retry.
  server.registerTool(
    "greet",
    { description: "Greets whoever answers", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "who", nameSchema);
      if (!answer)
        return inputRequired({
          inputRequests: {
            who: inputRequired.elicit({ message: "Your name?", requestedSchema: nameSchema }),
          },
        });
      return { content: [{ type: "text", text: `Hello, ${answer.name}!` }] };
    },
  );
  // (2) Two rounds of input: an elicitation, then sampling; the first answer rides in a signed requestState.
  server.registerTool(
    "story",
    { inputSchema: z.object({ style: z.string() }) },
    async ({ style }, ctx) => {
      const state = ctx.mcpReq.requestState<{ topic: string }>();
      if (state) {
        const draft = inputResponse(ctx.mcpReq.inputResponses, "draft");
        const content = draft.kind === "sampling" ? draft.result.content : undefined;
        if (!content || Array.isArray(content) || content.type !== "text")
          throw new Error(`no draft: ${JSON.stringify(draft)}`);
        return {
          content: [{ type: "text", text: `${style} story about ${state.topic}: ${content.text}` }],
        };
      }
      const topic = acceptedContent(
        ctx.mcpReq.inputResponses,
        "topic",
        z.object({ topic: z.string() }),
      );
      if (!topic) {
        return inputRequired({
          inputRequests: {
            topic: inputRequired.elicit({
              message: "Topic?",
              requestedSchema: z.object({ topic: z.string() }),
            }),
          },
        });
      }
      const draft = inputRequired.createMessage({
        messages: [{ role: "user", content: { type: "text", text: `Write about ${topic.topic}` } }],
        maxTokens: 50,
      });
      return inputRequired({
        inputRequests: { draft },
        requestState: await codec.mint({ topic: topic.topic }),
      });
    },
  );
  // (3) MRTR on prompts/get and resources/read.
  server.registerPrompt(
    "haiku",
    { argsSchema: z.object({ season: z.string() }) },
    async ({ season }, ctx) => {
      const subject = acceptedContent(
        ctx.mcpReq.inputResponses,
        "subject",
        z.object({ subject: z.string() }),
      );
      if (!subject)
        return inputRequired({
          inputRequests: {
            subject: inputRequired.elicit({
              message: "Subject?",
              requestedSchema: z.object({ subject: z.string() }),
            }),
          },
        });
      return {
        messages: [
          {
            role: "user",
            content: { type: "text", text: `A ${season} haiku about ${subject.subject}` },
          },
        ],
      };
    },
  );
  server.registerResource(
    "roots",
    "interop://roots",
    { mimeType: "text/plain" },
    async (uri, ctx) => {
      const roots = inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (roots.kind !== "roots")
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
      return { contents: [{ uri: uri.href, text: roots.roots.map((r) => r.uri).join(",") }] };
    },
  );
  return server;
}

/** One HTTP exchange as seen on the wire by the Node adapter. */
type Exchange = {
  headers: IncomingMessage["headers"];
  body: Any;
  status: number;
  responseType: string | null;
  response: string;
};

/** A minimal node:http adapter around the SDK's web-standard handler (@modelcontextprotocol/node is not installed). */
function serveNode(route: (path: string) => McpHttpHandler, log: Exchange[]): HttpServer {
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method!,
      headers,
      ...(raw.length > 0 ? { body: raw } : {}),
    });
    const response = await route(new URL(request.url).pathname).fetch(request);
    const text = await response.text(); // the SDK ends the stream with the response: buffering is safe here
    log.push({
      headers: req.headers,
      body: raw.length ? JSON.parse(raw.toString("utf8")) : undefined,
      status: response.status,
      responseType: response.headers.get("content-type"),
      response: text,
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(text);
  };
  return createServer(
    (req, res) => void serve(req, res).catch((e) => res.writeHead(500).end(String(e?.stack ?? e))),
  );
}

describe(`generated client ${REVISION} against @modelcontextprotocol/server 2.4.0 (MRTR over HTTP)`, () => {
  let client: Any;
  let http: Any;
  let v: Any;
  let sdk: McpHttpHandler[];
  let server: HttpServer;
  let base: string;
  const log: Exchange[] = [];
  const calls = (method: string) => log.filter((e) => e.body?.method === method);
  /** The JSON-RPC response of an exchange, from a JSON body or the SSE event carrying it. */
  const parseReply = (e: Exchange): Any =>
    e.responseType?.includes("text/event-stream")
      ? e.response
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => JSON.parse(l.slice(5)))
          .find((m) => "result" in m || "error" in m)
      : JSON.parse(e.response);
  const wire = () =>
    log
      .map((e) => `> ${JSON.stringify(e.body)}\n< ${e.status} ${e.responseType} ${e.response}`)
      .join("\n");

  beforeAll(async () => {
    const files = await generatedFiles(REVISION);
    [client, http, v] = await importAll(files, ["client.js", "http-client.js", "validators.js"]);
    // /mcp answers JSON bodies (the SDK's "auto" mode with nothing to stream); /sse always streams.
    const onerror = (e: Error) => console.error("SDK:", e);
    sdk = [
      createMcpHandler(() => sdkServer(), { legacy: "reject", onerror }),
      createMcpHandler(() => sdkServer(), {
        legacy: "reject",
        onerror,
        responseMode: "sse",
        keepAliveMs: 0,
      }),
    ];
    server = serveNode((path) => sdk[path === "/sse" ? 1 : 0]!, log);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    // Every byte on the wire conforms to the schema: requests as sent, results (interim and final) as received.
    const exchanges = log.splice(0);
    for (const e of exchanges) {
      const sent = v.validateClientRequest(e.body);
      expect({ ok: sent.ok, errors: sent.errors ?? [] }, JSON.stringify(e.body)).toEqual({
        ok: true,
        errors: [],
      });
      const { result } = parseReply(e);
      const got =
        result?.resultType === "input_required"
          ? v.validateInputRequiredResult(result)
          : v.validateMethodResult(e.body.method, result);
      expect({ ok: got.ok, errors: got.errors ?? [] }, e.response).toEqual({
        ok: true,
        errors: [],
      });
    }
  });
  afterAll(async () => {
    await Promise.all((sdk ?? []).map((h) => h.close()));
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  const handlers = () => ({
    "elicitation/create": vi.fn(async (params: Any, _ctx: Any) => {
      const field = Object.keys(params.requestedSchema.properties)[0]!;
      return {
        action: "accept",
        content: { [field]: { name: "Ada", topic: "tides", subject: "frost" }[field] },
      };
    }),
    "sampling/createMessage": vi.fn(async (_params: Any) => ({
      role: "assistant",
      content: { type: "text", text: "The sea breathes." },
      model: "stub",
    })),
    "roots/list": vi.fn(async () => ({ roots: [{ uri: "file:///work", name: "work" }] })),
  });
  const connect = (inputHandlers: Any, path = "/mcp") =>
    client.createClient({
      transport: http.createHttpTransport({ url: base + path }),
      clientInfo: { name: "mcp-gen-interop", version: "0.0.0" },
      inputHandlers,
      maxRounds: 5,
    });

  it("greet: one elicitation (form mode), then the final result on the retry", async () => {
    const h = handlers();
    const result = await connect(h).callTool({ name: "greet", arguments: {} });
    expect(result, wire()).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
    expect(h["elicitation/create"]).toHaveBeenCalledTimes(1);
    const [params, ctx] = h["elicitation/create"].mock.calls[0]!;
    expect(params).toMatchObject({
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    expect(ctx).toMatchObject({ key: "who", method: "elicitation/create" });
    const rounds = calls("tools/call");
    expect(rounds).toHaveLength(2);
    expect(parseReply(rounds[0]!).result).toMatchObject({ resultType: "input_required" });
    expect(rounds[1]!.body.params.inputResponses).toEqual({
      who: { action: "accept", content: { name: "Ada" } },
    });
    expect(rounds[1]!.body.id).not.toBe(rounds[0]!.body.id);
    // The generated transport's routing headers agree with the bodies (the SDK checks them too).
    for (const r of rounds)
      expect(r.headers).toMatchObject({
        "mcp-method": "tools/call",
        "mcp-protocol-version": REVISION,
        "mcp-name": "greet",
      });
  });

  it("story: elicitation, then sampling, with the SDK's signed requestState echoed verbatim", async () => {
    const h = handlers();
    const result = await connect(h).callTool({ name: "story", arguments: { style: "short" } });
    expect(result, wire()).toMatchObject({
      content: [{ type: "text", text: "short story about tides: The sea breathes." }],
    });
    expect(h["elicitation/create"]).toHaveBeenCalledTimes(1);
    expect(h["sampling/createMessage"]).toHaveBeenCalledTimes(1);
    expect(h["sampling/createMessage"].mock.calls[0]![0]).toMatchObject({
      maxTokens: 50,
      messages: [{ role: "user", content: { type: "text", text: "Write about tides" } }],
    });
    const rounds = calls("tools/call");
    expect(rounds).toHaveLength(3);
    const state = parseReply(rounds[1]!).result.requestState;
    expect(state).toMatch(/^v1\./);
    expect(rounds[2]!.body.params.requestState).toBe(state);
    expect(rounds[0]!.body.params).not.toHaveProperty("requestState");
    expect(Object.keys(rounds[2]!.body.params.inputResponses)).toEqual(["draft"]);
  });

  it("prompts/get and resources/read: input_required on the other MRTR methods", async () => {
    const h = handlers();
    const c = connect(h);
    const prompt = await c.getPrompt({ name: "haiku", arguments: { season: "winter" } });
    expect(prompt, wire()).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "A winter haiku about frost" } }],
    });
    const resource = await c.readResource({ uri: "interop://roots" });
    expect(resource, wire()).toMatchObject({
      contents: [{ uri: "interop://roots", text: "file:///work" }],
    });
    expect(h["roots/list"]).toHaveBeenCalledTimes(1);
    expect(calls("prompts/get")).toHaveLength(2);
    expect(calls("resources/read")).toHaveLength(2);
  });

  it("the same dance when the SDK streams every reply as text/event-stream", async () => {
    const h = handlers();
    const result = await connect(h, "/sse").callTool({
      name: "story",
      arguments: { style: "streamed" },
    });
    expect(result, wire()).toMatchObject({
      content: [{ type: "text", text: "streamed story about tides: The sea breathes." }],
    });
    const rounds = calls("tools/call");
    expect(rounds.map((r) => r.responseType)).toEqual(
      Array(3).fill(expect.stringContaining("text/event-stream")),
    );
  });

  it("a declined elicitation rejects with InputDeclinedError and the SDK server sees no retry", async () => {
    const decline = vi.fn(() => client.DECLINE);
    const call = connect({ "elicitation/create": decline }).callTool({
      name: "greet",
      arguments: {},
    });
    await expect(call).rejects.toBeInstanceOf(client.InputDeclinedError);
    await expect(call).rejects.toMatchObject({ method: "elicitation/create", key: "who" });
    expect(decline).toHaveBeenCalledTimes(1);
    expect(calls("tools/call")).toHaveLength(1);
  });
});
