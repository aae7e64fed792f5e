import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { inputRequired } from "../src/server/input-required.js";
import { serveHttp, type ServeHttpOptions } from "../src/transport/http/server/server.js";
import { dualEras, LEGACY_PROTOCOL, PROTOCOL } from "./fixture.js";

// The SDK clients against the legacy serving modes (HttpCoreOptions.legacy), in process: the
// v2 SDK client (2.4.0, default mode: a legacy 2025-11-25 client) lists and calls tools in
// each mode, and a tool that asks the client for input gets the error naming the mode, not a
// hang; the v1 SDK client (1.32.2) whose requests accept application/json alone (a plain
// JSON consumer) is answered with JSON bodies, asking refused by the header's reason.

const LEGACY = { ...LEGACY_PROTOCOL, protocolVersion: "2025-11-25" };
const schema = { type: "object" };

/** `chatty` sends progress before answering; `ask` asks the client for a name. */
const dispatcher = () =>
  createEraDispatcher(dualEras(LEGACY), {
    "tools/list": () => ({
      tools: [
        { name: "chatty", inputSchema: schema },
        { name: "ask", inputSchema: schema },
      ],
    }),
    "tools/call": async (params: { name: string }, ctx: any) => {
      if (params.name === "chatty") {
        await ctx.sendProgress(1, 2);
        return { content: [{ type: "text", text: "done" }] };
      }
      const answer = ctx.inputResponse("who", "elicitation/create");
      if (answer) return { content: [{ type: "text", text: `hello ${answer.content.name}` }] };
      return inputRequired(PROTOCOL, ctx, {
        inputRequests: {
          who: {
            method: "elicitation/create",
            params: {
              message: "Name?",
              requestedSchema: { type: "object", properties: { name: { type: "string" } } },
            },
          },
        },
      });
    },
  });

const servers: { url: string; close(): Promise<void> }[] = [];
beforeAll(() => {
  // The creation warning is another test's subject (http-legacy-modes-list.test.ts).
  vi.spyOn(process, "emitWarning").mockImplementation(() => {});
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map((s) => s.close()));
});

async function start(legacy: NonNullable<ServeHttpOptions["legacy"]>) {
  const server = await serveHttp(PROTOCOL, dispatcher(), { legacy });
  servers.push(server);
  return server.url;
}

/** A v2 SDK client that answers elicitation (declared, so only the mode can refuse it). */
async function v2Client(url: string) {
  const client = new V2Client({ name: "v2", version: "1" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler("elicitation/create", async () => ({
    action: "accept",
    content: { name: "Grace" },
  }));
  const transport = new V2HttpTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

describe("the v2 SDK client (2.4.0, default mode) in each legacy mode", () => {
  const modes: [string, NonNullable<ServeHttpOptions["legacy"]>, RegExp][] = [
    ["JSON responses", { responses: "json" }, /legacy.responses: "json"/],
    ["stateless", { sessions: false }, /legacy.sessions: false/],
    // Both: the JSON body is the reason given (it could carry no request even with a session).
    [
      "stateless, JSON responses",
      { sessions: false, responses: "json" },
      /legacy.responses: "json"/,
    ],
  ];

  it.each(modes)("lists and calls tools: %s", async (_name, legacy) => {
    const { client, transport } = await v2Client(await start(legacy));
    try {
      expect(client.getServerVersion()).toBeDefined();
      expect(transport.sessionId === undefined).toBe(legacy?.sessions === false);
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual(["chatty", "ask"]);
      const progress: number[] = [];
      const result = await client.callTool(
        { name: "chatty", arguments: {} },
        { onprogress: (p: { progress: number }) => void progress.push(p.progress) },
      );
      expect(result.content).toEqual([{ type: "text", text: "done" }]);
      // One JSON body cannot carry progress; a stateless request's SSE stream does.
      expect(progress).toEqual(legacy?.responses === "json" ? [] : [1]);
    } finally {
      await client.close();
    }
  });

  it.each(modes)(
    "gets the error naming the mode from a tool that asks: %s",
    async (_n, legacy, mode) => {
      const { client } = await v2Client(await start(legacy));
      try {
        const asked = client.callTool({ name: "ask", arguments: {} });
        await expect(asked).rejects.toThrow(mode);
      } finally {
        await client.close();
      }
    },
  );

  it("is asked, and answers, with sessions and SSE (the default)", async () => {
    const { client } = await v2Client(await start({}));
    try {
      const result = await client.callTool({ name: "ask", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "hello Grace" }]);
    } finally {
      await client.close();
    }
  });
});

describe("the v1 SDK client (1.32.2) accepting application/json alone", () => {
  /** The SDK's fetch with each POST's Accept narrowed to application/json. */
  const jsonOnly: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (init?.method === "POST") headers.set("accept", "application/json");
    return fetch(input, { ...init, headers });
  };
  const types: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await jsonOnly(input, init);
    if (init?.method === "POST") types.push(response.headers.get("content-type") ?? "");
    return response;
  };

  it("gets JSON bodies in the default mode: calls work, progress dropped, asking refused by the header", async () => {
    const client = new V1Client(
      { name: "v1", version: "1" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Ada" },
    }));
    const transport = new V1HttpTransport(new URL(await start({})), { fetch: recording });
    await client.connect(transport);
    try {
      expect(transport.sessionId).toBeDefined();
      const progress: number[] = [];
      const result = await client.callTool({ name: "chatty" }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
      });
      expect(result).toMatchObject({ content: [{ type: "text", text: "done" }] });
      expect(progress).toEqual([]);
      const asked = client.callTool({ name: "ask" });
      await expect(asked).rejects.toThrow(
        /elicitation\/create .*Accept header lists application\/json but not text\/event-stream/,
      );
      // Every answer with a body was one JSON body, never an SSE stream.
      const bodies = types.filter((t: string) => t !== "");
      expect(bodies.length).toBeGreaterThanOrEqual(3);
      expect(bodies.every((t: string) => t.startsWith("application/json"))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
