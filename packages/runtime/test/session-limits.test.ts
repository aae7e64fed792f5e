import { Agent, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import type { ProtocolDescriptor } from "../src/core/protocol.js";
import { createHttpHandler, type ServeHttpOptions } from "../src/transport/http/server/server.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { within } from "../../cli/test/support/wait.js";
import { dualEras, LEGACY_INITIALIZE as INITIALIZE, LEGACY_PROTOCOL, PROTOCOL } from "./fixture.js";
import { serveSessions } from "./session-server.js";

// The attacks found on an `init` server, as regressions (issue 25): one principal opening
// 10,000 sessions, one session opening 1,000 GET streams, a DELETE leaving streams open; and
// the limits that answer them (refused sessions, one standalone stream, every stream closed
// with its session, keep-alive and idle limits), over real HTTP against the node handler.

/** The fixture's legacy revision, with the methods whose state a session keeps. */
const LEGACY: ProtocolDescriptor = {
  ...LEGACY_PROTOCOL,
  methods: {
    ...LEGACY_PROTOCOL.methods,
    ...Object.fromEntries(
      ["logging/setLevel", "resources/subscribe", "notifications/initialized"].map((method) => [
        method,
        {
          kind: method.startsWith("notifications/") ? "notification" : "request",
          directions: ["client->server"],
          inputRequired: false,
          capabilities: {},
        },
      ]),
    ),
  } as ProtocolDescriptor["methods"],
};

/** What the `hold` tool saw: its signal, aborted when its session ends. */
const held: AbortSignal[] = [];

function dispatcher() {
  return createEraDispatcher(dualEras(LEGACY), {
    "tools/call": async (params: { name: string }, ctx: any) => {
      if (params.name !== "hold") return { content: [] };
      // A long call answered on a stream: it notifies, then waits for its signal.
      held.push(ctx.signal);
      await ctx.notify({ method: "notifications/progress", params: { progress: 1 } });
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      return { content: [] };
    },
    "resources/list": () => ({ resources: [] }),
  } as any);
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  held.length = 0;
});

/** A response as node:http gives it: status, headers, and the body as it comes. */
interface Reply {
  status: number;
  headers: IncomingMessage["headers"];
  body: IncomingMessage;
}

/** HTTP requests over kept-alive connections (node:http: cheaper per request than fetch). */
const agent = new Agent({ keepAlive: true });
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: object,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) =>
      resolve({ status: res.statusCode!, headers: res.headers, body: res }),
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The whole body of `reply`, as JSON. */
async function json(reply: Reply): Promise<any> {
  let text = "";
  for await (const chunk of reply.body) text += chunk;
  return JSON.parse(text);
}

/** A server whose principal is the Authorization header (none: anonymous), and its responses. */
async function start(options: ServeHttpOptions = {}, d = dispatcher()) {
  const server = await serveSessions(d, options);
  servers.push(server);
  const responses: ServerResponse[] = [];
  server.server.on("request", (_req, res: ServerResponse) => responses.push(res));
  const post = (body: object, headers: Record<string, string> = {}) =>
    send(
      server.url,
      "POST",
      {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body,
    );
  return {
    url: server.url,
    dispatcher: d,
    post,
    get: (id: string, who = "alice") =>
      send(server.url, "GET", {
        accept: "text/event-stream",
        authorization: who,
        "mcp-session-id": id,
      }),
    delete: (headers: Record<string, string>) => send(server.url, "DELETE", headers),
    /** Responses the server has not ended. */
    openResponses: () => responses.filter((r) => !r.writableEnded && !r.destroyed).length,
    /** A new session of `who` (none: anonymous), or the refusal. */
    async open(who?: string): Promise<{ id?: string; reply: Reply }> {
      const reply = await post(INITIALIZE, who === undefined ? {} : { authorization: who });
      const id = reply.headers["mcp-session-id"];
      reply.body.resume();
      return { ...(typeof id === "string" ? { id } : {}), reply };
    },
  };
}

const call = (name: string, id = 2) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name },
});

/** A response body read as it comes: its text so far, and whether the server ended it. */
function watch(reply: Reply) {
  const state = { text: "", ended: false };
  const ended = new Promise<void>((resolve) => {
    reply.body.on("data", (chunk: Buffer) => (state.text += chunk.toString("utf8")));
    reply.body.on("close", () => {
      state.ended = true;
      resolve();
    });
  });
  return {
    state,
    ended: (what: string) => within(ended, what),
    /** Resolves once the text so far holds `part`. */
    seen(part: string, what: string) {
      return within(
        new Promise<void>((resolve) => {
          const check = () => state.text.includes(part) && resolve();
          reply.body.on("data", check);
          check();
        }),
        what,
      );
    },
    cancel: () => reply.body.destroy(),
  };
}

