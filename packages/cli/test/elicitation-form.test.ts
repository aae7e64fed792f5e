// Elicitation answers are checked against the form the server asked with, on both sides and
// in both eras: a `number` field takes 1.5 (and its 3.14 default), an `integer` field refuses
// 1.5, although every revision's schema.json types ElicitResult's content numbers as
// integers (docs/schema-json-deviations.md). The other side is the v1 SDK 1.32.2 each way
// (legacy sessions over Streamable HTTP), and mcp-gen itself on the modern wire.
import type { Server as HttpServer } from "node:http";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer as V1Server } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  importDualEraClient,
  listen,
  stop,
  v1SessionfulHandler,
} from "./support/dual-era-client.js";

type Any = any;

const FORM = {
  type: "object",
  properties: {
    ratio: { type: "number", title: "Ratio", default: 3.14 },
    count: { type: "integer", title: "Count" },
  },
};
const ASK = {
  method: "elicitation/create",
  params: { mode: "form", message: "Numbers?", requestedSchema: FORM },
};

let client: Any, dispatcher: Any, httpServer: Any, httpClient: Any;
// What the next elicitation is answered with, by whichever handler answers it.
let answer: unknown;
let handlerCalls = 0;
const answerForm = async () => (handlerCalls++, answer);

let v1ServerUrl: string, v1Http: HttpServer;
let generatedServer: { url: string; close(): Promise<void> };

beforeAll(async () => {
  [client, dispatcher, httpServer, httpClient] = await importDualEraClient([
    "client.js",
    "dispatcher.js",
    "http-server.js",
    "http-client.js",
  ]);
  // The v1 SDK server asks through elicitInput, which also checks the content against the
  // form (with ajv) before its tool sees it.
  const v1 = () => {
    const server = new V1Server({ name: "v1-form", version: "1.0.0" });
    server.registerTool("ask", { description: "Asks for numbers" }, async () => {
      const result = await server.server.elicitInput({
        mode: "form",
        message: "Numbers?",
        requestedSchema: FORM as never,
      });
      return { content: [{ type: "text", text: JSON.stringify(result.content) }] };
    });
    return server;
  };
  ({ url: v1ServerUrl, server: v1Http } = await listen(v1SessionfulHandler(v1), []));
  // mcp-gen's server asks through input_required; a legacy client gets elicitation/create.
  const d = dispatcher.createServerDispatcher(
    {
      "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
      "tools/call": (_params: Any, ctx: Any) => {
        const got = ctx.inputResponse("form", "elicitation/create", ASK);
        if (!got) return dispatcher.inputRequired(ctx, { inputRequests: { form: ASK } });
        return { content: [{ type: "text", text: JSON.stringify(got.content) }] };
      },
    },
    { serverInfo: { name: "form", version: "1.0.0" } },
  );
  generatedServer = await httpServer.serveHttp(d);
});

afterAll(async () => {
  await stop(v1Http);
  await generatedServer?.close();
});

function generatedClient(url: string) {
  return client.createClient({
    transport: httpClient.createHttpTransport({ url }),
    inputHandlers: { "elicitation/create": answerForm },
  });
}

const text = (result: Any) => JSON.parse(result.content[0].text);

describe("the generated client answering the v1 SDK server's form (legacy session)", () => {
  it("sends 1.5 for a number field, and the field's 3.14 default when the handler leaves it out", async () => {
    const c = generatedClient(v1ServerUrl);
    try {
      answer = { action: "accept", content: { ratio: 1.5, count: 2 } };
      expect(await c.era()).toBe("legacy");
      expect(text(await c.callTool({ name: "ask" }))).toEqual({ ratio: 1.5, count: 2 });
      answer = { action: "accept", content: { count: 7 } };
      expect(text(await c.callTool({ name: "ask" }))).toEqual({ ratio: 3.14, count: 7 });
    } finally {
      await c.close();
    }
  });

  it("refuses to send 1.5 for an integer field: the server gets the client's error, naming the field", async () => {
    const c = generatedClient(v1ServerUrl);
    try {
      answer = { action: "accept", content: { ratio: 1.5, count: 1.5 } };
      const before = handlerCalls;
      const result = await c.callTool({ name: "ask" });
      expect(handlerCalls).toBe(before + 1);
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain(
        "the client's elicitation/create answer is invalid: /content/count expected an integer",
      );
    } finally {
      await c.close();
    }
  });
});

describe("the v1 SDK client answering the generated server's form (legacy session)", () => {
  async function v1Call(content: object) {
    const v1 = new V1Client(
      { name: "v1", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    v1.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content }) as never);
    await v1.connect(new V1HttpTransport(new URL(generatedServer.url)));
    try {
      return (await v1.callTool({ name: "ask", arguments: {} })) as Any;
    } finally {
      await v1.close();
    }
  }

  it("takes 1.5 for a number field", async () => {
    expect(text(await v1Call({ ratio: 1.5, count: 2 }))).toEqual({ ratio: 1.5, count: 2 });
  });

  it("refuses 1.5 for an integer field, naming the field", async () => {
    const failure = await v1Call({ ratio: 1.5, count: 1.5 }).catch((e: unknown) => e);
    expect((failure as Any).code).toBe(-32603);
    expect((failure as Any).message).toContain("the client's elicitation/create result is invalid");
    expect((failure as Any).data.errors).toEqual([
      { path: "/content/count", message: "expected an integer" },
    ]);
  });
});

describe("modern requests: mcp-gen's client and server", () => {
  it("round-trips 1.5 and the 3.14 default for a number field", async () => {
    const c = generatedClient(generatedServer.url);
    answer = { action: "accept", content: { ratio: 1.5, count: 2 } };
    expect(await c.era()).toBe("modern");
    expect(text(await c.callTool({ name: "ask" }))).toEqual({ ratio: 1.5, count: 2 });
    answer = { action: "accept", content: { count: 3 } };
    expect(text(await c.callTool({ name: "ask" }))).toEqual({ ratio: 3.14, count: 3 });
  });

  it("the client refuses to send 1.5 for an integer field", async () => {
    const c = generatedClient(generatedServer.url);
    answer = { action: "accept", content: { ratio: 1.5, count: 1.5 } };
    const failure = await c.callTool({ name: "ask" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(client.McpProtocolError);
    expect((failure as Any).message).toMatch(/invalid answer for "form"/);
    expect(JSON.stringify((failure as Any).errors)).toContain("/content/count");
  });

  it("the server refuses 1.5 for an integer field sent by hand, naming the field", async () => {
    const c = generatedClient(generatedServer.url);
    const inputResponses = { form: { action: "accept", content: { ratio: 1.5, count: 1.5 } } };
    const failure = await c
      .callTool({ name: "ask", inputResponses }, { manual: true })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(client.McpError);
    expect((failure as Any).code).toBe(-32602);
    const paths = (failure as Any).data.errors.map((e: Any) => e.path);
    expect(paths).toEqual(["/params/inputResponses/form/content/count"]);
  });
});
