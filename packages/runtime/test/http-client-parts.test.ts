// The steps of the HTTP client transport on their own, without a server: how one SSE stream
// is routed, when a stream that closed before its response is resumed (fake time), and how
// the requests under way end with the session or the transport.
import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpEndpoint } from "../src/transport/http/client/client-endpoint.js";
import { InflightRequests } from "../src/transport/http/client/client-inflight.js";
import {
  readStream,
  responseFromStream,
  type ResponseContext,
  type StreamPosition,
} from "../src/transport/http/client/client-response.js";
import { TransportError } from "../src/core/transport-error.js";
import { LEGACY_PROTOCOL } from "./fixture.js";

const URL_ = "http://mcp.test/mcp";

function sseBody(text: string): ReadableStream<Uint8Array> {
  return new Response(text).body!;
}

function sseResponse(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

function routing() {
  return {
    limit: 1024 * 1024,
    answer: vi.fn<(request: Record<string, unknown>) => void>(),
    cancel: vi.fn<(notification: Record<string, unknown>) => void>(),
    notify: vi.fn<(notification: Record<string, unknown>) => void>(),
  };
}

const event = (data: unknown, id?: string) =>
  `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;

describe("readStream", () => {
  it("routes what precedes the response and stops at the response to its id", async () => {
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: {} };
    const ask = { jsonrpc: "2.0", id: "s1", method: "roots/list" };
    const other = { jsonrpc: "2.0", id: 6, result: {} };
    const response = { jsonrpc: "2.0", id: 7, result: { ok: true } };
    const after = { jsonrpc: "2.0", method: "notifications/message", params: {} };
    const body = sseBody(
      "retry: 2500\ndata:\n\n" +
        "data: not json\n\n" +
        event(progress, "e1") +
        event(ask, "e2") +
        event(other, "e3") +
        event(response, "e4") +
        event(after, "e5"),
    );
    const route = routing();
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined, events: 0 };

    expect(await readStream(body, 7, undefined, position, route)).toEqual(response);

    expect(route.answer.mock.calls).toEqual([[ask]]);
    expect(route.cancel.mock.calls).toEqual([[progress]]);
    // Without the request's own listener, a notification is the transport's and the session's.
    expect(route.notify.mock.calls).toEqual([[progress]]);
    // Nothing after the response is read: its event id is not where a resumption starts.
    expect(position).toEqual({ lastEventId: "e4", retryMs: 2500, events: 6 });
  });

  it("gives notifications to the request's listener when it has one, and ends undefined", async () => {
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: {} };
    const route = routing();
    const heard: unknown[] = [];
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    const body = sseBody(event(progress));

    const result = await readStream(body, 1, (n) => heard.push(n), position, route);

    expect(result).toBeUndefined();
    expect(heard).toEqual([progress]);
    expect(route.cancel).toHaveBeenCalledOnce();
    expect(route.notify).not.toHaveBeenCalled();
    expect(position.events).toBeUndefined();
  });
});

describe("responseFromStream", () => {
  afterEach(() => void vi.useRealTimers());

  function legacyContext(fetch: typeof globalThis.fetch): ResponseContext {
    const endpoint = new HttpEndpoint(LEGACY_PROTOCOL, { url: URL_, fetch });
    endpoint.session = { id: "abc", version: "2025-11-25" };
    return { endpoint, quietLimitMs: 30_000, ...routing() };
  }

  it("resumes a stream that closed early after the server's retry delay, from its last event", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const response = { jsonrpc: "2.0", id: 1, result: {} };
    const fetch = vi.fn<typeof globalThis.fetch>(async () => sseResponse(event(response)));
    const context = legacyContext(fetch);
    const first = sseResponse("id: e1\nretry: 3000\ndata:\n\n");

    const answered = responseFromStream(first, 1, {}, context);
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);

    expect(await answered).toEqual(response);
    expect(fetch).toHaveBeenCalledOnce();
    const init = fetch.mock.calls[0]![1]!;
    expect(init.method).toBe("GET");
    expect(init.headers).toMatchObject({
      accept: "text/event-stream",
      "last-event-id": "e1",
      "mcp-session-id": "abc",
      [LEGACY_PROTOCOL.http.versionHeader]: "2025-11-25",
    });
  });

  it("does not resume outside a legacy session: the stream's end is the error", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const context = legacyContext(fetch);
    context.endpoint.session = undefined;
    const first = sseResponse("id: e1\ndata:\n\n");

    await expect(responseFromStream(first, 1, {}, context)).rejects.toThrow(
      "the event stream ended without a response",
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("responseFromStream when the call's server goes quiet", () => {
  afterEach(() => void vi.useRealTimers());

  function legacyContext(fetch: typeof globalThis.fetch): ResponseContext {
    const endpoint = new HttpEndpoint(LEGACY_PROTOCOL, { url: URL_, fetch });
    endpoint.session = { id: "abc", version: "2025-11-25" };
    return { endpoint, quietLimitMs: 30_000, ...routing() };
  }
  const progress = (n: number) =>
    event({ jsonrpc: "2.0", method: "notifications/progress", params: { n } }, `e${n}`);

  it("gives up once resumptions brought nothing new for quietLimitMs: the call may be lost", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // What a replica that does not run the call answers: nothing to replay, the same last id.
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      sseResponse("id: e1\nretry: 100\ndata:\n\n"),
    );
    const answered = responseFromStream(
      sseResponse("id: e1\nretry: 100\ndata:\n\n"),
      1,
      {},
      legacyContext(fetch),
    );
    let settled = false;
    const failed = answered.catch((error: unknown) => error).finally(() => (settled = true));
    // Far more than 5 polls, but not yet 30 s: a replica's lease (15 s) may still lapse.
    await vi.advanceTimersByTimeAsync(29_000);
    expect(settled).toBe(false);
    expect(fetch.mock.calls.length).toBeGreaterThan(200);
    await vi.advanceTimersByTimeAsync(2_000);
    const error = (await failed) as TransportError;
    expect(fetch.mock.calls.length).toBeLessThanOrEqual(310);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe("dropped");
    expect(error.message).toBe(
      "no response: the call's event stream was resumed with nothing new for longer than resumeQuietMs " +
        "(the server, or the replica running the call, may have stopped); the call may or may not have run",
    );
  });

  it("gives up after 5 quiet resumptions at the least, however long the server's retry", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      sseResponse("id: e1\nretry: 60000\ndata:\n\n"),
    );
    const failed = responseFromStream(
      sseResponse("id: e1\nretry: 60000\ndata:\n\n"),
      1,
      {},
      legacyContext(fetch),
    ).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(6 * 60_000);
    expect(await failed).toBeInstanceOf(TransportError);
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it("keeps polling while each resumption brings new events", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let n = 1;
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      sseResponse(
        ++n <= 8 ? progress(n) : event({ jsonrpc: "2.0", id: 1, result: { done: true } }, "e9"),
      ),
    );
    const answered = responseFromStream(sseResponse(progress(1)), 1, {}, legacyContext(fetch));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await answered).toEqual({ jsonrpc: "2.0", id: 1, result: { done: true } });
    expect(fetch).toHaveBeenCalledTimes(8);
  });

  it("polls again when a resumption is refused (503, a replica shutting down) or unreachable", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const answers = [
      async () => new Response("", { status: 503 }),
      async () => {
        throw new TypeError("fetch failed");
      },
      async () => sseResponse(event({ jsonrpc: "2.0", id: 1, result: {} }, "e2")),
    ];
    const fetch = vi.fn<typeof globalThis.fetch>(() => answers.shift()!());
    const answered = responseFromStream(sseResponse(progress(1)), 1, {}, legacyContext(fetch));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await answered).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});

describe("InflightRequests", () => {
  it("aborts a linked signal with the request's own reason, then forgets it", () => {
    const inflight = new InflightRequests();
    const own = new AbortController();
    const { signal, release } = inflight.link(own.signal);
    expect(inflight.size).toBe(1);
    own.abort("mine");
    expect(signal.reason).toBe("mine");
    release();
    expect(inflight.size).toBe(0);
  });

  it("fails the requests under way with the end's reason; a released one is left alone", () => {
    const inflight = new InflightRequests();
    const ended = new TransportError("closed", "the session was closed before the response");
    const done = inflight.link(undefined);
    done.release();
    const running = inflight.link(undefined);
    inflight.abortAll(ended);
    expect(running.signal.reason).toBe(ended);
    expect(done.signal.aborted).toBe(false);
    // The session ended, the transport did not: new requests are still taken.
    expect(() => inflight.link(undefined)).not.toThrow();
  });

  it("once closed, aborts what runs and refuses new requests with the same error", () => {
    const inflight = new InflightRequests();
    const running = inflight.link(undefined);
    const closed = inflight.close();
    expect(closed).toBeInstanceOf(TransportError);
    expect(closed.kind).toBe("closed");
    expect(running.signal.reason).toBe(closed);
    expect(() => inflight.link(undefined)).toThrow(closed);
    expect(inflight.close()).toBe(closed);
  });
});
