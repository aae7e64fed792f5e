// serveHttp's close(): a drain, not a reset. Calls in flight finish with their result, a
// request already on its way is served, a new GET gets 503 and a JSON-RPC error, GET
// streams end cleanly, and a
// call running past the bound is cut after it (fake time for the bound).
import { connect, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { serveHttp } from "../src/transport/http/server/server.js";
import { SHUTTING_DOWN_MESSAGE } from "../src/transport/http/server/drain.js";
import { within } from "../../cli/test/support/wait.js";
import { PROTOCOL } from "./fixture.js";
import {
  call,
  dispatcher,
  gates,
  get,
  messages,
  open,
  post,
  readAll,
  resetGates,
} from "./resume-support.js";

type Served = Awaited<ReturnType<typeof serveHttp>>;

let served: Served | undefined;
beforeEach(() => resetGates());
afterEach(async () => {
  vi.useRealTimers();
  gates.more.open();
  await served?.close({ timeoutMs: 0 });
  served = undefined;
});

/**
 * A connection that has begun a request (its request line reached the server) and sends
 * the rest when told: how a request reaches a replica on a connection kept alive by a proxy
 * while the replica shuts down.
 */
async function requestBegun(server: Served, method: "POST" | "GET" = "POST", session = "") {
  const { port } = new URL(server.url);
  const parsed = new Promise<void>((resolve) =>
    server.server.once("connection", (socket: Socket) => socket.once("data", () => resolve())),
  );
  const socket = connect(Number(port), "127.0.0.1");
  let text = "";
  socket.on("data", (chunk) => (text += chunk.toString()));
  const ended = new Promise<string>((resolve) => socket.on("close", () => resolve(text)));
  socket.write(`${method} /mcp HTTP/1.1\r\n`);
  await within(parsed, "the request line reaching the server");
  const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" });
  return {
    /** Sends the rest of the request; resolves to all the server answered, once it closed. */
    finish(): Promise<string> {
      socket.write(
        method === "GET"
          ? `host: 127.0.0.1:${port}\r\naccept: text/event-stream\r\nmcp-session-id: ${session}\r\n` +
              `mcp-protocol-version: 2098-01-01\r\n\r\n`
          : `host: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
              (session
                ? `mcp-session-id: ${session}\r\nmcp-protocol-version: 2098-01-01\r\n`
                : "") +
              `accept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      return within(ended, "the answer to the request sent during the drain");
    },
  };
}

/** The JSON-RPC results and errors among a stream's messages. */
const answers = (events: Awaited<ReturnType<typeof readAll>>) =>
  messages(events).filter((m) => "result" in m.message || "error" in m.message);

describe("serveHttp's close()", () => {
  it("lets a call in flight finish, serves a request already on its way, and ends GET streams cleanly", async () => {
    served = await serveHttp(PROTOCOL, dispatcher());
    const session = await open(served.url);
    const stream = await get(served.url, session);
    expect(stream.status).toBe(200);
    const streamRead = readAll(stream);
    const calling = await post(served.url, call("slow"), { "mcp-session-id": session });
    const callRead = readAll(calling);
    await within(gates.started.opened, "the call starting");
    const late = await requestBegun(served, "POST", session);
    const lateGet = await requestBegun(served, "GET", session);

    const closing = served.close();
    // The GET stream ends, without an error: its client resumes it elsewhere.
    await within(streamRead, "the GET stream ending");
    // A balancer sent it here as the drain began: served, then its connection closed.
    const answered = await late.finish();
    expect(answered).toMatch(/^HTTP\/1\.1 200 /);
    expect(answered.toLowerCase()).toContain("connection: close");
    expect(answered).toContain('"id":9');
    // A new GET stream would hold the drain open: refused, its client opens it elsewhere.
    const refused = await lateGet.finish();
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(refused.slice(refused.indexOf("\r\n\r\n") + 4))).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: SHUTTING_DOWN_MESSAGE },
    });

    gates.more.open();
    const events = await within(callRead, "the call's stream ending");
    expect(answers(events).map((m) => m.message.result)).toEqual([
      { content: [{ type: "text", text: "slow done" }] },
    ]);
    await within(closing, "close() resolving");
  });

  it("waits for a call whose client went away holding an event id (it may resume it)", async () => {
    served = await serveHttp(PROTOCOL, dispatcher());
    const session = await open(served.url);
    const left = new Promise<void>((resolve) =>
      served!.server.once("request", (_req, res) => res.once("close", () => resolve())),
    );
    const controller = new AbortController();
    const calling = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session,
      },
      body: JSON.stringify(call("slow")),
      signal: controller.signal,
    });
    expect(calling.headers.get("content-type")).toContain("text/event-stream");
    await within(gates.started.opened, "the call starting");
    controller.abort();
    await within(left, "the server seeing its client go");

    let closed = false;
    const closing = served.close().then(() => (closed = true));
    for (let turn = 0; turn < 20; turn++) await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    gates.more.open();
    await within(closing, "close() resolving once the call ended");
  });

  it("cuts a call still running when the bound passes, not before", async () => {
    served = await serveHttp(PROTOCOL, dispatcher());
    const session = await open(served.url);
    const calling = await post(served.url, call("slow"), { "mcp-session-id": session });
    let settled = false;
    const callRead = readAll(calling).then(
      (events) => ((settled = true), answers(events).length),
      () => ((settled = true), 0),
    );
    await within(gates.started.opened, "the call starting");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

    let closed = false;
    const closing = served.close({ timeoutMs: 5000 }).then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(4999);
    // Real I/O turns: a cut would have reached the client by now.
    for (let turn = 0; turn < 20; turn++) await new Promise((r) => setImmediate(r));
    expect({ settled, closed }).toEqual({ settled: false, closed: false });

    await vi.advanceTimersByTimeAsync(1);
    expect(await within(callRead, "the call being cut")).toBe(0);
    await within(closing, "close() resolving");
  });

  it("closes at once when nothing is in flight", async () => {
    served = await serveHttp(PROTOCOL, dispatcher());
    await open(served.url);
    await within(served.close(), "close() resolving");
    served = undefined;
  });

  it("refuses a bad bound with one line", async () => {
    await expect(serveHttp(PROTOCOL, dispatcher(), { drainTimeoutMs: -1 })).rejects.toThrow(
      "drainTimeoutMs must be a whole number of ms from 0 to 2147483647, got -1",
    );
    served = await serveHttp(PROTOCOL, dispatcher());
    expect(() => served!.close({ timeoutMs: 1.5 })).toThrow(
      "close's timeoutMs must be a whole number of ms from 0 to 2147483647, got 1.5",
    );
  });
});