/**
 * `count` copies of one POST, pipelined on one connection (HTTP/1.1: the server answers them
 * in order), as a flooding client sends them: the statuses of the answers, in order.
 */
function pipelined(
  url: string,
  count: number,
  body: object,
  headers: Record<string, string>,
): Promise<number[]> {
  const { hostname, port, pathname, host } = new URL(url);
  const text = JSON.stringify(body);
  const head = [
    `POST ${pathname} HTTP/1.1`,
    `host: ${host}`,
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(text)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join("\r\n");
  return within(
    new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      const statuses: number[] = [];
      let rest = "";
      socket.on("data", (chunk: Buffer) => {
        const lines = (rest + chunk.toString("latin1")).split("\r\n");
        rest = lines.pop()!;
        // Status lines: at a line's start, or right after the body before them (a body sent
        // with Content-Length ends without a line break).
        for (const line of lines) {
          const status = /(?:^|\})HTTP\/1\.1 (\d{3}) /.exec(line)?.[1];
          if (status) statuses.push(Number(status));
        }
        if (statuses.length === count) resolve((socket.end(), statuses));
      });
      socket.on("error", reject);
      socket.write(`${head}\r\n\r\n${text}`.repeat(count));
    }),
    `${count} pipelined answers`,
    60_000,
  );
}

/** `count` requests made `concurrency` at a time; their statuses, in order. */
async function flood(count: number, concurrency: number, sendOne: () => Promise<Reply>) {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, count - sent) }, async () => {
      const reply = await sendOne();
      reply.body.resume();
      return reply.status;
    });
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

describe("sessions per principal: a new session over the cap is refused, nobody is evicted", () => {
  it("10,000 sessions from one principal leave another principal's session served", async () => {
    const s = await start();
    const alice = await s.open("alice");
    // 10 connections, each pipelining 1,000 initialize requests.
    const statuses = (
      await Promise.all(
        Array.from({ length: 10 }, () =>
          pipelined(s.url, 1_000, INITIALIZE, { authorization: "mallory" }),
        ),
      )
    ).flat();
    expect(statuses).toHaveLength(10_000);
    // The default cap: 100 sessions per principal; every other attempt refused with 429.
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9_900);
    const refused = await s.post(INITIALIZE, { authorization: "mallory" });
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({
      id: 1,
      error: { message: expect.stringMatching(/Too many sessions for this principal/) },
    });
    const served = await s.post(call("x"), { authorization: "alice", "mcp-session-id": alice.id! });
    expect(served.status).toBe(200);
    expect(await json(served)).toMatchObject({ result: { content: [] } });
    // Others still open sessions: the flood filled mallory's bucket, not the server.
    expect((await s.open("bob")).id).toBeDefined();
  });

  it("without authentication every client shares one bucket; a full store refuses everyone, evicting nobody", async () => {
    const s = await start({ maxSessions: 20, maxAnonymousSessions: 15 });
    const alice = await s.open("alice");
    const anonymous = await flood(30, 10, () => s.post(INITIALIZE));
    expect(anonymous.filter((status) => status === 200)).toHaveLength(15);
    expect(anonymous.filter((status) => status === 429)).toHaveLength(15);
    expect((await s.open()).reply.status).toBe(429);
    const bobs = await flood(10, 5, () => s.post(INITIALIZE, { authorization: "bob" }));
    expect(bobs.filter((status) => status === 200)).toHaveLength(4);
    const full = await s.post(INITIALIZE, { authorization: "carol" });
    expect(full.status).toBe(503);
    expect((await json(full)).error.message).toMatch(/the server holds the most it keeps/);
    const served = await s.post(call("x"), { authorization: "alice", "mcp-session-id": alice.id! });
    expect(await json(served)).toMatchObject({ result: { content: [] } });
  });
});

