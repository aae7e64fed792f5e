// The legacy session's standalone GET stream on the client, without a server (fake fetch, fake
// time): it is reopened when it drops or closes, with Last-Event-ID, the server's retry delay
// and a bounded backoff; 405 and the client's close stop it, and 404 tells the session's owner.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HttpEndpoint } from "../src/transport/http/client/client-endpoint.js";
import { InflightRequests } from "../src/transport/http/client/client-inflight.js";
import { SessionStreams } from "../src/transport/http/client/client-session.js";
import { reopenDelay, type ReconnectOptions } from "../src/transport/http/client/client-options.js";
import { createHttpTransport } from "../src/transport/http/client/client.js";
import { LEGACY_PROTOCOL } from "./fixture.js";

const URL_ = "http://mcp.test/mcp";
const encoder = new TextEncoder();

const notice = (n: number, id: string) =>
  `id: ${id}\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { n } })}\n\n`;

/** A stream the test writes to, drops or ends; aborting its GET drops it, as a socket would. */
function liveStream(signal: AbortSignal | null | undefined) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  let open = true;
  const stream = {
    body,
    send: (text: string) => open && controller.enqueue(encoder.encode(text)),
    drop: () => open && ((open = false), controller.error(new Error("socket reset"))),
    end: () => open && ((open = false), controller.close()),
  };
  signal?.addEventListener("abort", stream.drop, { once: true });
  return stream;
}

/** What one GET gets: a live stream, an HTTP status, or no answer (a refused connection). */
type Answer = "stream" | number | "unreachable";

function harness(plan: Answer[], reconnect?: ReconnectOptions | false) {
  const streams: ReturnType<typeof liveStream>[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
    const answer = plan.shift() ?? "stream";
    if (answer === "unreachable") throw new TypeError("fetch failed");
    if (typeof answer === "number") return new Response("", { status: answer });
    const stream = liveStream(init?.signal);
    streams.push(stream);
    return new Response(stream.body, { headers: { "content-type": "text/event-stream" } });
  });
  const endpoint = new HttpEndpoint(LEGACY_PROTOCOL, { url: URL_, fetch });
  endpoint.session = { id: "abc", version: "2025-11-25" };
  const heard: unknown[] = [];
  const streamsOf = new SessionStreams(endpoint, new InflightRequests(), 1024 * 1024, {
    onNotification: (n) => heard.push((n["params"] as { n: number }).n),
    ...(reconnect !== undefined ? { reconnect } : {}),
  });
  const lost = vi.fn();
  streamsOf.sessionLost = lost;
  const lastEventIds = () =>
    fetch.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)["last-event-id"]);
  return { fetch, streams, heard, session: streamsOf, endpoint, lost, lastEventIds };
}

