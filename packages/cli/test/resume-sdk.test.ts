// The v1 SDK client (1.32.2) resuming a generated dual-era server's SSE streams in a 2025-11-25
// session (basic/transports, "Resumability and Redelivery"): the network drops a tool call's
// response stream, and the client reconnects with GET and Last-Event-ID and gets the rest of the
// progress and the result; its standalone GET stream drops, and the notifications sent while
// it was away arrive after it reconnects. Each message exactly once. The drops are real: the
// client's fetch errors the body and cancels it, so the server sees the connection close.
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";
import { within } from "./support/wait.js";

type Any = any;

/** A promise and its resolver. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

// The "steps" tool reports progress 1, waits for the test, then reports 2 and 3 and answers.
const HANDLERS = `export const control = { more: undefined };
export const handlers = {
  "tools/call": async (params, ctx) => {
    await ctx.sendProgress(1, 3);
    await new Promise((resolve) => (control.more = resolve));
    await ctx.sendProgress(2, 3);
    await ctx.sendProgress(3, 3);
    return { content: [{ type: "text", text: "all steps done" }] };
  },
};
`;

let server: Server;
let url: string;
let dispatcher: Any;
let control: { more: (() => void) | undefined };
/** Told about each GET once the server answered it (its stream is in place by then). */
let onGet: (lastEventId: string | undefined) => void = () => undefined;

beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), undefined, {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const dir = writeGenerated(files);
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const [generated, httpServer, handlers] = await Promise.all(
    ["dispatcher.js", "http-server.js", "handlers.mjs"].map((m) => import(join(dir, m))),
  );
  control = handlers.control;
  dispatcher = generated.createServerDispatcher(handlers.handlers, {
    serverInfo: { name: "resumable", version: "1.0.0" },
  });
  const handler = httpServer.createHttpHandler(dispatcher);
  server = createServer((req, res) => {
    if (req.method === "GET") {
      const writeHead = res.writeHead.bind(res) as (...args: Any[]) => typeof res;
      // The handler attaches the stream in the same turn as it writes the head: a tick later
      // what is sent goes on it.
      res.writeHead = ((...args: Any[]) => {
        setImmediate(() => onGet(req.headers["last-event-id"] as string | undefined));
        return writeHead(...args);
      }) as Any;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/**
 * A fetch whose `method` response body fails like a dropped network connection once it carried
 * `after` JSON messages (one drop in all): the client sees a read error, the server a close.
 * `onDropped` is called as it drops, before the client knows.
 */
function droppingFetch(method: string, after: number, onDropped: () => void): typeof fetch {
  let dropped = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    if (dropped || init?.method !== method || !response.body) return response;
    if (!response.headers.get("content-type")?.includes("text/event-stream")) return response;
    dropped = true;
    const source = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await source.read();
        if (done) return controller.close();
        controller.enqueue(value);
        seen += decoder.decode(value, { stream: true }).split("data: {").length - 1;
        if (seen >= after) {
          onDropped();
          controller.error(new TypeError("network connection lost"));
          void source.cancel().catch(() => undefined);
        }
      },
      cancel: () => source.cancel(),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

async function connect(fetchFn: typeof fetch) {
  const client = new V1Client({ name: "resuming", version: "1.0.0" });
  const transport = new V1HttpTransport(new URL(url), {
    fetch: fetchFn,
    // Reconnect at once: the test waits on events, not on the client's backoff.
    reconnectionOptions: {
      initialReconnectionDelay: 1,
      maxReconnectionDelay: 1,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 3,
    },
  });
  await client.connect(transport);
  return { client, transport };
}

describe("the v1 SDK client resumes dropped streams (2025-11-25)", () => {
  it("a tool call's stream drops after progress 1: the client resumes and gets 2, 3 and the result", async () => {
    const resumedWith = gate<string | undefined>();
    onGet = (lastEventId) => lastEventId !== undefined && resumedWith.open(lastEventId);
    // The server goes on with the call once the connection dropped: the client going away
    // is not a cancellation, and what it sends meanwhile is kept for the client.
    const { client, transport } = await connect(droppingFetch("POST", 1, () => control.more!()));
    try {
      const progress: number[] = [];
      const tokens: string[] = [];
      const result = client.callTool({ name: "steps", arguments: {} }, undefined, {
        onprogress: (p: Any) => progress.push(p.progress),
        onresumptiontoken: (token: string) => tokens.push(token),
      } as Any);
      const answer: Any = await within(result, "the result after resuming");
      expect(answer.content[0].text).toBe("all steps done");
      expect(progress).toEqual([1, 2, 3]);
      // It resumed after the last event it had (progress 1), on that request's stream.
      const lastEventId = await resumedWith.opened;
      expect(tokens).toContain(lastEventId);
      expect(lastEventId).toMatch(/^p\./);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it("the standalone stream drops: what was sent meanwhile arrives after it reconnects", async () => {
    const logged: number[] = [];
    const seen = { count: 0, next: gate() };
    const reopened = gate<string | undefined>();
    // Sent while the stream is gone (the first message drops it).
    const { client, transport } = await connect(
      droppingFetch("GET", 1, () => {
        onGet = (lastEventId) => reopened.open(lastEventId);
        log(2);
        log(3);
      }),
    );
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n: Any) => {
      logged.push(n.params.data);
      seen.count++;
      seen.next.open();
    });
    const log = (data: number) =>
      dispatcher.notifySessions({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data },
      });
    try {
      // The client opens its GET stream after initializing; the server has it once it writes.
      const opened = gate();
      onGet = () => opened.open();
      await within(opened.opened, "the client's GET stream");
      expect(log(1)).toBe(1);
      await within(seen.next.opened, "notification 1");
      const lastEventId = await within(reopened.opened, "the client reconnects");
      expect(lastEventId).toMatch(/^g\./);
      while (seen.count < 3) {
        seen.next = gate();
        await within(seen.next.opened, "the missed notifications");
      }
      seen.next = gate();
      log(4);
      await within(seen.next.opened, "notification 4, live");
      expect(logged).toEqual([1, 2, 3, 4]);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});