describe("streams of a session", () => {
  it("1,000 GET streams on one session leave one open: each new one closes the one before", async () => {
    const s = await start();
    const { id } = await s.open("alice");
    const streams: ReturnType<typeof watch>[] = [];
    for (let i = 0; i < 1_000; i++) {
      const reply = await s.get(id!);
      expect(reply.status).toBe(200);
      streams.push(watch(reply));
    }
    // And 100 more at once: however they race, one stays.
    const racing = await Promise.all(Array.from({ length: 100 }, () => s.get(id!)));
    streams.push(...racing.map(watch));
    await within(
      new Promise<void>((resolve) => {
        const check = () => streams.filter((w) => !w.state.ended).length <= 1 && resolve();
        for (const w of streams) void w.ended("").then(check);
        check();
      }),
      "all streams but one closed",
    );
    const open = streams.filter((w) => !w.state.ended);
    expect(open).toHaveLength(1);
    expect(s.openResponses()).toBe(1);
    // The one left open is the session's stream: it gets what is sent to the session.
    expect(
      s.dispatcher.notifySessions({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }),
    ).toBe(1);
    await open[0]!.seen("tools/list_changed", "the notification on the stream left open");
    open[0]!.cancel();
  });

  it("DELETE closes every stream of the session: the GET stream and a POST's, whose request is aborted", async () => {
    const s = await start();
    const { id } = await s.open("alice");
    const headers = { authorization: "alice", "mcp-session-id": id! };
    const standalone = watch(await s.get(id!));
    const calling = watch(await s.post(call("hold"), headers));
    await calling.seen("notifications/progress", "the call's stream open");
    const deleted = await s.delete(headers);
    expect(deleted.status).toBe(200);
    await standalone.ended("the GET stream closed by DELETE");
    await calling.ended("the POST stream closed by DELETE");
    expect(held[0]!.aborted).toBe(true);
    expect(s.openResponses()).toBe(0);
    expect((await s.post(call("x"), headers)).status).toBe(404);
  });

  it("keeps an idle stream alive with comments, and closes it after streamIdleTimeoutMs; the session stays", async () => {
    const s = await start({ sseKeepAliveMs: 20, streamIdleTimeoutMs: 150 });
    const { id } = await s.open("alice");
    const stream = watch(await s.get(id!));
    await stream.seen(": keep-alive", "a keep-alive comment");
    await stream.ended("the idle stream closed");
    const headers = { authorization: "alice", "mcp-session-id": id! };
    expect(await json(await s.post(call("x"), headers))).toMatchObject({ result: {} });
  });

  it("closes the session's streams when it expires", async () => {
    const s = await start({ sseKeepAliveMs: 20, sessionIdleTimeoutMs: 100 });
    const { id } = await s.open("alice");
    const stream = watch(await s.get(id!));
    await stream.ended("the stream of the expired session closed");
    expect(
      (await s.post(call("x"), { authorization: "alice", "mcp-session-id": id! })).status,
    ).toBe(404);
  });
});

describe("two instances sharing one store", () => {
  it("serve each other's sessions: state set through one is what the other serves", async () => {
    const store = new MemorySessionStore();
    const a = await start({ sessionStore: store, sseKeepAliveMs: 20 });
    const b = await start({ sessionStore: store, sseKeepAliveMs: 20 });
    const { id } = await a.open("alice");
    const headers = { authorization: "alice", "mcp-session-id": id! };
    const subscribe = {
      jsonrpc: "2.0",
      id: 3,
      method: "resources/subscribe",
      params: { uri: "file:///x" },
    };
    expect(await json(await a.post(subscribe, headers))).toMatchObject({ id: 3, result: {} });
    expect(await json(await b.post(call("x"), headers))).toMatchObject({
      result: { content: [] },
    });
    expect((await b.post(call("x"), { ...headers, authorization: "mallory" })).status).toBe(404);
    // B rebuilt the session with its subscriptions: its GET stream gets the update.
    const onB = watch(await b.get(id!));
    expect(b.dispatcher.resourceUpdated("file:///x")).toBe(1);
    await onB.seen("file:///x", "the update on B's stream");
    const onA = watch(await a.get(id!));
    // Deleted through B: A finds the session gone at its next check, and closes its stream.
    expect((await b.delete(headers)).status).toBe(200);
    await onB.ended("B's stream closed by DELETE");
    await onA.ended("A's stream closed once A saw the session gone");
    expect((await a.post(call("x"), headers)).status).toBe(404);
  });
});

describe("options", () => {
  it("are checked when the handler is made, naming the option", () => {
    const make = (options: ServeHttpOptions) => () =>
      createHttpHandler(PROTOCOL, dispatcher(), options);
    expect(make({ sseKeepAliveMs: 0 })).toThrow(/sseKeepAliveMs/);
    expect(make({ streamIdleTimeoutMs: 2 ** 31 })).toThrow(/streamIdleTimeoutMs/);
    expect(make({ maxSessionsPerPrincipal: 0.5 })).toThrow(/maxSessionsPerPrincipal/);
    expect(make({ maxAnonymousSessions: 0 })).toThrow(/maxAnonymousSessions/);
    expect(make({ sessionStore: new MemorySessionStore(), maxSessions: 5 })).toThrow(
      /maxSessions bound the default session store/,
    );
  });
});