describe("the standalone stream", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // No jitter: the full wait, so that the times below are exact.
    vi.spyOn(Math, "random").mockReturnValue(0);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("is reopened with Last-Event-ID after it drops, and hears the notices sent after", async () => {
    const t = harness([]);
    await t.session.listen(undefined);
    t.streams[0]!.send(notice(1, "g1"));
    await vi.advanceTimersByTimeAsync(0);
    t.streams[0]!.drop();
    await vi.advanceTimersByTimeAsync(999);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);

    expect(t.fetch).toHaveBeenCalledTimes(2);
    expect(t.lastEventIds()).toEqual([undefined, "g1"]);
    t.streams[1]!.send(notice(2, "g2"));
    t.streams[1]!.send(notice(3, "g3"));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.heard).toEqual([1, 2, 3]);
    t.session.stopListening();
  });

  it("waits the server's retry delay after a stream that carried events closes", async () => {
    const t = harness([]);
    await t.session.listen(undefined);
    t.streams[0]!.send(`retry: 3000\n${notice(1, "g1")}`);
    t.streams[0]!.end();
    await vi.advanceTimersByTimeAsync(2999);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.fetch).toHaveBeenCalledTimes(2);
    expect(t.lastEventIds()).toEqual([undefined, "g1"]);
    t.session.stopListening();
  });

  it("is reopened after a quiet stream the server closed (its idle limit)", async () => {
    const t = harness([]);
    await t.session.listen(undefined);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    t.streams[0]!.end();
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.fetch).toHaveBeenCalledTimes(2);
    t.session.stopListening();
  });

  it("backs off while the server cannot be reached, and gives up after maxAttempts", async () => {
    const t = harness(Array<Answer>(20).fill("unreachable"), {
      initialDelayMs: 100,
      maxDelayMs: 1000,
      maxAttempts: 6,
    });
    await t.session.listen(undefined);
    const times: number[] = [];
    const start = Date.now();
    t.fetch.mockImplementation(async () => {
      times.push(Date.now() - start);
      throw new TypeError("fetch failed");
    });
    await vi.advanceTimersByTimeAsync(60_000);
    // 100, then doubling, capped at 1000: 100, 300, 700, 1500, 2500 after the first failure.
    expect(times).toEqual([100, 300, 700, 1500, 2500]);
    expect(t.fetch).toHaveBeenCalledTimes(6);
  });

  it("takes up to half of each wait off at random", () => {
    const settings = { initialDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: 10 };
    expect(reopenDelay(3, undefined, settings, () => 1)).toBe(2000);
    expect(reopenDelay(3, undefined, settings, () => 0)).toBe(4000);
    expect(reopenDelay(20, undefined, settings, () => 0)).toBe(30_000);
    // After a stream that lasted, the server's retry as it is.
    expect(reopenDelay(0, 250, settings, () => 1)).toBe(250);
  });

  it("resets the backoff once a reopened stream carries an event", async () => {
    const t = harness(["unreachable", 503, "stream"], { initialDelayMs: 100, maxAttempts: 3 });
    await t.session.listen(undefined);
    await vi.advanceTimersByTimeAsync(100 + 200);
    expect(t.fetch).toHaveBeenCalledTimes(3);
    t.streams[0]!.send(notice(1, "g1"));
    t.streams[0]!.drop();
    await vi.advanceTimersByTimeAsync(100);
    // A fourth failure in a row would have stopped it at three.
    expect(t.fetch).toHaveBeenCalledTimes(4);
    expect(t.heard).toEqual([1]);
    t.session.stopListening();
  });

  it("is not reopened when the server offers none (405)", async () => {
    const t = harness([405]);
    await t.session.listen(undefined);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });

  it("is not reopened once the client stops listening, even while it waits", async () => {
    const t = harness([]);
    await t.session.listen(undefined);
    t.streams[0]!.send(notice(1, "g1"));
    t.streams[0]!.drop();
    await vi.advanceTimersByTimeAsync(500);
    t.session.stopListening();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });

  it("tells the session's owner when the server forgot the session (404), once", async () => {
    const t = harness(["stream", 404]);
    await t.session.listen(undefined);
    t.streams[0]!.send(notice(1, "g1"));
    t.streams[0]!.drop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(t.fetch).toHaveBeenCalledTimes(2);
    expect(t.lost).toHaveBeenCalledOnce();
  });

  it("opens a new stream when the event it names is no longer kept (400)", async () => {
    const t = harness(["stream", 400, "stream"]);
    await t.session.listen(undefined);
    t.streams[0]!.send(notice(1, "g1"));
    t.streams[0]!.drop();
    await vi.advanceTimersByTimeAsync(1000 + 1000);
    expect(t.lastEventIds()).toEqual([undefined, "g1", undefined]);
    t.session.stopListening();
  });

  it("is not reopened with reconnect: false", async () => {
    const t = harness([], false);
    await t.session.listen(undefined);
    t.streams[0]!.send(notice(1, "g1"));
    t.streams[0]!.drop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });
});

describe("reconnect options", () => {
  it.each([
    [{ maxAttempts: 0 }, "reconnect.maxAttempts must be a positive integer, got 0"],
    [{ initialDelayMs: -1 }, "reconnect.initialDelayMs must be a positive integer, got -1"],
    [{ maxDelayMs: 1.5 }, "reconnect.maxDelayMs must be a positive integer, got 1.5"],
    [
      { initialDelayMs: 5000, maxDelayMs: 1000 },
      "reconnect.maxDelayMs must be at least reconnect.initialDelayMs (5000), got 1000",
    ],
  ])("refuses %j with one line", (reconnect, message) => {
    expect(() => createHttpTransport(LEGACY_PROTOCOL, { url: URL_, reconnect })).toThrow(
      new TypeError(message),
    );
  });
});

describe("the standalone stream given up", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.spyOn(Math, "random").mockReturnValue(0);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("is tried once more after a call the server answered, and goes on if it opens", async () => {
    const t = harness(["unreachable", "unreachable", "unreachable", "stream"], {
      initialDelayMs: 100,
      maxAttempts: 2,
    });
    await t.session.listen(undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.fetch).toHaveBeenCalledTimes(2);

    // The server answered a call, but its GET still fails: one GET, then nothing more.
    t.session.listenAgain();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.fetch).toHaveBeenCalledTimes(3);

    t.session.listenAgain();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.fetch).toHaveBeenCalledTimes(4);
    t.streams[0]!.send(notice(1, "g1"));
    t.streams[0]!.drop();
    await vi.advanceTimersByTimeAsync(100);
    // Working again: reopened as usual.
    expect(t.fetch).toHaveBeenCalledTimes(5);
    expect(t.heard).toEqual([1]);
    t.session.stopListening();
  });

  it("is tried again by the transport when a call is answered", async () => {
    let gets = 0;
    const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
      if (init?.method === "GET") {
        gets++;
        throw new TypeError("fetch failed");
      }
      const body = JSON.parse(String(init?.body)) as { id?: number };
      return Response.json({ jsonrpc: "2.0", id: body.id, result: {} });
    });
    const transport = createHttpTransport(LEGACY_PROTOCOL, {
      url: URL_,
      fetch,
      reconnect: { initialDelayMs: 100, maxAttempts: 1 },
    });
    transport.legacy!.reset();
    await transport.request({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    transport.legacy!.begin("2025-11-25");
    await transport.legacy!.listen();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(gets).toBe(1);
    await transport.request({ jsonrpc: "2.0", id: 2, method: "ping", params: {} });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(gets).toBe(2);
    await transport.close!();
  });
});
